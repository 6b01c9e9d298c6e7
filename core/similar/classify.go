package similar

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// reversalMin is how alike two Cores must be before a flipped sign or order
// is read as a reversal of the same rule. It is fixed rather than tied to the
// skip threshold: "Remote push notifications never arrive in the iOS
// simulator" shares 5 of 7 core words (0.71) with "The iOS simulator ignores
// remote push notifications", and its "never" reverses nothing.
const reversalMin = 0.8

// coreCandidateMin is the least Core similarity at which Classify can call a
// pair more than Store for its polarity or order alone: a reversal that adds
// words ("Run tests with -race" / "Never run tests with -race on CI") or a
// preference against a plain rule ("Use chi" / "Prefer gorilla/mux over
// chi"). Pairs filters Cores at this value, so it finds every such pair.
const coreCandidateMin = 0.6

// Classify compares an existing entry (old) with a new text.
//
// The checks run from the most to the least certain. Equal normalised text is
// a duplicate only if nothing that normalising hides differs: the values
// ("> 1000" vs "< 1000" normalise alike) and the sign. A reversal is tested
// before similarity because a rule and its negation are, to HackLM's Jaccard,
// the same text. Only then does HackLM's similarity decide, corrected by
// reading the two texts word by word: a changed value is an update, one
// substituted term is a second fact (a sibling), and a text that adds or drops
// words is told apart from a true duplicate.
func Classify(old, new *Text, th Thresholds) Verdict {
	// The pair code (exact.go) takes this test for an equivalence: one
	// function keeps the two in step.
	if sameExact(old, new) {
		return exactVerdict
	}
	sim := Jaccard(old.Keys(), new.Keys())
	if samePunctuatedAside(old.Raw, new.Raw) {
		// "Wrap at eighty columns, not one hundred" without its comma:
		// punctuation, spacing and hyphens never make a reversal (issue
		// 27), though a comma changes how an order phrase is read
		return Verdict{Action: Skip, Similarity: sim, Kind: KindDuplicate}
	}
	flipped := old.effectiveSign() != new.effectiveSign()
	if v, ok := reversal(old, new, flipped, sim); ok {
		return v
	}
	valuesDiffer := !slices.Equal(old.Numbers(), new.Numbers())
	if valuesDiffer && len(old.Core()) >= 2 && slices.Equal(old.Core(), new.Core()) && !flipped {
		// Only values differ, however few words are left to compare:
		// "Pin Terraform to 1.5.7" / "… to 1.9.0" is 0.5 to HackLM.
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	}
	if sim < th.Skip && sim < th.Update {
		return Verdict{Action: Store, Similarity: sim}
	}
	if valuesDiffer {
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	}
	d := compareUnits(old.shapeOf().units, new.shapeOf().units)
	switch {
	case d.sibling && quantityUnits(d.old) && quantityUnits(d.new):
		// "thirty minutes" / "sixty minutes": a value in words
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	case d.sibling:
		return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: d.reason()}
	case d.adds || d.drops:
		// HackLM's call stands (a skip at the skip threshold, else an
		// update), but the kind tells cleanup this is no true duplicate:
		// "Run tests with -race" and "… on CI" are two rules.
		v := Verdict{Action: Update, Similarity: sim, Kind: KindAddsDetail, Reason: "adds detail"}
		if d.drops {
			v.Kind, v.Reason = KindLessDetail, "says less"
		}
		if sim >= th.Skip {
			v.Action = Skip
		}
		return v
	case sim >= th.Skip:
		return Verdict{Action: Skip, Similarity: sim, Kind: KindDuplicate}
	}
	return Verdict{Action: Update, Similarity: sim, Kind: KindReworded}
}

// reversal decides whether new reverses old: a flipped sign or a reversed
// order over the same Core, the same with words added on one side, or a
// preference for something else over what the other text plainly states.
func reversal(old, new *Text, flipped bool, sim float64) (Verdict, bool) {
	conflict := func(reason string) (Verdict, bool) {
		return Verdict{Action: Conflict, Similarity: sim, Kind: KindReversal, Reason: reason}, true
	}
	if len(old.Core()) == 0 && len(new.Core()) == 0 {
		if flipped && old.normCore() != "" && old.normCore() == new.normCore() {
			return conflict("reversal")
		}
		return Verdict{}, false
	}
	coreSim := Jaccard(old.Core(), new.Core())
	if coreSim < coreCandidateMin {
		return Verdict{}, false
	}
	reversed := ordersReversed(old, new)
	if flipped != reversed {
		if coreSim >= reversalMin {
			return conflict("reversal")
		}
		if subset(old.Core(), new.Core()) || subset(new.Core(), old.Core()) {
			return conflict("reversal with extra words")
		}
	}
	if !flipped && !reversed && (orderAgainst(old, new) || orderAgainst(new, old)) &&
		(subset(old.Core(), new.Core()) || subset(new.Core(), old.Core())) {
		return conflict("prefers another option")
	}
	return Verdict{}, false
}

// subset: every element of the sorted slice a is in the sorted slice b.
func subset(a, b []string) bool {
	j := 0
	for _, s := range a {
		for j < len(b) && b[j] < s {
			j++
		}
		if j == len(b) || b[j] != s {
			return false
		}
	}
	return true
}

// Jaccard of two sorted unique slices; 0 if either is empty (HackLM's rule).
func Jaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := intersection(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// intersection counts the elements two sorted unique slices share.
func intersection(a, b []string) int {
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return inter
}

// Decide is storeMemory's dedup over the entries of one category, in file
// order: the first exact duplicate wins at once; otherwise the strongest
// action (conflict > skip > update > store), then the highest similarity,
// then the earliest entry. match is -1 when the verdict is Store with no entry.
func Decide(new *Text, existing []*Text, th Thresholds) (match int, v Verdict) {
	match, v = -1, Verdict{Action: Store}
	for i, old := range existing {
		c := Classify(old, new, th)
		if c.Exact {
			return i, c
		}
		if stronger(c, v) {
			match, v = i, c
		}
	}
	return match, v
}

// rank orders the actions by how much they override the others.
var rank = [...]int{Store: 0, Update: 1, Skip: 2, Conflict: 3}

// stronger: strict comparisons keep the earliest entry on ties. A Store with
// similarity 0 never wins, so match stays -1 when nothing is related at all,
// as in HackLM.
func stronger(c, best Verdict) bool {
	if rank[c.Action] != rank[best.Action] {
		return rank[c.Action] > rank[best.Action]
	}
	return c.Similarity > best.Similarity
}

// samePunctuatedAside reports whether two texts hold the same words and
// comparison signs in the same order, letter case, punctuation, spacing and
// hyphens aside. The signs stay: "< 1000" and "> 1000" differ. Classify asks
// it of every pair it judges, so the two texts are read side by side and
// left at the first difference, with nothing allocated.
func samePunctuatedAside(a, b string) bool {
	if a == b {
		return false
	}
	x, y := signReader{s: a}, signReader{s: b}
	for {
		r, ok := x.next()
		q, ok2 := y.next()
		if ok != ok2 || r != q {
			return false
		}
		if !ok {
			return x.any
		}
	}
}

// signReader reads a text as samePunctuatedAside compares it: its letters,
// digits, marks and comparison signs, lower-cased, a word apart from the
// next by one space whatever separates them ("RFC-7807" / "RFC 7807",
// "snake_case" / "snake case": a joiner is a space).
type signReader struct {
	s       string
	i       int
	space   bool // a separator came since the last rune read
	any     bool // a rune was read
	pending rune // the rune after a space given out
}

func (sr *signReader) next() (rune, bool) {
	if r := sr.pending; r != 0 {
		sr.pending = 0
		return r, true
	}
	for sr.i < len(sr.s) {
		var r rune
		if c := sr.s[sr.i]; c < utf8.RuneSelf {
			sr.i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '<' || c == '>' || c == '=' || c == '!':
				r = rune(c)
			case 'A' <= c && c <= 'Z':
				r = rune(c + 'a' - 'A')
			default:
				sr.space = true
				continue
			}
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(sr.s[sr.i:])
			sr.i += n
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("≤≥≠", r)) {
				sr.space = true
				continue
			}
			r = unicode.ToLower(r)
		}
		if sr.space && sr.any {
			sr.space, sr.pending = false, r
			return ' ', true
		}
		sr.space, sr.any = false, true
		return r, true
	}
	return 0, false
}
