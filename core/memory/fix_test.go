package memory

import (
	"reflect"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

func TestFixAll(t *testing.T) {
	const (
		// every safe fix, some only after another: BOM, glued slug,
		// empty entry, empty slug; the bullet marker's fix is not safe
		messy = "\ufeff# Decisions\n\n- [a]Use Postgres.\n-   \n- [] Keep logs for 30 days.\n* Not a HackLM bullet.\n"
		fixed = "# Decisions\n\n- [a] Use Postgres.\n- Keep logs for 30 days.\n* Not a HackLM bullet.\n"
		// a duplicate and a lone CR
		quirks      = "# Quirks\n\n- The CDN ignores\rCache-Control.\n- Retry twice.\n- Retry twice.\n"
		quirksFixed = "# Quirks\n\n- The CDN ignores Cache-Control.\n- Retry twice.\n"
		// a secret's line is never rewritten, not even by a safe fix
		secret = "# Decisions\n\n- [tok]The CI token is ghp_4fK9sLm2Qx7Rt1Vb8Nc3Zd6Wy0Pe5Ha9Jg2U for now.\n-   \n"
		clean  = "# Decisions\n\n- [db] Use Postgres.\n"
	)
	files := func(decisions string) []rules.File {
		return []rules.File{
			rules.NewFile("/w/.memory/decisions.md", []byte(decisions)),
			rules.NewFile("/w/.memory/quirks.md", []byte(quirks)),
			rules.NewFile("/w/.memory/notes.md", []byte("-   \nnot a category file\n")),
		}
	}
	tests := []struct {
		name  string
		files []rules.File
		only  int
		want  map[int]string
	}{
		{"every file, to a fixed point", files(messy), AllFiles, map[int]string{0: fixed, 1: quirksFixed}},
		{"one file alone", files(messy), 0, map[int]string{0: fixed}},
		{"the other file alone", files(messy), 1, map[int]string{1: quirksFixed}},
		{"a clean file", files(clean), 0, map[int]string{}},
		{"not a hazard's line", files(secret), 0,
			map[int]string{0: "# Decisions\n\n- [tok]The CI token is ghp_4fK9sLm2Qx7Rt1Vb8Nc3Zd6Wy0Pe5Ha9Jg2U for now.\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := make([]string, len(tt.files))
			for i, f := range tt.files {
				before[i] = string(f.Doc.Src)
			}
			after, err := FixAll(tt.files, config.Default(), nil, tt.only, rules.Check(tt.files, config.Default()))
			if err != nil {
				t.Fatal(err)
			}
			got := map[int]string{}
			for i, b := range after {
				got[i] = string(b)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("after\n%#v\nwant\n%#v", got, tt.want)
			}
			for i, f := range tt.files {
				if string(f.Doc.Src) != before[i] {
					t.Errorf("FixAll changed its input %s", f.Name)
				}
			}
		})
	}
}

// TestFixAllFindings: the first pass takes the caller's findings (the
// editor leaves out the pairs a person chose to keep), and a fix-all of one
// file takes only the fixes that edit that file alone.
func TestFixAllFindings(t *testing.T) {
	const clean = "# Decisions\n\n- [db] Use Postgres.\n"
	files := []rules.File{
		rules.NewFile("/w/.memory/decisions.md", []byte(clean)),
		rules.NewFile("/w/.memory/quirks.md", []byte("# Quirks\n")),
	}
	insert := func(fi int, s string) []rules.FileEdit {
		return []rules.FileEdit{{File: fi, Edit: text.Edit{Start: len(clean) - 1, End: len(clean) - 1, New: s}}}
	}
	// A finding of file 0 whose first safe fix edits file 1 as well.
	both := append(insert(0, " Always."), rules.FileEdit{File: 1, Edit: text.Edit{Start: 0, End: 0, New: "x"}})
	given := []rules.Finding{{Code: "made-up", File: 0, Fixes: []rules.Fix{
		{Title: "both files", Safe: true, Edits: both},
		{Title: "this file", Safe: true, Edits: insert(0, " Really.")},
	}}}
	tests := []struct {
		name     string
		only     int
		findings []rules.Finding
		want     map[int]string
	}{
		{"every file takes the first safe fix", AllFiles, given,
			map[int]string{0: "# Decisions\n\n- [db] Use Postgres. Always.\n", 1: "x# Quirks\n"}},
		{"one file takes the first that edits nothing else", 0, given,
			map[int]string{0: "# Decisions\n\n- [db] Use Postgres. Really.\n"}},
		{"no findings given, nothing fixed", AllFiles, []rules.Finding{}, map[int]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after, err := FixAll(files, config.Default(), nil, tt.only, tt.findings)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int]string{}
			for i, b := range after {
				got[i] = string(b)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("after\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

func TestFixAllStopsAtAFixThatDoesNotApply(t *testing.T) {
	files := []rules.File{rules.NewFile("/w/.memory/decisions.md", []byte("# Decisions\n"))}
	bad := []rules.Finding{{Code: "made-up", File: 0, Fixes: []rules.Fix{
		{Title: "out of range", Safe: true, Edits: []rules.FileEdit{{File: 0, Edit: text.Edit{Start: 5, End: 500}}}},
	}}}
	after, err := FixAll(files, config.Default(), nil, AllFiles, bad)
	if err == nil || len(after) != 0 {
		t.Fatalf("FixAll = %v, %v; want nothing changed and an error", after, err)
	}
	if want := "fixing decisions.md: "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("error %q does not name the file", err)
	}
}
