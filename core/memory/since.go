package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Provenance: which memory lines were written since a git ref and by whom,
// so that the reviewer of a pull request sees every line an agent added.
// The memory format has no room for an author (it is HackLM's), so git is
// the record: blame of each memory file as the work tree holds it, stopped
// at the ref.

// Written is one line of a memory file added or changed since the ref, and
// who wrote it (store.LineOrigin: not committed yet, or the commit's
// author).
type Written struct {
	// File indexes the files given to Since; Line is the 0-based line.
	File, Line int
	// Entry: the line is an entry HackLM reads (else a line it ignores, a
	// comment or prose, which agents pointed at the file still read).
	Entry bool
	Slug  string
	// Changed: an entry whose slug the ref held with another text; else the
	// line is new.
	Changed bool
	// Text is the line as written, with hidden text made visible.
	Text string
	store.LineOrigin
}

// SinceError is a --since that cannot be answered: outside git, or a ref git
// does not know.
type SinceError struct {
	Ref string
	Err error
}

func (e *SinceError) Error() string {
	if errors.Is(e.Err, store.ErrNoGit) {
		return "--since needs git: the memory folder is not in a git work tree"
	}
	return fmt.Sprintf("--since %s: %v", e.Ref, e.Err)
}

func (e *SinceError) Unwrap() error { return e.Err }

// Since lists the lines of files (as Load returned them) written since ref,
// in file and line order, and the commit ref names. Blank lines, headings
// and HackLM's boilerplate are left out; a file over the size limit is not
// read. Each file costs one git blame, and one read of the file at ref when
// some of its lines are new.
func (s *Service) Since(ctx context.Context, ref string, files []rules.File) (string, []Written, error) {
	commit, err := store.GitCommit(ctx, s.WS.Dir, ref)
	if err != nil {
		return "", nil, &SinceError{Ref: ref, Err: err}
	}
	var out []Written
	for fi, f := range files {
		if f.TooLarge() || f.Doc == nil {
			continue
		}
		origins, err := store.BlameSince(ctx, s.WS.Dir, f.Name, commit)
		if err != nil {
			return "", nil, err
		}
		written := writtenLines(fi, f.Doc, origins)
		if len(written) == 0 {
			continue
		}
		old, _, err := store.FileAt(ctx, s.WS.Dir, f.Name, commit, memfile.MaxBytes)
		if err != nil {
			return "", nil, err
		}
		markChanged(written, f.Doc, memfile.Parse(old))
		out = append(out, written...)
	}
	return commit, out, nil
}

// writtenLines are the lines of d that origins say were written after the
// commit; a line origins do not cover (a file git does not track) is new
// and not committed.
func writtenLines(fi int, d *memfile.Document, origins []store.LineOrigin) []Written {
	var out []Written
	for li, ln := range d.Lines {
		switch ln.Kind {
		case memfile.KindBlank, memfile.KindHeading, memfile.KindBoilerplate:
			continue
		}
		o := store.LineOrigin{Since: true}
		if li < len(origins) {
			o = origins[li]
		}
		if !o.Since {
			continue
		}
		body := string(d.Src[ln.Span.Start:d.BodyEnd(li)])
		if strings.TrimSpace(body) == "" {
			continue
		}
		o.Author, o.Email = visible(o.Author), visible(o.Email)
		w := Written{File: fi, Line: li, Entry: ln.Entry >= 0, Text: visible(body), LineOrigin: o}
		if w.Entry {
			w.Slug = d.Entries[ln.Entry].Slug
		}
		out = append(out, w)
	}
	return out
}

// markChanged marks the written entries whose slug old held with another
// text: a fact changed rather than added.
func markChanged(written []Written, d, old *memfile.Document) {
	was := map[string]string{}
	for _, e := range old.Entries {
		if e.HasSlug {
			was[e.Slug] = e.Content
		}
	}
	for i, w := range written {
		if !w.Entry {
			continue
		}
		e := d.Entries[d.Lines[w.Line].Entry]
		if content, ok := was[e.Slug]; ok && e.HasSlug && content != e.Content {
			written[i].Changed = true
		}
	}
}

// visible is s with its hidden text made visible: what a reviewer reads must
// not hide anything itself.
func visible(s string) string { return Printable(s) }

// Change is "added" or "changed".
func (w Written) Change() string {
	if w.Changed {
		return "changed"
	}
	return "added"
}

// By is who wrote the line: "Ada <ada@example.com> in 1a2b3c4 on
// 2024-03-01", or "not committed yet".
func (w Written) By() string {
	if !w.Committed {
		return "not committed yet"
	}
	// The author's name and address come from whoever made the commit.
	return fmt.Sprintf("%s <%s> in %s on %s", Printable(w.Author), Printable(w.Email), w.Commit, w.When.UTC().Format(time.DateOnly))
}

// Message says what was written since ref and by whom, for every output of
// check --since: `entry added since origin/main by Ada <ada@example.com>
// in 1a2b3c4 on 2024-03-01: - [cache] Cache pages for five minutes.`
func (w Written) Message(ref string) string {
	what := "line"
	if w.Entry {
		what = "entry"
	}
	by := " by " + w.By()
	if !w.Committed {
		by = ", " + w.By()
	}
	return fmt.Sprintf("%s %s since %s%s: %s", what, w.Change(), ref, by, w.Text)
}
