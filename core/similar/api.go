// Package similar decides how two memory texts relate: the same, a rewording,
// a reversal, or different facts. It also holds HackLM's pruning score and the
// deterministic slug generator, because all three read text the same way.
//
// For ordinary ASCII text the similarity is HackLM's number exactly (its
// keyword extraction, stop words and Jaccard). On top of that number the
// verdict corrects HackLM where it is plainly wrong: changed values, reversals,
// swapped named targets, and non-ASCII text (tokenised by Unicode letters, CJK
// by character bigrams). spec/examples/dedup-examples.json is the calibration.
package similar

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/memory-lsp/memory-lsp/core/text"
)

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
	// Kind says how the two texts relate (the Kind constants); empty for
	// unrelated texts.
	Kind string
	// Reason is a short human phrase: "identical text", "values differ",
	// "sibling: \"x\" vs \"y\"", "adds detail", "reversal" …; empty for plain
	// similarity decisions.
	Reason string
}

// Kinds of relation between two texts, from the most to the least alike.
const (
	// KindDuplicate: the same fact; storing it again adds nothing.
	KindDuplicate = "duplicate"
	// KindReworded: the same fact in other words.
	KindReworded = "reworded"
	// KindAddsDetail: the new text is the old one with words added.
	KindAddsDetail = "adds-detail"
	// KindLessDetail: the new text is the old one with words taken away.
	KindLessDetail = "less-detail"
	// KindValue: the same fact with a changed value (number, version, region).
	KindValue = "value"
	// KindSibling: the same sentence about a different thing: a second fact.
	KindSibling = "sibling"
	// KindReversal: the new text reverses the old one.
	KindReversal = "reversal"
)

// Text is the analysis of one content string, computed once and reused for
// every comparison. Read-only after Analyze.
//
// A language server keeps a Text for every entry of a workspace, so its
// lists live back to back in one array (one slice header, one allocation)
// and its keywords are views of one string of its cleaned words; the
// header is 80 bytes (TestTextSize).
type Text struct {
	Raw string
	// Norm is the normalised form for the exact-match shortcut.
	Norm string
	// lists is Keys, Core (unless Core is Keys), Numbers, Named and alt,
	// back to back; the ends say where each stops.
	lists                     []string
	keysEnd, coreEnd, numsEnd uint32
	// Sign is +1 or -1: the product of the polarity flips (not, never,
	// disable, without, <, 不, не …) in the text.
	Sign int8
	// hasOrder: the text may hold an order phrase ("A over B", "not A but
	// B", "A, не B"); only then is its shape read for one.
	hasOrder bool
	// coreIsKeys: Core is Keys, and lists holds it once.
	coreIsKeys bool
	// hasAlt: alt is lists' last element (else it is empty).
	hasAlt bool
	// shapeCache is the shape, built on first use.
	shapeCache atomic.Pointer[shape]
}

// Keys are the keywords, sorted and unique.
func (t *Text) Keys() []string { return t.lists[:t.keysEnd:t.keysEnd] }

// Core is Keys without the polarity and ordering vocabulary and without
// values, so a rule and its reversal, or the same rule with another value,
// have the same Core. When nothing was left out it is Keys itself (the same
// array), which Pairs reads as "intern once".
func (t *Text) Core() []string {
	if t.coreIsKeys {
		return t.Keys()
	}
	return t.lists[t.keysEnd:t.coreEnd:t.coreEnd]
}

// Numbers are the value tokens ("1.8", "v2", "eu-west-1"), sorted and
// unique: two texts that differ only here state different values.
func (t *Text) Numbers() []string { return t.lists[t.coreEnd:t.numsEnd:t.numsEnd] }

// Named are the keywords written as names in the text (ALL-CAPS, or
// Capitalised inside a sentence), sorted and unique.
func (t *Text) Named() []string {
	end := len(t.lists)
	if t.hasAlt {
		end--
	}
	return t.lists[t.numsEnd:end:end]
}

// alt is, for a text that normalises to nothing, its exactKey; for any
// other, its normCore. One value for the two: a text with an empty Norm has
// an empty normCore.
func (t *Text) alt() string {
	if t.hasAlt {
		return t.lists[len(t.lists)-1]
	}
	return ""
}

// exactKey is Norm, or for a text that normalises to nothing its trimmed
// lowercased raw form, so two different emoji-only texts are not equal.
func (t *Text) exactKey() string {
	if t.Norm == "" {
		return t.alt()
	}
	return t.Norm
}

// normCore is Norm without polarity words, kept only when Core is empty: it
// is then the only thing that can tell "Do it" from "Don't do it".
func (t *Text) normCore() string {
	if t.Norm == "" {
		return ""
	}
	return t.alt()
}

// altOf is alt for a text with the given Norm and Core, and raw text s; ok
// is false when it is empty.
func altOf(s, norm string, coreLen int) (alt string, ok bool) {
	switch {
	case norm == "":
		return "\x00" + strings.ToLower(strings.TrimFunc(s, text.IsJSSpace)), true
	case coreLen == 0:
		return withoutVocabulary(norm), true
	}
	return "", false
}

// setLists packs the lists into one array of exactly the room they need.
func (t *Text) setLists(s string, keys, core, numbers, named []string) {
	t.coreIsKeys = slices.Equal(core, keys)
	alt, hasAlt := altOf(s, t.Norm, len(core))
	n := len(keys) + len(numbers) + len(named)
	if !t.coreIsKeys {
		n += len(core)
	}
	if hasAlt {
		n++
	}
	if n == 0 {
		return
	}
	l := make([]string, 0, n)
	l = append(l, keys...)
	t.keysEnd = uint32(len(l))
	if !t.coreIsKeys {
		l = append(l, core...)
	}
	t.coreEnd = uint32(len(l))
	l = append(l, numbers...)
	t.numsEnd = uint32(len(l))
	l = append(l, named...)
	if hasAlt {
		l = append(l, alt)
		t.hasAlt = true
	}
	t.lists = l
}

// Pair is a related pair of texts found by Pairs, I < J.
type Pair struct {
	I, J    int
	Verdict Verdict
}

// Related: the pair is worth reporting, either because a store would act on
// it or because the texts are siblings a person may want to merge.
func (v Verdict) Related() bool { return v.Action != Store || v.Kind == KindSibling }
