package similar

import "slices"

// PairsInvolving finds every related pair (i < j) that is not an exact
// duplicate and of which i or j is in changed (ascending, distinct indices
// into texts): the pairs Pairs(texts, nil, th) holds that touch a changed
// text, with the same verdicts, sorted by (I, J), less the exact ones. With
// the non-exact pairs among the unchanged texts kept from an earlier call and
// ExactStars, it gives an editor's re-check after a few edits: a changed
// entry can move the earliest text of an exact class, and so every exact pair
// of the class.
//
// The changed texts are indexed by keyword; one pass over all texts counts
// the keywords (and Core words) each shares with each changed text. A pair is
// judged by Classify only if it could be more than Store — the exact keys or
// the empty-Core fallbacks are equal, or a counted Jaccard reaches the lower
// threshold or coreCandidateMin — which are the conditions Pairs filters on.
func PairsInvolving(texts []*Text, changed []int, th Thresholds) []Pair {
	if len(changed) == 0 {
		return nil
	}
	isChanged := make([]bool, len(texts))
	for _, c := range changed {
		isChanged[c] = true
	}
	var out []Pair
	judge := func(i, j int) {
		if i > j {
			i, j = j, i
		}
		if sameExact(texts[i], texts[j]) {
			return
		}
		if v := Classify(texts[i], texts[j], th); v.Related() {
			out = append(out, Pair{I: i, J: j, Verdict: v})
		}
	}
	// skip reports the pairs another step judges: a text with itself, and a
	// pair of two changed texts except from the earlier one's side.
	skip := func(x, c int) bool { return x == c || isChanged[x] && x < c }
	t := min(th.Skip, th.Update)
	if !(t > 0) {
		// every pair reaches a threshold of zero: nothing to filter
		for _, c := range changed {
			for x := range texts {
				if !skip(x, c) {
					judge(x, c)
				}
			}
		}
		sortPairs(out)
		return out
	}

	// posting is one changed text (by slot in changed) holding a token as a
	// keyword, as a Core word, or both: CJK Cores hold pieces that are not
	// keywords, so the two are indexed together but counted apart.
	type posting struct {
		slot      int32
		key, core bool
	}
	tokens := map[string][]posting{}
	exact := map[string][]int32{}
	emptyCore := map[string][]int32{}
	exactLen := map[int]bool{}
	for s, c := range changed {
		tc := texts[c]
		union(tc.Keys(), tc.Core(), func(w string, key, core bool) {
			tokens[w] = append(tokens[w], posting{int32(s), key, core})
		})
		exact[tc.exactKey()] = append(exact[tc.exactKey()], int32(s))
		exactLen[len(tc.exactKey())] = true
		if len(tc.Core()) == 0 && tc.normCore() != "" {
			emptyCore[tc.normCore()] = append(emptyCore[tc.normCore()], int32(s))
		}
	}
	// Per slot, for the text x being scanned: stamp[s] == x+1 when s was
	// reached, with the shared keyword and Core counts and whether a hash
	// key matched.
	stamp := make([]int32, len(changed))
	keyN := make([]int32, len(changed))
	coreN := make([]int32, len(changed))
	sure := make([]bool, len(changed))
	var touched []int32
	reach := func(s int32, x int) {
		if stamp[s] != int32(x)+1 {
			stamp[s], keyN[s], coreN[s], sure[s] = int32(x)+1, 0, 0, false
			touched = append(touched, s)
		}
	}
	reaches := func(inter, na, nb int, t float64) bool {
		return inter > 0 && float64(inter)/float64(na+nb-inter) >= t-1e-9
	}
	for x, tx := range texts {
		touched = touched[:0]
		union(tx.Keys(), tx.Core(), func(w string, key, core bool) {
			for _, p := range tokens[w] {
				reach(p.slot, x)
				if key && p.key {
					keyN[p.slot]++
				}
				if core && p.core {
					coreN[p.slot]++
				}
			}
		})
		if exactLen[len(tx.exactKey())] {
			for _, s := range exact[tx.exactKey()] {
				reach(s, x)
				sure[s] = true
			}
		}
		if len(tx.Core()) == 0 && tx.normCore() != "" {
			for _, s := range emptyCore[tx.normCore()] {
				reach(s, x)
				sure[s] = true
			}
		}
		for _, s := range touched {
			c := changed[s]
			if skip(x, c) {
				continue
			}
			tc := texts[c]
			if sure[s] || reaches(int(keyN[s]), len(tx.Keys()), len(tc.Keys()), t) ||
				reaches(int(coreN[s]), len(tx.Core()), len(tc.Core()), coreCandidateMin) {
				judge(x, c)
			}
		}
	}
	sortPairs(out)
	return out
}

func sortPairs(ps []Pair) {
	slices.SortFunc(ps, func(a, b Pair) int {
		if a.I != b.I {
			return a.I - b.I
		}
		return a.J - b.J
	})
}

// union calls fn for every token of two sorted sets, in order, saying which
// of them hold it; a Core that is its Keys is walked once.
func union(keys, core []string, fn func(w string, key, core bool)) {
	if sameSlice(keys, core) {
		for _, w := range keys {
			fn(w, true, true)
		}
		return
	}
	i, j := 0, 0
	for i < len(keys) || j < len(core) {
		switch {
		case j == len(core) || i < len(keys) && keys[i] < core[j]:
			fn(keys[i], true, false)
			i++
		case i == len(keys) || core[j] < keys[i]:
			fn(core[j], false, true)
			j++
		default:
			fn(keys[i], true, true)
			i++
			j++
		}
	}
}
