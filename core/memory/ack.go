package memory

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Writers that name themselves in the journal (store.Ack.By).
const (
	ByCLI = "cli"
	ByMCP = "mcp"
	ByLSP = "lsp"
	// ByReview journals a write a person approved (review.go): it may
	// hold what a store refuses, and an editor's save must not take it
	// out either.
	ByReview = "review"
)

// StoreAck is the journal record of a store that answered r: the entry the
// caller is told is stored (for a skip, the entry already there) and the
// lines the store took out (the entry it replaced, the one it evicted).
func StoreAck(r StoreResult, by string, now time.Time) store.Ack {
	add := memfile.EntryLine(r.Slug, r.Content)
	var drop []string
	if m := r.Matched; m != nil {
		switch {
		case r.Action == ActionSkipped:
			add = memfile.EntryLine(m.Slug, m.Content)
		case r.Action == ActionUpdated || r.Action == ActionConflict:
			if old := memfile.EntryLine(m.Slug, m.Content); old != add {
				drop = append(drop, old)
			}
		}
	}
	if e := r.Evicted; e != nil {
		drop = append(drop, memfile.EntryLine(e.Slug, e.Content))
	}
	return store.NewAck(r.File, add, drop, by, now)
}

// AckChange is the change that appends a to the journal of the folder dir.
func AckChange(dir string, a store.Ack) store.Change {
	return store.Change{Path: filepath.Join(dir, store.JournalName), Data: a.Encode(), Append: true}
}

// ackedContent is the content of an entry line ("" when it is no entry).
func ackedContent(line string) string {
	e, ok := memfile.EntryOfLine([]byte(line), 0, 1)
	if !ok {
		return ""
	}
	return e.Content
}

// HoldsEntry reports whether x has an entry whose content is the content of
// the entry line: a slug is the entry's name, not the fact, and a text that
// holds the fact under another slug holds it (putting it back would store
// the fact twice).
// It reads only the lines where the content occurs: the language server
// asks at every keystroke while a record is young.
func HoldsEntry(x []byte, line string) bool {
	c := ackedContent(line)
	if c == "" {
		return false
	}
	for off := 0; off < len(x); {
		i := bytes.Index(x[off:], []byte(c))
		if i < 0 {
			return false
		}
		i += off
		start := bytes.LastIndexByte(x[:i], '\n') + 1
		end := bytes.IndexByte(x[i:], '\n')
		if end < 0 {
			end = len(x)
		} else {
			end += i
		}
		line := x[start:end]
		if start == 0 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF")) // the file's BOM
		}
		if e, ok := memfile.EntryOfLine(line, start, 1); ok && e.Content == c {
			return true
		}
		off = i + 1
	}
	return false
}

// entryIndex is the index of d's first entry with content c, or -1.
func entryIndex(d *memfile.Document, c string) int {
	if c == "" {
		return -1
	}
	for i, e := range d.Entries {
		if e.Content == c {
			return i
		}
	}
	return -1
}

// Reapply is x with a's write made again, as the store made it: a's entry
// in place of the first line a dropped that x holds again, else appended;
// and the other lines a dropped taken out. x that holds a's entry already
// is returned as it is. A record that adds nothing (a removal) has the
// lines it dropped taken out again.
func Reapply(x []byte, a store.Ack) []byte {
	d := memfile.Parse(x)
	add := ackedContent(a.Add)
	if add == "" {
		var del []int
		for _, line := range a.Drop {
			if i := entryIndex(d, ackedContent(line)); i >= 0 && !slices.Contains(del, d.Entries[i].LineIndex) {
				del = append(del, d.Entries[i].LineIndex)
			}
		}
		if len(del) == 0 {
			return x
		}
		out, err := text.Apply(x, d.DeleteLines(del))
		if err != nil {
			panic(fmt.Sprintf("reapplying the removal of %q: %v", a.Drop, err))
		}
		return out
	}
	if entryIndex(d, add) >= 0 {
		return x
	}
	var edits []text.Edit
	var del []int
	replaced := false
	for _, line := range a.Drop {
		i := entryIndex(d, ackedContent(line))
		if i < 0 || slices.Contains(del, d.Entries[i].LineIndex) {
			continue
		}
		if !replaced {
			edits = append(edits, d.ReplaceLine(d.Entries[i].LineIndex, a.Add))
			replaced = true
			continue
		}
		del = append(del, d.Entries[i].LineIndex)
	}
	edits = append(edits, d.DeleteLines(del)...)
	if !replaced {
		edits = append(edits, appendEntry(d, a.Add))
	}
	out, err := text.Apply(x, edits)
	if err != nil {
		// The edits are built from x's own parse, apart and in range.
		panic(fmt.Sprintf("reapplying %q: %v", a.Add, err))
	}
	return out
}

// ValidAck reports whether the entry of a journal record is one a store
// would write: the journal is a file in the work tree, and anything that
// writes there (a checkout of a branch that committed one) must not get a
// line past store validation by having it put back.
func ValidAck(a store.Ack, cfg config.Config) error {
	cat, ok := category.FromFile(a.File)
	if !ok {
		return fmt.Errorf("the journal names %q, which is not a category file", a.File)
	}
	e, ok := memfile.EntryOfLine([]byte(a.Add), 0, 1)
	if !ok || memfile.EntryLine(slugOfEntry(e), e.Content) != a.Add {
		return fmt.Errorf("the journal's line %q is not an entry as a store writes it", a.Add)
	}
	if a.By == ByReview {
		cfg = approvedConfig(cfg)
	}
	_, err := Validate(StoreRequest{Category: cat.String(), Content: e.Content, Slug: slugOfEntry(e)}, cfg)
	return err
}

func slugOfEntry(e memfile.Entry) string {
	if e.HasSlug {
		return e.Slug
	}
	return ""
}

// BroughtAck is the record a server keeps of an entry its reconcile
// brought into a buffer from the disk (HackLM journals nothing), so that a
// save crossing that edit does not take it out.
func BroughtAck(file, line string, now time.Time) Ack {
	return store.NewAck(file, line, nil, "reconcile", now)
}

// RemovalAck is the record a server keeps of the entry lines its own plan
// took out of a file, so that a save from before the edit that took them
// out of the buffer does not write them back.
func RemovalAck(file string, out []string, now time.Time) Ack {
	return store.NewAck(file, "", out, ByLSP, now)
}
