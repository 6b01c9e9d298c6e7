package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// TestOverLimitOncePerCategory: a category over its limit is one warning
// (issue 28: 10,000 entries were 9,820 warnings), on the first entry by
// line that pruning removes, listing those entries up to overLimitListed
// as related information, with the prune that removes exactly them all.
func TestOverLimitOncePerCategory(t *testing.T) {
	for _, tc := range []struct {
		entries, limit int
		tail           string // the message's end
	}{
		{4, 3, "the one with the lowest score, this one (score 30)"},
		{5, 3, "the 2 with the lowest scores, this one (score 30) first by line; the related information lists both"},
		{50, 3, "the 47 with the lowest scores, this one (score 30) first by line; the related information lists all 47"},
		{250, 3, fmt.Sprintf("the 247 with the lowest scores, this one (score 30) first by line; the related information lists the first %d, memory-lsp cleanup all of them", overLimitListed)},
	} {
		var b strings.Builder
		// the first line scores highest and stays; the rest score alike,
		// so pruning takes the later lines first
		b.WriteString("- [db] Use PostgreSQL 16 for the primary store, see db/schema.sql.\n")
		for i := 1; i < tc.entries; i++ {
			fmt.Fprintf(&b, "- We agreed on plan %d.\n", i)
		}
		src := b.String()
		cfg := config.Default()
		cfg.Limits[3] = tc.limit
		var got []Finding
		for _, f := range Check([]File{newFile(".memory/decisions.md", []byte(src))}, cfg) {
			if f.Code == "over-limit" {
				got = append(got, f)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%d entries over a limit of %d: %d over-limit findings, want 1", tc.entries, tc.limit, len(got))
		}
		f := got[0]
		pruned := tc.entries - tc.limit
		doc := memfile.Parse([]byte(src))
		firstPruned := doc.Entries[tc.limit] // equal scores: the first lines stay
		if f.Span != entrySpan(&firstPruned) {
			t.Errorf("%d entries: span %v, want the first pruned entry's %v", tc.entries, f.Span, entrySpan(&firstPruned))
		}
		if !strings.HasSuffix(f.Message, tc.tail) {
			t.Errorf("%d entries: message %q, want it to end %q", tc.entries, f.Message, tc.tail)
		}
		if want := min(pruned, overLimitListed); len(f.Related) != want {
			t.Errorf("%d entries: %d related, want %d", tc.entries, len(f.Related), want)
		}
		for k, r := range f.Related {
			if e := &doc.Entries[tc.limit+k]; r.Span != entrySpan(e) {
				t.Errorf("%d entries: related %d at %v, want line %d", tc.entries, k, r.Span, e.Line)
				break
			}
		}
		if len(f.Fixes) != 1 || !f.Fixes[0].FileWide {
			t.Fatalf("%d entries: fixes %+v, want the file-wide prune alone", tc.entries, f.Fixes)
		}
		fixed := string(applyFix(t, []byte(src), f.Fixes[0]))
		if n := strings.Count(fixed, "\n- "); n+1 != tc.limit || !strings.HasPrefix(fixed, "- [db]") {
			t.Errorf("%d entries: the prune leaves\n%s", tc.entries, fixed)
		}
	}
}

// applyFix is src with fix's edits (all in file 0) applied.
func applyFix(t *testing.T, src []byte, fix Fix) []byte {
	t.Helper()
	edits := make([]text.Edit, len(fix.Edits))
	for i, e := range fix.Edits {
		edits[i] = e.Edit
	}
	out, err := text.Apply(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
