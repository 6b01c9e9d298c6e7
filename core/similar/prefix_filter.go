package similar

import "slices"

// side is one family of sets Pairs filters on (keywords at the lower
// threshold, Cores at coreCandidateMin) with its prefix index.
//
// The texts of a group are taken smallest set first, so that every text in
// the index is at most as large as the one probing it: then a text need only
// be indexed by its first indexLen tokens, fewer than the prefixLen it probes
// with (PPJoin's mid-prefix filter), and a posting list is ordered by set
// size, so the texts too small for the prober are a prefix of it that no
// later (larger) prober wants either.
//
// Besides offering the texts that share a prefix token (the prefix filter),
// probing counts how many prefix tokens each shares, which bounds the whole
// overlap (PPJoin's verification bound): with x's last prefix token before
// y's, every common token up to it was counted and the rest lie in x's
// suffix, so overlap ≤ count + |x| − px; otherwise the same holds for y. Texts
// that share one common word fail that bound without a merge.
type side struct {
	sets [][]int32 // token ranks per text, sorted (rarest first)
	// The postings of the group at hand, by rank, laid out back to back in
	// flat (their lengths are known before the join: each text is indexed
	// by its first indexLen tokens): post[r] is flat[base[r]:end[r]], of
	// which the texts from from[r] on are large enough for the current
	// prober. n[r] counts the postings of r before the layout.
	flat               []int32
	base, end, from, n []int32
	touched            []int32 // ranks with postings in the group
	t                  float64
	need               *overlapTable
	stamp              []int32 // stamp[i] == j+1: count[i] holds i's prefix overlap with j
	count              []int32
	order, sizes, hits []int32 // scratch of join
}

func newSide(texts, tokens int, t float64) side {
	return side{sets: make([][]int32, texts), base: make([]int32, tokens), end: make([]int32, tokens),
		from: make([]int32, tokens), n: make([]int32, tokens), t: t,
		need: newOverlapTable(t), stamp: make([]int32, texts), count: make([]int32, texts)}
}

// join appends to cands every pair of members whose Jaccard on this side
// reaches t, as pack(i, j). After each text it hands cands to spill, which
// may compact them, and stops when spill says so (ok false).
func (sd *side) join(cands []uint64, members []int32, spill func([]uint64) ([]uint64, bool)) (_ []uint64, ok bool) {
	order := sd.bySize(members)
	sd.layout(order)
	ok = true
	for _, j := range order {
		a := sd.sets[j]
		if len(a) == 0 {
			continue
		}
		hits := sd.hits[:0]
		if p := sd.need.prefixLen(len(a)); p > 0 {
			for _, r := range a[:p] {
				k, e := sd.from[r], sd.end[r]
				for k < e && !sizesAllow(len(sd.sets[sd.flat[k]]), len(a), sd.t) {
					k++
				}
				sd.from[r] = k
				for _, i := range sd.flat[k:e] {
					if sd.stamp[i] != j+1 {
						sd.stamp[i], sd.count[i] = j+1, 0
						hits = append(hits, i)
					}
					sd.count[i]++
				}
			}
		}
		for _, i := range hits {
			if sd.passes(i, j) {
				cands = append(cands, pack(i, j))
			}
		}
		sd.hits = hits
		for _, r := range a[:sd.need.indexLen(len(a))] {
			sd.flat[sd.end[r]] = j
			sd.end[r]++
		}
		if cands, ok = spill(cands); !ok {
			break
		}
	}
	for _, r := range sd.touched {
		// an empty posting for the next group, which may probe r unindexed
		sd.n[r], sd.base[r], sd.end[r], sd.from[r] = 0, 0, 0, 0
	}
	sd.touched, sd.order = sd.touched[:0], order
	return cands, ok
}

// bySize orders members by set size with a counting sort, stably: equal
// sizes keep file order, so the join never depends on a sort's whims (the
// result would not anyway: the pairs are sorted after).
func (sd *side) bySize(members []int32) []int32 {
	maxLen := 0
	for _, m := range members {
		maxLen = max(maxLen, len(sd.sets[m]))
	}
	at := slices.Grow(sd.sizes[:0], maxLen+2)[:maxLen+2]
	clear(at)
	for _, m := range members {
		at[len(sd.sets[m])+1]++
	}
	for k := 1; k < len(at); k++ {
		at[k] += at[k-1]
	}
	order := slices.Grow(sd.order[:0], len(members))[:len(members)]
	for _, m := range members {
		n := len(sd.sets[m])
		order[at[n]] = m
		at[n]++
	}
	sd.sizes = at
	return order
}

// layout gives each rank of the group's index prefixes its room in flat.
func (sd *side) layout(order []int32) {
	for _, j := range order {
		a := sd.sets[j]
		for _, r := range a[:sd.need.indexLen(len(a))] {
			if sd.n[r] == 0 {
				sd.touched = append(sd.touched, r)
			}
			sd.n[r]++
		}
	}
	off := int32(0)
	for _, r := range sd.touched {
		sd.base[r], sd.end[r], sd.from[r] = off, off, off
		off += sd.n[r]
	}
	sd.flat = slices.Grow(sd.flat[:0], int(off))[:off]
}

// passes reports whether the Jaccard of i (indexed) and j (probing, as large
// or larger) on this side reaches t, given the prefix overlap counted in
// count[i].
func (sd *side) passes(i, j int32) bool {
	x, y := sd.sets[j], sd.sets[i]
	need := sd.need.minOverlap(len(x), len(y))
	px, py := sd.need.prefixLen(len(x)), sd.need.indexLen(len(y))
	rest := len(y) - py
	if x[px-1] < y[py-1] {
		rest = len(x) - px
	}
	if int(sd.count[i])+rest < need {
		return false
	}
	return sd.need.reaches(x, y)
}
