package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
)

// TestFindingsListedPerRuleAreBounded: a file lists at most MaxListed
// findings of one rule, the first ones, then one that says how many more
// there are from its line on; the lines of a hazard rule's findings not
// listed are hazards all the same (FindHazards).
func TestFindingsListedPerRuleAreBounded(t *testing.T) {
	const n = MaxListed + 500
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range n {
		// a malformed slug on every line, and a hidden comment on every line
		fmt.Fprintf(&b, "- [A_%d] Deploy service%d <!-- note %d --> after review.\n", i, i, i)
	}
	files := []File{newFile(".memory/decisions.md", []byte(b.String()))}
	count := map[string]int{}
	var summary *Finding
	fs := Check(files, config.Default())
	for i, f := range fs {
		count[f.Code]++
		if f.Code == "slug-format" && strings.Contains(f.Message, "more slug-format findings") {
			summary = &fs[i]
		}
	}
	if count["slug-format"] != MaxListed+1 || summary == nil {
		t.Fatalf("slug-format: %d findings (want %d and a summary), summary %v", count["slug-format"], MaxListed+1, summary)
	}
	if !strings.HasPrefix(summary.Message, "500 more slug-format findings") {
		t.Errorf("summary %q", summary.Message)
	}
	if want := files[0].Doc.Lines[2+MaxListed].Span.Start; summary.Span.Start < want || summary.Span.Start >= files[0].Doc.Lines[3+MaxListed].Span.Start {
		t.Errorf("the summary is at byte %d, want on the line of the first not listed (from byte %d)", summary.Span.Start, want)
	}
	if count["hidden-text"] != MaxListed+1 {
		t.Errorf("hidden-text: %d findings, want %d and a summary", count["hidden-text"], MaxListed)
	}
	if h := FindHazards(files, fs); len(h[0]) != n {
		t.Errorf("%d hazard lines, want every one of %d", len(h[0]), n)
	}
	// the Checker, warm, lists the same
	c := new(Checker)
	c.Check(files, config.Default())
	if warm := c.Check(files, config.Default()); len(warm) != len(fs) {
		t.Errorf("a warm Checker lists %d, Check %d", len(warm), len(fs))
	}
}

// TestRenamesOfManyRepeats: a slug used thousands of times in a file gets
// a distinct free name proposed for each repeat, the names a search from
// 2 each time would give.
func TestRenamesOfManyRepeats(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Decisions\n\n- [ab-3] Taken already.\n")
	const n = 6000
	for i := range n {
		fmt.Fprintf(&b, "- [ab] Keep thing%d apart.\n", i)
	}
	files := []File{newFile(".memory/decisions.md", []byte(b.String()))}
	cfg, err := config.Default().Merge(config.Settings{Rules: map[string]config.RuleSetting{"near-duplicate": {}}})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	k := 0
	for _, f := range Check(files, cfg) {
		if f.Code != "duplicate-slug" || len(f.Fixes) == 0 {
			continue
		}
		want := k + 2 // ab-2, then ab-4 on (ab-3 is taken)
		if want >= 3 {
			want++
		}
		if got := f.Fixes[0].Title; got != fmt.Sprintf("Rename slug to ab-%d", want) || seen[got] {
			t.Fatalf("repeat %d: %q, want ab-%d once", k, got, want)
		}
		seen[f.Fixes[0].Title] = true
		k++
	}
	if k != MaxListed {
		t.Errorf("%d renames listed, want %d", k, MaxListed)
	}
}
