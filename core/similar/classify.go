package similar

import "slices"

// reversalMin is how alike two Cores must be before a flipped sign or order
// is read as a reversal of the same rule. It is fixed rather than tied to the
// skip threshold: "Remote push notifications never arrive in the iOS
// simulator" shares 5 of 7 core words (0.71) with "The iOS simulator ignores
// remote push notifications", and its "never" reverses nothing.
const reversalMin = 0.8

// Classify compares an existing entry (old) with a new text.
//
// The checks run from the most to the least certain. Equal normalised text is
// a duplicate only if nothing that normalising hides differs: the values
// ("> 1000" vs "< 1000" normalise alike), the sign and the order. A reversal
// is tested before similarity because a rule and its negation are, to
// HackLM's Jaccard, the same text. Only then does HackLM's similarity decide,
// corrected for changed values (a skip that would lose the new value becomes
// an update) and for a swapped name (a different target is a different fact).
func Classify(old, new *Text, th Thresholds) Verdict {
	reversed := ordersReversed(old, new)
	flipped := old.Sign != new.Sign
	if old.exactKey == new.exactKey && !flipped && !reversed && slices.Equal(old.Numbers, new.Numbers) {
		return Verdict{Action: Skip, Similarity: 1, Exact: true, Reason: "identical text"}
	}
	sim := Jaccard(old.Keys, new.Keys)
	if flipped != reversed && sameCore(old, new) {
		return Verdict{Action: Conflict, Similarity: sim, Reason: "reversal"}
	}
	switch {
	case sim >= th.Skip:
		if !slices.Equal(old.Numbers, new.Numbers) {
			return Verdict{Action: Update, Similarity: sim, Reason: "values differ"}
		}
		if namedSwap(old, new) {
			return Verdict{Action: Store, Similarity: sim, Reason: "different targets"}
		}
		return Verdict{Action: Skip, Similarity: sim}
	case sim >= th.Update:
		if namedSwap(old, new) {
			return Verdict{Action: Store, Similarity: sim, Reason: "different targets"}
		}
		return Verdict{Action: Update, Similarity: sim}
	}
	return Verdict{Action: Store, Similarity: sim}
}

// sameCore: the two texts say the same thing once polarity is set aside. Two
// empty Cores ("Do it" / "Don't do it") fall back to the normalised texts
// without their polarity words, which must then be equal and not empty.
func sameCore(a, b *Text) bool {
	if len(a.Core) == 0 && len(b.Core) == 0 {
		return a.normCore != "" && a.normCore == b.normCore
	}
	return Jaccard(a.Core, b.Core) >= reversalMin
}

// ordersReversed: a states "X over Y" and b states "Y over X".
func ordersReversed(a, b *Text) bool {
	for _, p := range a.Orders {
		for _, q := range b.Orders {
			if p[0] == q[1] && p[1] == q[0] {
				return true
			}
		}
	}
	return false
}

// namedSwap: the texts differ in exactly one keyword each, and both are names
// (YAML/JSON, Postgres/MySQL): the same sentence about a different target is
// a different fact. Values with digits are not names; they are updates.
func namedSwap(a, b *Text) bool {
	x, ok := onlyExtra(a.Keys, b.Keys)
	if !ok {
		return false
	}
	y, ok := onlyExtra(b.Keys, a.Keys)
	if !ok {
		return false
	}
	_, xNamed := slices.BinarySearch(a.Named, x)
	_, yNamed := slices.BinarySearch(b.Named, y)
	return xNamed && yNamed
}

// onlyExtra returns the single element of a that b lacks; ok is false when
// there are none or several.
func onlyExtra(a, b []string) (string, bool) {
	var extra string
	n, j := 0, 0
	for _, s := range a {
		for j < len(b) && b[j] < s {
			j++
		}
		if j < len(b) && b[j] == s {
			continue
		}
		if n++; n > 1 {
			return "", false
		}
		extra = s
	}
	return extra, n == 1
}

// Jaccard of two sorted unique slices; 0 if either is empty (HackLM's rule).
func Jaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
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
	return float64(inter) / float64(len(a)+len(b)-inter)
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
