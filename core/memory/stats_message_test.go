package memory

import (
	"strings"
	"testing"
)

// TestStatsMessage: the one rendering of stats that the editor's
// memory.stats and MCP's memoryStats both send.
func TestStatsMessage(t *testing.T) {
	a := EntryRef{File: "decisions.md", Line: 3, Content: "Run eslint on frontend changes."}
	b := EntryRef{File: "decisions.md", Line: 4, Content: "Run eslint on backend changes."}
	st := Stats{
		Total:      41,
		Categories: []CategoryStats{{Category: "Decision", File: "decisions.md", Entries: 40, Limit: 40}, {Category: "Quirk", File: "quirks.md", Entries: 1, Limit: 40}},
		Siblings:   []Pair{{Kind: "sibling", Entry: b, Other: a, Reason: `"frontend" vs "backend"`}},
	}
	got := st.Message("2026-11-25T12:00:00Z", "decisions.md")
	for _, want := range []string{
		"41 memories; 0 duplicates, 0 conflicts, 1 sibling pair (likely two facts each).\n",
		"\nDecision: 40/40 (full: the next new entry drops the lowest-scoring one)\n",
		"\nQuirk: 1/40\n",
		`sibling: decisions.md:4 "Run eslint on backend changes." and decisions.md:3`,
		"\nLast change: 2026-11-25T12:00:00Z (decisions.md)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("message lacks %q:\n%s", want, got)
		}
	}
	if one := (Stats{Total: 1}).Message("", ""); one != "1 memory; 0 duplicates, 0 conflicts." {
		t.Errorf("one memory, no last change: %q", one)
	}
}

func TestEntriesMessage(t *testing.T) {
	refs := []EntryRef{{Category: "Quirk", File: "quirks.md", Line: 3, Slug: "gradle-leak", Content: "The Gradle daemon leaks memory."}}
	if got := EntriesMessage(refs); got != "1 memory:\nquirks.md:3 [Quirk] [gradle-leak] The Gradle daemon leaks memory." {
		t.Errorf("one entry: %q", got)
	}
	if got := EntriesMessage(nil); got != "0 memories." {
		t.Errorf("none: %q", got)
	}
}

func TestListMessage(t *testing.T) {
	entries := []CatalogEntry{
		{EntryRef: EntryRef{Category: "Quirk", File: "quirks.md", Line: 3, Slug: "gradle-leak", Content: "The Gradle daemon leaks memory."}, Path: "/w/.memory/quirks.md", Score: 30},
		{EntryRef: EntryRef{Category: "Decision", File: "decisions.md", Line: 4, Content: "Use Postgres."}, Path: "/w/.memory/decisions.md", Score: 28},
	}
	want := "2 memories:\nquirks.md:3 [Quirk] [gradle-leak] The Gradle daemon leaks memory.\ndecisions.md:4 [Decision] Use Postgres."
	if got := ListMessage(entries); got != want {
		t.Errorf("two entries:\n%q\nwant\n%q", got, want)
	}
	if got := ListMessage(nil); got != "0 memories." {
		t.Errorf("none: %q", got)
	}
}

func TestCleanupOutcome(t *testing.T) {
	const hint = "run `memory-lsp cleanup --apply` to apply this plan"
	changes := &CleanupPlan{After: map[int][]byte{0: []byte("x")}}
	tests := []struct {
		plan    *CleanupPlan
		applied bool
		want    string
	}{
		{changes, true, "Applied."},
		{changes, false, "Nothing written; run `memory-lsp cleanup --apply` to apply this plan."},
		{&CleanupPlan{}, true, ""},
		{&CleanupPlan{}, false, ""},
	}
	for _, tt := range tests {
		if got := tt.plan.Outcome(tt.applied, hint); got != tt.want {
			t.Errorf("Outcome(%v) with %d files changed = %q, want %q", tt.applied, len(tt.plan.After), got, tt.want)
		}
	}
}
