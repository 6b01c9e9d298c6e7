package memory

import (
	"sort"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/similar"
)

// EntryDescription is what there is to know about one entry at a glance:
// its slug and category, HackLM's pruning score in its three terms, how
// full its file is, and the entries of the same file most like it.
type EntryDescription struct {
	Slug     string
	HasSlug  bool
	Category category.Category
	// Score is Weight + Brevity + Specificity (similar.ScoreTerms).
	Score, Weight, Brevity, Specificity int
	// Count is the entries in the file, Limit the category's limit.
	Count, Limit int
	// Similar is the most similar first, equals in file order.
	Similar []SimilarEntry
}

// SimilarEntry is an entry like the one described, and how alike they are.
type SimilarEntry struct {
	// Line is the entry's line as HackLM numbers lines (LF only); Start
	// is its line's byte offset, for front ends that number lines
	// otherwise (an editor also breaks lines at a lone CR).
	Line, Start int
	Similarity  float64
	// Note says what a store would make of the pair ("duplicate",
	// "conflict", "near-duplicate") and why, or is empty.
	Note    string
	Content string
}

// DescribeEntry describes entry i of category file f, listing at most
// maxSimilar similar entries: those with any similarity, and exact
// duplicates and conflicts even without.
func DescribeEntry(f *rules.File, i int, cfg config.Config, maxSimilar int) EntryDescription {
	e := &f.Doc.Entries[i]
	d := EntryDescription{Category: f.Category, Count: len(f.Doc.Entries), Limit: cfg.Limit(f.Category)}
	if e.HasSlug {
		d.Slug, d.HasSlug = e.Slug, true
	}
	d.Weight, d.Brevity, d.Specificity = similar.ScoreTerms(f.Category, e.Content)
	d.Score = d.Weight + d.Brevity + d.Specificity
	if e.Content == "" {
		return d
	}
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	me := similar.Analyze(e.Content)
	for j := range f.Doc.Entries {
		o := &f.Doc.Entries[j]
		if j == i || o.Content == "" {
			continue
		}
		v := similar.StoreVerdict(similar.Analyze(o.Content), me, th)
		if v.Similarity <= 0 && !v.Exact && v.Action != similar.Conflict {
			continue
		}
		d.Similar = append(d.Similar, SimilarEntry{Line: o.Line, Start: o.LineSpan.Start, Similarity: v.Similarity, Note: verdictNote(v), Content: o.Content})
	}
	sort.SliceStable(d.Similar, func(a, b int) bool { return d.Similar[a].Similarity > d.Similar[b].Similarity })
	if len(d.Similar) > maxSimilar {
		d.Similar = d.Similar[:maxSimilar]
	}
	return d
}

// verdictNote says what a store would make of the pair, and why.
func verdictNote(v similar.Verdict) string {
	var s string
	switch {
	case v.Exact:
		s = "duplicate"
	case v.Action == similar.Conflict:
		s = "conflict"
	case v.Action == similar.Skip, v.Action == similar.Update:
		s = "near-duplicate"
	}
	if v.Reason != "" && v.Reason != s {
		if s != "" {
			s += ", "
		}
		s += v.Reason
	}
	return s
}
