package similar

// Update brings the pairs of old, a group of texts, up to date with texts,
// the same group after an edit: match[i] is the index in old of texts[i]'s
// unchanged text, -1 for a text that changed or came in (order kept, as a
// diff gives it). It equals GroupPairs(texts, th) — the pairs, the candidates
// and whether the group is dense — at the cost of reading every text once
// (scanPartners) where the group stays sparse; a group that is or becomes
// dense is computed afresh, its pairs being each text's with its neighbours.
//
// The non-exact pairs between unchanged texts are kept (renumbered) and
// those involving a changed text are found (PairsInvolving). The exact pairs
// of the classes a text came into or went from are made afresh
// (ExactStarsAfter): each is a pair with the earliest text of its class,
// which such a change can replace.
func (s PairSet) Update(old, texts []*Text, match []int, th Thresholds) PairSet {
	now := make([]int, len(old)) // old index → new, -1 if gone
	for i := range now {
		now[i] = -1
	}
	var changed []int
	for i, o := range match {
		if o >= 0 {
			now[o] = i
		} else {
			changed = append(changed, i)
		}
	}
	var gone []int
	for o, i := range now {
		if i < 0 {
			gone = append(gone, o)
		}
	}
	if len(changed) == 0 && len(gone) == 0 {
		return s // nothing moved
	}
	if s.Dense {
		return GroupPairs(texts, th)
	}
	// the candidates that stay are known without listing them; those that
	// came are listed (and judged) only while the group stays sparse
	t := min(th.Skip, th.Update)
	_, goneCands := candidatesOf(old, gone, t, 0)
	limit := denseLimit(len(texts))
	came, cameCands := candidatesOf(texts, changed, t, max(0, limit-(s.candidates-goneCands)))
	candidates := s.candidates - goneCands + cameCands
	if candidates > limit {
		return GroupPairs(texts, th)
	}
	fresh := judgeCandidates(texts, came, th)
	kept := make([]Pair, 0, len(s.Pairs)+len(fresh))
	var keptExact []Pair
	for _, p := range s.Pairs {
		if i, j := now[p.I], now[p.J]; i >= 0 && j >= 0 {
			if p.Verdict.Exact {
				keptExact = append(keptExact, Pair{I: i, J: j, Verdict: p.Verdict})
			} else {
				kept = append(kept, Pair{I: i, J: j, Verdict: p.Verdict})
			}
		}
	}
	touched := make([]*Text, 0, len(changed)+len(gone))
	for _, i := range changed {
		touched = append(touched, texts[i])
	}
	for _, o := range gone {
		touched = append(touched, old[o])
	}
	trimShapes(texts)
	pairs := mergePairs(mergePairs(kept, fresh), ExactStarsAfter(texts, keptExact, touched))
	return PairSet{Pairs: pairs, candidates: candidates}
}

// mergePairs merges two lists of pairs sorted by (I, J) with no pair in both.
func mergePairs(p, q []Pair) []Pair {
	out := make([]Pair, 0, len(p)+len(q))
	a, b := 0, 0
	for a < len(p) || b < len(q) {
		if b == len(q) || a < len(p) && (p[a].I < q[b].I || p[a].I == q[b].I && p[a].J < q[b].J) {
			out = append(out, p[a])
			a++
		} else {
			out = append(out, q[b])
			b++
		}
	}
	return out
}
