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
// A pair is judged by Classify only if it is a candidate, as in Pairs: the
// changed texts are the probes of scanPartners.
func PairsInvolving(texts []*Text, changed []int, th Thresholds) []Pair {
	cands, _ := candidatesOf(texts, changed, min(th.Skip, th.Update), -1)
	return judgeCandidates(texts, cands, th)
}

// candidatesOf lists the candidate pairs (see candidate) of texts that are
// not exact duplicates and of which one end or both is in probes
// (ascending, distinct), each pair once, the earlier text first, and counts
// them. Past budget pairs (unless it is negative) it goes on counting but
// lists no more.
func candidatesOf(texts []*Text, probes []int, t float64, budget int) ([][2]int32, int) {
	if len(probes) == 0 {
		return nil, 0
	}
	isProbe := make([]bool, len(texts))
	for _, c := range probes {
		isProbe[c] = true
	}
	var out [][2]int32
	n := 0
	scanPartners(texts, probes, t, func(x, c int) {
		// a pair of two probes is taken from the earlier one's side
		if isProbe[x] && x < c || Exact(texts[x], texts[c]) {
			return
		}
		if n++; budget < 0 || n <= budget {
			out = append(out, [2]int32{int32(min(x, c)), int32(max(x, c))})
		}
	})
	return out, n
}

// judgeCandidates classifies candidate pairs (earlier text first) and
// returns the related ones, sorted by (I, J).
func judgeCandidates(texts []*Text, cands [][2]int32, th Thresholds) []Pair {
	var out []Pair
	for _, c := range cands {
		if v := Classify(texts[c[0]], texts[c[1]], th); v.Related() {
			out = append(out, Pair{I: int(c[0]), J: int(c[1]), Verdict: v})
		}
	}
	sortPairs(out)
	return out
}

// overlapReaches: two sets of sizes na and nb sharing inter elements have
// a Jaccard of at least t, with the 1e-9 slack of every filter here.
func overlapReaches(inter, na, nb int, t float64) bool {
	return inter > 0 && float64(inter)/float64(na+nb-inter) >= t-1e-9
}

// scanPartners calls visit(x, c) for every probe c (probes: ascending,
// distinct indices into texts) and every other text x that is its
// candidate at the lower threshold t, exact duplicates included.
//
// The probes are indexed by keyword; one pass over all texts counts the
// keywords (and Core words) each shares with each probe, so that the cost
// is that of reading every text once, whatever the number of probes.
func scanPartners(texts []*Text, probes []int, t float64, visit func(x, c int)) {
	if len(probes) == 0 {
		return
	}
	if !(t > 0) {
		// every pair reaches a threshold of zero: nothing to filter
		for _, c := range probes {
			for x := range texts {
				if x != c {
					visit(x, c)
				}
			}
		}
		return
	}

	// posting is one probe (by slot in probes) holding a token as a
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
	for s, c := range probes {
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
	stamp := make([]int32, len(probes))
	keyN := make([]int32, len(probes))
	coreN := make([]int32, len(probes))
	sure := make([]bool, len(probes))
	var touched []int32
	reach := func(s int32, x int) {
		if stamp[s] != int32(x)+1 {
			stamp[s], keyN[s], coreN[s], sure[s] = int32(x)+1, 0, 0, false
			touched = append(touched, s)
		}
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
			c := probes[s]
			if x == c {
				continue
			}
			tc := texts[c]
			if sure[s] || overlapReaches(int(keyN[s]), len(tx.Keys()), len(tc.Keys()), t) ||
				overlapReaches(int(coreN[s]), len(tx.Core()), len(tc.Core()), coreCandidateMin) ||
				swapShares(int(coreN[s]), len(tx.Core()), len(tc.Core())) {
				visit(x, c)
			}
		}
	}
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
