package memory

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// citing is a memory file whose entries cite paths, commands and versions.
const citing = "# Decisions\n\n" +
	"- [build] Build with `make build`; the entry point is `cmd/app/main.go:12` (ünïcode 🚀).\n" +
	"- Routing was in `src/old.ts`; deploy with `make deploy`.\n" +
	"- We are on Node 18.\n" +
	"- Keep commits small.\n"

func TestAgo(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Hour, "just now"}, {30 * time.Second, "just now"}, {time.Minute, "1 minute ago"},
		{59 * time.Minute, "59 minutes ago"}, {5 * time.Hour, "5 hours ago"}, {24 * time.Hour, "1 day ago"},
		{59 * 24 * time.Hour, "59 days ago"}, {90 * 24 * time.Hour, "3 months ago"}, {800 * 24 * time.Hour, "2 years ago"},
	} {
		if got := ago(now.Add(-tc.d), now); got != tc.want {
			t.Errorf("ago(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestCitations: the references of each entry follow the file's text, as
// Extract reads them, across edits and after the cache drops old contents.
func TestCitations(t *testing.T) {
	var c Citations
	path := filepath.Join(t.TempDir(), ".memory", "decisions.md")
	check := func(text string) {
		t.Helper()
		file := rules.NewFile(path, []byte(text))
		got := make([][]refs.Ref, len(file.Doc.Entries))
		last := -1
		for _, ec := range c.Of(&file) {
			if ec.Entry <= last || ec.Entry >= len(got) || len(ec.Refs) == 0 {
				t.Fatalf("entry %d after entry %d, with %d references, in a file of %d entries", ec.Entry, last, len(ec.Refs), len(got))
			}
			got[ec.Entry], last = ec.Refs, ec.Entry
		}
		for i, e := range file.Doc.Entries {
			if want := refs.Extract(e.Content); !slices.Equal(got[i], want) {
				t.Errorf("entry %d: %+v, want %+v", i, got[i], want)
			}
		}
	}
	check(citing)
	check(strings.Replace(citing, "src/old.ts", "src/older.ts", 1))
	for i := range 200 { // many edits of one entry: old contents are dropped
		check(strings.Replace(citing, "`make deploy`", fmt.Sprintf("`make deploy-%d`", i), 1))
	}
	// many entries changed in place (more than are read one by one), then
	// one inserted above them: the references move with their entries
	var many, changed strings.Builder
	for i := range 3 * fewChanged {
		fmt.Fprintf(&many, "- Run `make step-%d` from src/step%d.ts.\n", i, i)
		fmt.Fprintf(&changed, "- Run `make step-%d` from src/step%d.ts.\n", i%5, i%7)
	}
	check(many.String())
	check(changed.String())
	check("- Read docs/new.md first.\n" + changed.String())
	check(citing)
	cited := 0
	for _, e := range rules.NewFile(path, []byte(citing)).Doc.Entries {
		if len(refs.Extract(e.Content)) > 0 {
			cited++
		}
	}
	if n := len(c.byFile[path].cited); n != cited {
		t.Errorf("the cache holds the references of %d entries for the %d that cite something", n, cited)
	}
	c.KeepOnly(map[string]bool{})
	if len(c.byFile) != 0 {
		t.Error("KeepOnly kept a file")
	}
}
