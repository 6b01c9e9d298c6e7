package rules

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/text"
	"github.com/memory-lsp/memory-lsp/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/rules and testdata/fixes")

// Fixture escapes, so that invisible bytes stay visible in the archives:
// {CR} is a carriage return, {BOM} a U+FEFF, and {NOEOL} at the end of a
// section means the file has no final newline.
var unescaper = strings.NewReplacer("{CR}", "\r", "{BOM}", "\uFEFF")

func unescape(b []byte) []byte {
	s := string(b)
	s = strings.TrimSuffix(s, "{NOEOL}\n")
	return []byte(unescaper.Replace(s))
}

func escape(b []byte) []byte {
	s := strings.NewReplacer("\r", "{CR}", "\uFEFF", "{BOM}").Replace(string(b))
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "{NOEOL}\n"
	}
	return []byte(s)
}

// fixture is one parsed archive.
type fixture struct {
	ar    *txtar.Archive
	files []File
	cfg   config.Config
	// codes filters the findings shown (nil: all).
	codes []string
	// fix is the comment's "fix:" directive.
	fix string
	// grow is the comment's "grow: PATH SIZE" directives: PATH's section is
	// repeated until the file holds at least SIZE bytes, so that a fixture
	// can show a file over MaxFileBytes without committing one.
	grow map[string]int
}

func loadFixture(t *testing.T, file string) *fixture {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{ar: txtar.Parse(data), cfg: config.Default()}
	for _, line := range strings.Split(string(fx.ar.Comment), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "codes":
			if val != "all" {
				fx.codes = strings.Fields(val)
			}
		case "fix":
			fx.fix = val
		case "limit":
			f := strings.Fields(val)
			cat, err := category.Parse(f[0])
			if err != nil {
				t.Fatal(err)
			}
			fx.cfg.Limits[cat], _ = strconv.Atoi(f[1])
		case "longEntry":
			fx.cfg.LongEntry, _ = strconv.Atoi(val)
		case "enable":
			// rules that are off by default (missing-slug)
			for _, code := range strings.Fields(val) {
				fx.cfg.Disabled[code] = false
			}
		case "grow":
			f := strings.Fields(val)
			n, err := strconv.Atoi(f[len(f)-1])
			if len(f) != 2 || err != nil {
				t.Fatalf("grow: %q: want PATH SIZE", val)
			}
			if fx.grow == nil {
				fx.grow = map[string]int{}
			}
			fx.grow[f[0]] = n
		}
	}
	for _, f := range fx.ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		data := unescape(f.Data)
		if n := fx.grow[f.Name]; n > 0 {
			if len(data) == 0 {
				t.Fatalf("grow: %s is empty", f.Name)
			}
			data = bytes.Repeat(data, (n+len(data)-1)/len(data))
		}
		fx.files = append(fx.files, newFile(f.Name, data))
	}
	return fx
}

func newFile(p string, src []byte) File { return NewFile(p, src) }

// render prints findings as the golden files show them.
func render(files []File, fs []Finding, codes []string) string {
	var b strings.Builder
	for _, f := range fs {
		if codes != nil && !slices.Contains(codes, f.Code) {
			continue
		}
		b.WriteString(FormatText(files[f.File].Path, indexOf(files[f.File].Doc), f) + "\n")
		for _, r := range f.Related {
			pos, _ := text.NewIndex(files[r.File].Doc.Src).Position(r.Span.Start)
			fmt.Fprintf(&b, "  related: %s:%d:%d: %s\n", files[r.File].Path, pos.Line+1, pos.Col+1, r.Message)
		}
		for _, x := range f.Fixes {
			b.WriteString("  fix: " + x.Title)
			if x.Safe {
				b.WriteString(" (safe)")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// compare checks or (with -update) rewrites one want section.
func compare(t *testing.T, fx *fixture, name string, got []byte, changed *bool) {
	t.Helper()
	want, ok := fx.ar.Get(name)
	if *update {
		if !ok || !bytes.Equal(want, got) {
			fx.ar.Set(name, got)
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

func save(t *testing.T, file string, fx *fixture, changed bool) {
	if *update && changed {
		if err := os.WriteFile(file, txtar.Format(fx.ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func archives(t *testing.T, dir string) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
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
			codes := fx.codes
			if codes == nil && !strings.Contains(string(fx.ar.Comment), "codes: all") {
				codes = []string{code}
			}
			got := render(fx.files, Check(fx.files, fx.cfg), codes)
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
			if fx.fix == "" {
				t.Fatal(`archive comment has no "fix:" line`)
			}
			srcs := make([][]byte, len(fx.files))
			for i, f := range fx.files {
				srcs[i] = f.Doc.Src
			}
			files := fx.files
			if fx.fix == "all" {
				for round := 0; ; round++ {
					if round == 10 {
						t.Fatal("fix-all did not settle after 10 rounds")
					}
					edits := FixAll(files, Check(files, fx.cfg))
					if len(edits) == 0 {
						break
					}
					files = applyEdits(t, files, edits)
				}
			} else {
				code, title, _ := strings.Cut(fx.fix, "/")
				var chosen *Fix
				for _, f := range Check(files, fx.cfg) {
					for i := range f.Fixes {
						if f.Code == code && f.Fixes[i].Title == title && chosen == nil {
							chosen = &f.Fixes[i]
						}
					}
				}
				if chosen == nil {
					t.Fatalf("no %s finding offers the fix %q", code, title)
				}
				covered[code+"/"+fixKind(code, title)] = true
				byFile := map[int][]text.Edit{}
				for _, e := range chosen.Edits {
					byFile[e.File] = append(byFile[e.File], e.Edit)
				}
				files = applyEdits(t, files, byFile)
			}
			changed := false
			for i, f := range files {
				name := "want/" + f.Path
				_, has := fx.ar.Get(name)
				if bytes.Equal(f.Doc.Src, srcs[i]) {
					if has {
						t.Errorf("%s is unchanged but the archive has %s", f.Path, name)
					}
					continue
				}
				compare(t, fx, name, escape(f.Doc.Src), &changed)
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
	"duplicate-slug":  {"Rename slug to "},
	"missing-slug":    {"Assign slug "},
	"duplicate":       {"Delete the duplicate"},
	"near-duplicate":  {"Keep this one", "Keep the other", "Keep both"},
	"conflict":        {"Keep this one", "Keep the other", "Keep both"},
	"over-limit":      {"Delete this entry", "Prune "},
	"stray-line":      {"Make it an entry", "Delete line"},
	"secret":          {"Delete entry", "Delete line", "Delete lines", "Replace the secret with a placeholder"},
	"agent-directive": {"Delete entry", "Delete line"},
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
		for _, f := range Check(fx.files, fx.cfg) {
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
