package rules

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/text"
	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/rules and testdata/fixes")

// golden is one parsed archive with its files as core reads them.
type golden struct {
	*fixture.Fixture
	files []File
}

func loadFixture(t *testing.T, file string) *golden {
	t.Helper()
	fx, err := fixture.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	out := &golden{Fixture: fx}
	for _, f := range fx.Memory() {
		out.files = append(out.files, newFile(f.Path, f.Data))
	}
	return out
}

// check runs every rule over files as the archive's workspace holds them,
// with the repository its other files and directives describe.
func (g *golden) check(files []File) []Finding { return CheckWithRepo(files, g.Config, g.Repo) }

func newFile(p string, src []byte) File { return NewFile(p, src) }

// render prints the findings shows accepts (nil: all) as the golden files
// show them.
func render(files []File, fs []Finding, shows func(code string) bool) string {
	var out []fixture.Finding
	ixs := make([]*text.Index, len(files))
	pos := func(file, off int) (int, int) {
		if ixs[file] == nil {
			ixs[file] = text.NewIndex(files[file].Doc.Src)
		}
		p, _ := ixs[file].Position(off)
		return p.Line + 1, p.Col + 1
	}
	for _, f := range fs {
		if shows != nil && !shows(f.Code) {
			continue
		}
		line, col := pos(f.File, f.Span.Start)
		g := fixture.Finding{Path: files[f.File].Path, Line: line, Col: col, Severity: f.Severity.String(), Code: f.Code, Message: f.Message}
		for _, r := range f.Related {
			line, col := pos(r.File, r.Span.Start)
			g.Related = append(g.Related, fixture.Related{Path: files[r.File].Path, Line: line, Col: col, Message: r.Message})
		}
		for _, x := range f.Fixes {
			g.Fixes = append(g.Fixes, fixture.Fix{Title: x.Title, Safe: x.Safe})
		}
		out = append(out, g)
	}
	return fixture.Render(out)
}

// compare checks or (with -update) rewrites one want section.
func compare(t *testing.T, fx *golden, name string, got []byte, changed *bool) {
	t.Helper()
	want, ok := fx.Archive.Get(name)
	if *update {
		if !ok || !bytes.Equal(want, got) {
			fx.Archive.Set(name, got)
			*changed = true
		}
		return
	}
	if !ok {
		t.Errorf("missing section %q; got:\n%s", name, got)
	} else if !bytes.Equal(want, got) {
		t.Errorf("%s:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func save(t *testing.T, file string, fx *golden, changed bool) {
	if *update && changed {
		if err := os.WriteFile(file, txtar.Format(fx.Archive), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func archives(t *testing.T, dir string) []string {
	t.Helper()
	files, err := fixture.Archives(filepath.Join("..", ".."), dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestGoldenRules checks testdata/rules/<code>.txtar: by default only the
// findings of <code> are shown ("codes:" in the comment overrides).
func TestGoldenRules(t *testing.T) {
	seen := map[string]bool{}
	for _, file := range archives(t, "rules") {
		code := strings.TrimSuffix(filepath.Base(file), ".txtar")
		seen[code] = true
		t.Run(code, func(t *testing.T) {
			fx := loadFixture(t, file)
			got := render(fx.files, fx.check(fx.files), fx.Shows)
			changed := false
			compare(t, fx, "want/findings", []byte(got), &changed)
			save(t, file, fx, changed)
		})
	}
	for _, r := range Rules() {
		if !seen[r.Code] {
			t.Errorf("no golden testdata/rules/%s.txtar", r.Code)
		}
	}
}

// TestGoldenFixes applies one fix (comment "fix: <code>/<title>", the first
// finding offering it) or all safe fixes ("fix: all", repeated until none is
// left) and compares every changed file with its want/<path> section.
func TestGoldenFixes(t *testing.T) {
	covered := map[string]bool{}
	for _, file := range archives(t, "fixes") {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			fx := loadFixture(t, file)
			if fx.Fix == "" {
				t.Fatal(`archive comment has no "fix:" line`)
			}
			srcs := make([][]byte, len(fx.files))
			for i, f := range fx.files {
				srcs[i] = f.Doc.Src
			}
			files := fx.files
			if fx.Fix == "all" {
				for round := 0; ; round++ {
					if round == 10 {
						t.Fatal("fix-all did not settle after 10 rounds")
					}
					edits := FixAll(files, fx.check(files))
					if len(edits) == 0 {
						break
					}
					files = applyEdits(t, files, edits)
				}
			} else {
				code, title, _ := strings.Cut(fx.Fix, "/")
				var chosen *Fix
				var of Finding
				for _, f := range fx.check(files) {
					for i := range f.Fixes {
						if f.Code == code && f.Fixes[i].Title == title && chosen == nil {
							chosen, of = &f.Fixes[i], f
						}
					}
				}
				if chosen == nil {
					t.Fatalf("no %s finding offers the fix %q", code, title)
				}
				covered[code+"/"+fixKind(code, title)] = true
				byFile := map[int][]text.Edit{}
				for _, e := range of.EditsOf(chosen, files) {
					byFile[e.File] = append(byFile[e.File], e.Edit)
				}
				files = applyEdits(t, files, byFile)
			}
			changed := false
			for i, f := range files {
				name := "want/" + f.Path
				_, has := fx.Archive.Get(name)
				if bytes.Equal(f.Doc.Src, srcs[i]) {
					if has {
						t.Errorf("%s is unchanged but the archive has %s", f.Path, name)
					}
					continue
				}
				compare(t, fx, name, fixture.Escape(f.Doc.Src), &changed)
			}
			save(t, file, fx, changed)
		})
	}
	if t.Failed() || *update {
		return
	}
	for code, kinds := range fixKinds {
		for _, k := range kinds {
			if !covered[code+"/"+k] {
				t.Errorf("no testdata/fixes archive applies %s/%s…", code, k)
			}
		}
	}
}

// fixKinds lists every fix each rule offers, by the fixed start of its title.
var fixKinds = map[string][]string{
	"bullet-marker":   {`Use a "- " bullet`},
	"indented-entry":  {`Dedent into a "- " entry`},
	"empty-entry":     {"Delete the empty line"},
	"bom":             {"Remove the BOM"},
	"line-ending":     {"Replace the carriage return with a space", "Convert LF line endings to CRLF", "Convert CRLF line endings to LF"},
	"slug-format":     {"Rename slug to "},
	"slug-malformed":  {"Insert a space after ", `Remove "[]"`},
	"checkbox":        {"Drop the checkbox"},
	"duplicate-slug":  {"Rename slug to ", "Keep this one", "Keep the other"},
	"missing-slug":    {"Assign slug "},
	"duplicate":       {"Delete the duplicate"},
	"near-duplicate":  {"Keep this one", "Keep the other", "Keep both"},
	"conflict":        {"Keep this one", "Keep the other", "Keep both"},
	"over-limit":      {"Prune "},
	"stray-line":      {"Make it an entry", "Delete line"},
	"secret":          {"Delete entry", "Delete line", "Delete lines", "Replace the secret with a placeholder"},
	"agent-directive": {"Delete entry", "Delete line"},
	"hidden-text":     {"Remove the hidden characters", "Remove the comment", "Remove the link", "Remove the definition", "Remove the hidden element", "Delete entry", "Delete line", "Delete lines"},
	"stale-path":      {"Replace with ", "Delete entry"},
	"stale-command":   {"Replace with "},
	"version-drift":   {"Update to "},
}

// fixKind maps a fix title to its entry in fixKinds ("" if unlisted).
func fixKind(code, title string) string {
	for _, k := range fixKinds[code] {
		if title == k || (strings.HasSuffix(k, " ") && strings.HasPrefix(title, k)) {
			return k
		}
	}
	return ""
}

// TestFixKindsListed keeps fixKinds complete: every fix title a rule golden
// shows must be listed, so that a new fix cannot go without a fixture.
func TestFixKindsListed(t *testing.T) {
	for _, file := range archives(t, "rules") {
		fx := loadFixture(t, file)
		for _, f := range fx.check(fx.files) {
			for _, x := range f.Fixes {
				if fixKind(f.Code, x.Title) == "" {
					t.Errorf("%s: fix %s/%q is not in fixKinds", filepath.Base(file), f.Code, x.Title)
				}
			}
		}
	}
}

func applyEdits(t *testing.T, files []File, edits map[int][]text.Edit) []File {
	t.Helper()
	out := slices.Clone(files)
	for fi, es := range edits {
		src, err := text.Apply(files[fi].Doc.Src, es)
		if err != nil {
			t.Fatalf("%s: %v", files[fi].Path, err)
		}
		out[fi] = newFile(files[fi].Path, src)
	}
	return out
}
