package memory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Suggestion kinds: how two entries of a file relate when they are alike
// but not the same fact said twice.
const (
	SuggestReversal      = "reversal"      // one reverses the other
	SuggestValue         = "value"         // the same fact with another value
	SuggestReworded      = "reworded"      // the same fact in other words
	SuggestQualification = "qualification" // one is the other with words added ("… on CI")
	SuggestSibling       = "sibling"       // one term differs: likely two facts
)

// SuggestionKinds lists the kinds in the order the plan shows them.
var SuggestionKinds = []string{SuggestReversal, SuggestValue, SuggestReworded, SuggestQualification, SuggestSibling}

// Suggested choices.
const (
	KeepEarlier = "earlier"
	KeepLater   = "later"
	KeepBoth    = "both"
)

// Suggestion is a pair of entries of one file that a person should decide
// on. Keep is the choice a store would have made (the newer side of a
// reversal or a changed value, the fuller side of a qualification, both
// siblings); it is applied only when the kind is accepted.
type Suggestion struct {
	Kind       string   `json:"kind"`
	File       string   `json:"file"`
	Earlier    EntryRef `json:"earlier"`
	Later      EntryRef `json:"later"`
	Similarity float64  `json:"similarity"`
	Reason     string   `json:"reason,omitempty"`
	Keep       string   `json:"keep"`
	Applied    bool     `json:"applied"`
}

// SuggestionKind maps a relation (similar.Kind*) to the kind of suggestion
// it makes in a cleanup; "" for a true duplicate, which is merged.
func SuggestionKind(v similar.Verdict) string {
	switch v.Kind {
	case similar.KindReversal:
		return SuggestReversal
	case similar.KindValue:
		return SuggestValue
	case similar.KindReworded:
		return SuggestReworded
	case similar.KindAddsDetail, similar.KindLessDetail:
		return SuggestQualification
	case similar.KindSibling:
		return SuggestSibling
	}
	return ""
}

// suggestedKeep is the side a store would have kept.
func suggestedKeep(v similar.Verdict) string {
	switch v.Kind {
	case similar.KindSibling:
		return KeepBoth
	case similar.KindLessDetail:
		return KeepEarlier
	}
	return KeepLater
}

// filePairs analyses a file's entries and finds the related pairs among
// those not on a hazard's line (a secret or a directive: neither merged nor
// offered as a pair, but left to a person, StepLeft). Each hazard is a group
// of its own: were its pairs dropped afterwards instead, an exact class whose
// earliest entry is a hazard would lose the pairs (similar.Pairs) that hold
// the rest of it together.
func filePairs(d *memfile.Document, cfg config.Config, hazards map[int]rules.Hazard) ([]*similar.Text, []similar.Pair) {
	texts := make([]*similar.Text, len(d.Entries))
	var group []int
	if len(hazards) > 0 {
		group = make([]int, len(d.Entries))
	}
	for i, e := range d.Entries {
		texts[i] = similar.Analyze(e.Content)
		if _, ok := hazards[e.LineIndex]; ok {
			group[i] = i + 1
		}
	}
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	return texts, similar.Pairs(texts, group, th)
}

// mergePlan merges each cluster of true duplicates — pairs a store would
// skip as the same fact — into one of its own lines, verbatim: the most
// complete wording (the most keywords, then the longest), under the
// earliest slug of the cluster. Nothing is synthesised, so a merge can
// never say something no entry said.
//
// It returns the file's related pairs too, renumbered for the file after
// the merge: a merge only deletes entries and moves slugs, so the other
// pairs stand, and suggestPlan need not compare the file again.
func (p *CleanupPlan) mergePlan(f *rules.File, cfg config.Config, hazards map[int]rules.Hazard) ([]text.Edit, []similar.Pair) {
	d := f.Doc
	texts, pairs := filePairs(d, cfg, hazards)
	parent := make([]int, len(texts))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	sims := map[[2]int]float64{}
	for _, pr := range pairs {
		if pr.Verdict.Kind != similar.KindDuplicate {
			continue
		}
		sims[[2]int{pr.I, pr.J}] = pr.Verdict.Similarity
		if a, b := find(pr.I), find(pr.J); a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	clusters := map[int][]int{}
	var roots []int
	for i := range texts {
		r := find(i)
		if len(clusters[r]) == 0 {
			roots = append(roots, r)
		}
		clusters[r] = append(clusters[r], i)
	}
	var drop []int
	var edits []text.Edit
	for _, r := range roots {
		members := clusters[r]
		if len(members) < 2 {
			continue
		}
		win := members[0]
		for _, m := range members[1:] {
			if moreComplete(d.Entries[m].Content, texts[m], d.Entries[win].Content, texts[win]) {
				win = m
			}
		}
		slug := ""
		for _, m := range members {
			if e := d.Entries[m]; e.HasSlug && similar.IsKebab(e.Slug) {
				slug = e.Slug
				break
			}
		}
		w := d.Entries[win]
		if slug != "" && (!w.HasSlug || w.Slug != slug) {
			edits = append(edits, d.ReplaceLine(w.LineIndex, memfile.EntryLine(slug, w.Content)))
		}
		var removed []string
		for _, m := range members {
			if m == win {
				continue
			}
			e := d.Entries[m]
			drop = append(drop, e.LineIndex)
			sim, ok := sims[[2]int{min(m, win), max(m, win)}]
			how := "duplicate"
			if ok && sim < 1 {
				how = fmt.Sprintf("duplicate, similarity %.2f", sim)
			}
			removed = append(removed, fmt.Sprintf("line %d %q (%s)", e.Line, e.Content, how))
		}
		detail := fmt.Sprintf("kept line %d %q, the most complete wording", w.Line, w.Content)
		if slug != "" && (!w.HasSlug || w.Slug != slug) {
			detail += fmt.Sprintf(", under the earliest slug [%s]", slug)
			if w.HasSlug {
				detail += fmt.Sprintf(" (its own slug [%s] goes)", w.Slug)
			}
		}
		p.Steps = append(p.Steps, CleanupStep{Kind: StepMerge, File: f.Name, Line: w.Line,
			Detail: detail + "; removed " + strings.Join(removed, ", ")})
	}
	if len(drop) > 0 {
		slices.Sort(drop)
		edits = append(edits, d.DeleteLines(drop)...)
	}
	return edits, survivingPairs(d, pairs, drop)
}

// survivingPairs renumbers the pairs of d's entries for d without the
// entries on the lines drop (sorted line indices), leaving out the pairs
// of a dropped entry.
func survivingPairs(d *memfile.Document, pairs []similar.Pair, drop []int) []similar.Pair {
	if len(drop) == 0 {
		return pairs
	}
	newIndex := make([]int, len(d.Entries))
	n := 0
	for i, e := range d.Entries {
		if _, gone := slices.BinarySearch(drop, e.LineIndex); gone {
			newIndex[i] = -1
			continue
		}
		newIndex[i] = n
		n++
	}
	out := pairs[:0:0]
	for _, pr := range pairs {
		if i, j := newIndex[pr.I], newIndex[pr.J]; i >= 0 && j >= 0 {
			out = append(out, similar.Pair{I: i, J: j, Verdict: pr.Verdict})
		}
	}
	return out
}

// moreComplete: a says more than b — more keywords, else more text.
func moreComplete(a string, at *similar.Text, b string, bt *similar.Text) bool {
	if len(at.Keys()) != len(bt.Keys()) {
		return len(at.Keys()) > len(bt.Keys())
	}
	return text.UTF16Len(a) > text.UTF16Len(b)
}

// suggestPlan lists every related pair of the file that is not a true
// duplicate, and applies the suggested choice of the accepted kinds: the
// other entry's line goes, and the kept entry takes its slug if it has none.
func (p *CleanupPlan) suggestPlan(f *rules.File, pairs []similar.Pair, opts CleanupOptions) []text.Edit {
	d := f.Doc
	gone := map[int]bool{}
	slugOf := map[int]string{} // kept entries given a slug
	var drop []int
	for _, pr := range pairs {
		kind := SuggestionKind(pr.Verdict)
		if kind == "" {
			continue
		}
		a, b := d.Entries[pr.I], d.Entries[pr.J]
		s := Suggestion{Kind: kind, File: f.Name, Earlier: entryRef(f, a), Later: entryRef(f, b),
			Similarity: pr.Verdict.Similarity, Reason: pr.Verdict.Reason, Keep: suggestedKeep(pr.Verdict)}
		if opts.Accept[kind] && s.Keep != KeepBoth && !gone[pr.I] && !gone[pr.J] {
			keep, lose := pr.I, pr.J
			if s.Keep == KeepLater {
				keep, lose = pr.J, pr.I
			}
			ke, le := d.Entries[keep], d.Entries[lose]
			gone[lose] = true
			drop = append(drop, le.LineIndex)
			if _, given := slugOf[keep]; !ke.HasSlug && !given && le.HasSlug && similar.IsKebab(le.Slug) {
				slugOf[keep] = le.Slug
			}
			s.Applied = true
			p.Steps = append(p.Steps, CleanupStep{Kind: StepResolve, File: f.Name, Line: ke.Line,
				Detail: fmt.Sprintf("%s: kept line %d %q; removed line %d %q", kind, ke.Line, ke.Content, le.Line, le.Content)})
		}
		p.Suggestions = append(p.Suggestions, s)
	}
	var edits []text.Edit
	for i, slug := range slugOf {
		if !gone[i] {
			e := d.Entries[i]
			edits = append(edits, d.ReplaceLine(e.LineIndex, memfile.EntryLine(slug, e.Content)))
		}
	}
	if len(drop) > 0 {
		slices.Sort(drop)
		edits = append(edits, d.DeleteLines(drop)...)
	}
	return edits
}

func entryRef(f *rules.File, e memfile.Entry) EntryRef {
	r := EntryRef{Category: f.Category.String(), File: f.Name, Line: e.Line, Content: e.Content}
	if e.HasSlug {
		r.Slug = e.Slug
	}
	return r
}
