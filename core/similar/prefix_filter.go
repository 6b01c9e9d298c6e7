package similar

// side is one family of sets Pairs filters on (keywords at the lower
// threshold, Cores at reversalMin) with its prefix index.
//
// Besides offering the texts that share a prefix token (the prefix filter),
// probing counts how many prefix tokens each shares, which bounds the whole
// overlap (PPJoin's verification bound): with x's last prefix token before
// y's, every common token up to it was counted and the rest lie in x's
// suffix, so overlap ≤ count + |x| − px; otherwise the same holds for y. Texts
// that share one common word fail that bound without a merge.
type side struct {
	sets  [][]int32 // token ranks per text, sorted (rarest first)
	post  [][]int32 // postings by rank of the texts indexed so far
	t     float64
	need  *overlapTable
	stamp []int32 // stamp[i] == j+1: count[i] holds i's prefix overlap with j
	count []int32
}

func newSide(texts, tokens int, t float64) side {
	return side{sets: make([][]int32, texts), post: make([][]int32, tokens), t: t,
		need: newOverlapTable(t), stamp: make([]int32, texts), count: make([]int32, texts)}
}

// probe offers every earlier text that shares a prefix token with j and whose
// size allows t, counting the shared prefix tokens, then indexes j's prefix.
func (sd *side) probe(cands, mark []int32, touched *[]int32, j int32) []int32 {
	a := sd.sets[j]
	p := sd.need.prefixLen(len(a))
	if len(a) == 0 || p <= 0 {
		return cands
	}
	for _, r := range a[:p] {
		for _, i := range sd.post[r] {
			if sd.stamp[i] != j+1 {
				if !sizesAllow(len(sd.sets[i]), len(a), sd.t) {
					continue
				}
				sd.stamp[i], sd.count[i] = j+1, 0
				if mark[i] != j+1 {
					mark[i] = j + 1
					cands = append(cands, i)
				}
			}
			sd.count[i]++
		}
		if len(sd.post[r]) == 0 {
			*touched = append(*touched, r)
		}
		sd.post[r] = append(sd.post[r], j)
	}
	return cands
}

// passes reports whether the Jaccard of i and j on this side reaches t. A text
// the probe did not reach cannot: by the prefix filter it shares no token
// with j, or its size rules it out.
func (sd *side) passes(i, j int32) bool {
	if sd.stamp[i] != j+1 {
		return false
	}
	x, y := sd.sets[j], sd.sets[i]
	need := sd.need.minOverlap(len(x), len(y))
	px, py := sd.need.prefixLen(len(x)), sd.need.prefixLen(len(y))
	rest := len(y) - py
	if x[px-1] < y[py-1] {
		rest = len(x) - px
	}
	if int(sd.count[i])+rest < need {
		return false
	}
	return sd.need.reaches(x, y)
}
