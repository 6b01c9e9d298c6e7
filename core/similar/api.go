// Package similar decides how two memory texts relate: the same, a rewording,
// a reversal, or different facts. It also holds HackLM's pruning score and the
// deterministic slug generator, because all three read text the same way.
//
// For ordinary ASCII text the similarity is HackLM's number exactly (its
// keyword extraction, stop words and Jaccard). On top of that number the
// verdict corrects HackLM where it is plainly wrong: changed values, reversals,
// swapped named targets, and non-ASCII text (tokenised by Unicode letters, CJK
// by character bigrams). spec/examples/dedup-examples.json is the calibration.
//
// STUB: the API below is fixed; the implementation is being written.
package similar

import "github.com/memory-lsp/memory-lsp/core/category"

// Action is what a store should do about an existing entry.
type Action int

const (
	// Store: different facts; keep both.
	Store Action = iota
	// Update: the same subject reworded or with a changed value; replace the old.
	Update
	// Skip: the same meaning; storing adds nothing.
	Skip
	// Conflict: the new text reverses the old; replace it and say so.
	Conflict
)

func (a Action) String() string { return [...]string{"store", "update", "skip", "conflict"}[a] }

// Thresholds are the similarity cut-offs (HackLM: 0.8 skip, 0.6 update).
type Thresholds struct {
	Skip   float64
	Update float64
}

// Verdict is the classification of one (old, new) pair.
type Verdict struct {
	Action Action
	// Similarity is HackLM's Jaccard for ASCII text (1 for an exact match).
	Similarity float64
	// Exact is true when the normalised texts are equal (the `duplicate` finding).
	Exact bool
	// Reason is a short human phrase: "identical text", "values differ",
	// "different targets", "reversal", "" for plain similarity decisions.
	Reason string
}

// Text is the analysis of one content string, computed once and reused for
// every comparison. Fields are read-only after Analyze.
type Text struct {
	Raw string
	// Norm is the normalised form for the exact-match shortcut.
	Norm string
	// Keys are the keywords, sorted and unique.
	Keys []string
}

// Analyze tokenises s once.
func Analyze(s string) *Text { return &Text{Raw: s} }

// Classify compares an existing entry (old) with a new text.
func Classify(old, new *Text, th Thresholds) Verdict { return Verdict{} }

// Decide is storeMemory's dedup over the entries of one category, in file
// order: the first exact duplicate wins at once; otherwise the strongest
// action (conflict > skip > update > store), then the highest similarity,
// then the earliest entry. match is -1 when the verdict is Store with no entry.
func Decide(new *Text, existing []*Text, th Thresholds) (match int, v Verdict) { return -1, Verdict{} }

// Pair is a related pair of texts found by Pairs, I < J.
type Pair struct {
	I, J    int
	Verdict Verdict
}

// Pairs finds every pair (i < j) whose verdict is not Store, without comparing
// all pairs: candidates come from an inverted index of keywords with prefix
// filtering. group[i] restricts comparisons to texts of the same group (the
// category); pass nil to compare everything.
func Pairs(texts []*Text, group []int, th Thresholds) []Pair { return nil }

// Keywords is HackLM's keyword set for ASCII text (sorted, unique), extended
// to Unicode letters and CJK bigrams.
func Keywords(s string) []string { return nil }

// Jaccard of two sorted unique slices; 0 if either is empty (HackLM's rule).
func Jaccard(a, b []string) float64 { return 0 }

// Score is HackLM's pruning score: category weight + brevity + specificity.
func Score(cat category.Category, content string) int { return 0 }

// ScoreTerms returns the three terms of Score.
func ScoreTerms(cat category.Category, content string) (weight, brevity, specificity int) { return 0, 0, 0 }

// IsKebab reports whether s matches ^[a-z0-9]+(-[a-z0-9]+)*$.
func IsKebab(s string) bool { return false }

// Kebab converts an arbitrary slug to kebab-case ("My Slug_2" → "my-slug-2");
// "" when nothing usable is left.
func Kebab(s string) string { return "" }

// GenerateSlug derives a deterministic kebab-case slug from a content's
// strongest keywords; taken reports slugs already used in the file, and the
// result is never one of them.
func GenerateSlug(content string, taken func(string) bool) string { return "" }
