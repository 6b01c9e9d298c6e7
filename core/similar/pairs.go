package similar

import (
	"cmp"
	"math"
	"slices"
)

// Pairs finds every pair (i < j) whose verdict is Related, without comparing
// all pairs: candidates come from an inverted index of keywords with prefix
// filtering. group[i] restricts comparisons to texts of the same group (the
// category); pass nil to compare everything. A group whose texts are so alike
// that it holds more candidate pairs than denseLimit of its size is dense:
// its texts are compared with their neighbours only (windowPairs).
//
// Exact duplicates are the exception: being an exact duplicate is an
// equivalence (Exact), and j is paired only with the earliest text of its
// exact class (ExactStars), so that n copies of one entry make n−1 pairs, not
// n(n−1)/2. Two texts are exact duplicates when they are such a pair, or pair
// with the same earliest text. Copies are also found and judged together
// (twinNodes), so they cost no more comparisons than one text.
//
// A pair can only be more than Store if it is a candidate: (a) the exact keys
// are equal, (b) the Cores reach coreCandidateMin or both are empty with
// equal normCore, or (c) the keyword Jaccard reaches the lower threshold. (a)
// and the empty-Core half of (b) are hash lookups; the rest is the prefix
// filter: with every set sorted rarest token first, two sets with Jaccard ≥ t
// share a token within the first |A| − ⌈t·|A|⌉ + 1 of each, and within the
// first |A| − minOverlap(|A|, |A|) + 1 of the smaller (see side). Every
// candidate is then judged by Classify, so the result of a group that is not
// dense is exactly that of comparing all pairs, exact pairs reduced as above.
func Pairs(texts []*Text, group []int, th Thresholds) []Pair {
	out, _ := countedPairs(texts, group, th)
	return out
}

// PairSet is the related pairs of one group of texts (Pairs with a nil
// group), with what Update needs to bring them up to date after an edit.
type PairSet struct {
	Pairs []Pair
	// Dense: the texts hold more candidate pairs than denseLimit, and the
	// pairs are each text's with its neighbours (windowPairs).
	Dense bool
	// candidates counts the candidate pairs of texts that are not exact
	// duplicates, when not Dense.
	candidates int
}

// GroupPairs is Pairs(texts, nil, th) as a PairSet.
func GroupPairs(texts []*Text, th Thresholds) PairSet {
	ps, _ := groupPairs(nil, texts, allMembers(len(texts)), th)
	sortPairs(ps.Pairs)
	trimShapes(texts)
	return ps
}

// countedPairs is Pairs, with the number of candidate pairs of first texts
// judged and of calls of Classify (ignoring the threshold-zero case), which
// tests of how the work grows count.
func countedPairs(texts []*Text, group []int, th Thresholds) ([]Pair, [2]int) {
	if group != nil && len(group) != len(texts) {
		panic("similar.Pairs: group must be nil or as long as texts")
	}
	var ix *pairIndex
	var out []Pair
	for _, members := range partition(len(texts), group) {
		var ps PairSet
		ps, ix = groupPairs(ix, texts, members, th)
		out = append(out, ps.Pairs...)
	}
	sortPairs(out)
	if ix == nil {
		return out, [2]int{}
	}
	return out, [2]int{ix.candidates, ix.classified}
}

// groupPairs finds the pairs among members (ascending), unsorted, with the
// index of texts it made or was given (nil to make one when needed).
func groupPairs(ix *pairIndex, texts []*Text, members []int32, th Thresholds) (PairSet, *pairIndex) {
	t := min(th.Skip, th.Update)
	if t > 0 {
		if ix == nil {
			ix = newPairIndex(texts, t)
		}
		out, n, dense := ix.group(nil, texts, members, th)
		return PairSet{Pairs: out, Dense: dense, candidates: n}, ix
	}
	// every pair reaches a threshold of zero: nothing to filter, and every
	// pair but the exact ones is a candidate
	n := len(members) * (len(members) - 1) / 2
	stars := map[int]int{} // per class, by its earliest text: its other texts
	for _, p := range exactStars(nil, texts, members) {
		stars[p.I]++
	}
	for _, s := range stars {
		n -= (s + 1) * s / 2 // a class of k texts holds k(k−1)/2 exact pairs
	}
	if n > denseLimit(len(members)) {
		return PairSet{Pairs: windowPairs(nil, texts, members, th), Dense: true}, ix
	}
	var out []Pair
	for a, i := range members {
		for _, j := range members[a+1:] {
			if Exact(texts[i], texts[j]) {
				continue
			}
			if v := Classify(texts[i], texts[j], th); v.Related() {
				out = append(out, Pair{I: int(i), J: int(j), Verdict: v})
			}
		}
	}
	return PairSet{Pairs: exactStars(out, texts, members), candidates: n}, ix
}

func allMembers(n int) []int32 {
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	return all
}

// partition lists the indices of each group in order.
func partition(n int, group []int) [][]int32 {
	all := allMembers(n)
	if group == nil {
		return [][]int32{all}
	}
	slices.SortStableFunc(all, func(a, b int32) int { return cmp.Compare(group[a], group[b]) })
	var parts [][]int32
	for start := 0; start < n; {
		end := start + 1
		for end < n && group[all[end]] == group[all[start]] {
			end++
		}
		parts = append(parts, all[start:end])
		start = end
	}
	return parts
}

// pairIndex holds every text's keys and core as token ranks (rarest first).
type pairIndex struct {
	// keys are filtered at the lower threshold, core at coreCandidateMin
	keys, core side
	// cands are the candidate pairs of the group at hand, packed as
	// i<<32 | j (i < j), so that sorting them orders them by (I, J) and puts
	// a pair found twice side by side.
	cands []uint64
	// candidates and classified count the candidate pairs of first texts
	// and the calls of Classify, for the tests of how the work grows.
	candidates, classified int
	// sameKey[j] is the previous text of the group with j's exactKey (or
	// normCore, for emptyCore), -1 at the end: hash chains without a slice
	// per key.
	sameKey, sameCore []int32
}

func newPairIndex(texts []*Text, t float64) *pairIndex {
	ids := make(map[string]int32, 2*len(texts)) // sized to skip most rehashing
	var df []int32
	// The arena sized exactly: grown by append it overshot and left its
	// earlier copies behind, which on a registry of CJK entries (a bigram
	// list each) was a large part of the server's peak memory
	// (TestE2EShapeReversalRegistryMemory).
	words := 0
	for _, t := range texts {
		words += len(t.Keys())
		if !sameSlice(t.Core(), t.Keys()) {
			words += len(t.Core())
		}
	}
	arena := make([]int32, 0, words)
	intern := func(ss []string) (int, int) {
		start := len(arena)
		for _, s := range ss {
			id, ok := ids[s]
			if !ok {
				id = int32(len(df))
				ids[s] = id
				df = append(df, 0)
			}
			df[id]++
			arena = append(arena, id)
		}
		return start, len(arena)
	}
	type bounds struct{ k0, k1, c0, c1 int }
	b := make([]bounds, len(texts))
	for i, t := range texts {
		b[i].k0, b[i].k1 = intern(t.Keys())
		if sameSlice(t.Core(), t.Keys()) {
			b[i].c0, b[i].c1 = b[i].k0, b[i].k1
		} else {
			b[i].c0, b[i].c1 = intern(t.Core())
		}
	}
	rank := rankByFrequency(df)
	for i, id := range arena {
		arena[i] = rank[id]
	}
	ix := &pairIndex{
		keys:     newSide(len(texts), len(df), t),
		core:     newSide(len(texts), len(df), coreCandidateMin),
		sameKey:  make([]int32, len(texts)),
		sameCore: make([]int32, len(texts)),
	}
	for i := range texts {
		ix.keys.sets[i] = arena[b[i].k0:b[i].k1:b[i].k1]
		slices.Sort(ix.keys.sets[i])
		if b[i].c0 == b[i].k0 {
			ix.core.sets[i] = ix.keys.sets[i]
		} else {
			ix.core.sets[i] = arena[b[i].c0:b[i].c1:b[i].c1]
			slices.Sort(ix.core.sets[i])
		}
	}
	return ix
}

func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// rankByFrequency numbers the tokens by ascending document frequency (ties by
// first appearance) with a counting sort: rare tokens make short postings.
func rankByFrequency(df []int32) []int32 {
	maxDF := int32(0)
	for _, d := range df {
		maxDF = max(maxDF, d)
	}
	next := make([]int32, maxDF+2)
	for _, d := range df {
		next[d+1]++
	}
	for d := 1; d < len(next); d++ {
		next[d] += next[d-1]
	}
	rank := make([]int32, len(df))
	for id, d := range df {
		rank[id] = next[d]
		next[d]++
	}
	return rank
}

// prefixLen is how many of a set's rarest tokens must be indexed and probed
// so that no pair reaching t is missed; the epsilon keeps float error from
// shortening it.
func prefixLen(n int, t float64) int {
	need := max(1, int(math.Ceil(t*float64(n)-1e-9)))
	return n - need + 1
}

// indexLen is how many of a set's rarest tokens must be indexed when every
// set probing the index is at least as large (PPJoin's mid-prefix): two
// n-sets reaching t share minOverlap(n, n) tokens, a larger partner at least
// as many, so their rarest common token lies within the first
// n − minOverlap(n, n) + 1. On sets built from shared templates this leaves
// the common words out of the index, and most of the probing with them.
func indexLen(n int, t float64) int {
	return n - max(1, minOverlap(n, n, t)) + 1
}

// sizesAllow: Jaccard ≥ t needs the smaller set to be at least t times the
// larger.
func sizesAllow(a, b int, t float64) bool {
	return float64(min(a, b)) >= t*float64(max(a, b))-1e-9
}

// group finds the pairs among members (ascending indices) and appends them,
// with the number of candidate pairs among them, or dense when they are too
// many (denseLimit) and the pairs are windowPairs'.
//
// The search runs over the first text of each node (twinNodes); its
// candidates are the hash hits, which are always judged, and the pairs whose
// keyword or Core Jaccard reaches its threshold; each is judged once per
// pair of twins, the earlier text as the old one, as a comparison of all
// pairs would. The exact pairs are exactStars'. The candidates are counted
// as they come, compacting them whenever they have doubled, so that a dense
// group is known as such before its candidates fill the memory.
func (ix *pairIndex) group(out []Pair, texts []*Text, members []int32, th Thresholds) (_ []Pair, candidates int, dense bool) {
	tn := newTwinNodes(texts, members)
	firsts := tn.firsts
	limit := denseLimit(len(members))
	spillAt := 2 * limit
	spill := func(cands []uint64) ([]uint64, bool) {
		if len(cands) < spillAt {
			return cands, true
		}
		cands = compactCandidates(cands)
		if countCandidates(cands, texts, tn) > limit {
			return cands, false
		}
		spillAt = max(spillAt, 2*len(cands))
		return cands, true
	}
	cands := ix.cands[:0]
	exact := make(map[string]int32, len(firsts))
	emptyCore := map[string]int32{}
	ok := true
	for _, j := range firsts {
		tj := texts[j]
		cands = chain(cands, exact, ix.sameKey, tj.exactKey(), j)
		if len(tj.Core()) == 0 && tj.normCore() != "" {
			cands = chain(cands, emptyCore, ix.sameCore, tj.normCore(), j)
		}
		if cands, ok = spill(cands); !ok {
			break
		}
	}
	if ok {
		cands, ok = ix.keys.join(cands, firsts, spill)
	}
	if ok {
		cands, ok = ix.core.join(cands, firsts, spill)
	}
	if ok {
		cands, ok = ix.swapCandidates(cands, firsts, spill)
	}
	cands = compactCandidates(cands)
	ix.cands = cands
	if candidates = countCandidates(cands, texts, tn); !ok || candidates > limit {
		return windowPairs(out, texts, members, th), 0, true
	}
	n := 0
	for _, c := range cands {
		ix.candidates++
		out, n = tn.judge(out, int32(c>>32), int32(uint32(c)), th)
		ix.classified += n
	}
	return exactStars(out, texts, members), candidates, false
}

// pack is the candidate pair of texts a and b, the lower index first.
func pack(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

// chain offers the earlier texts with the same key, then links j in.
func chain(cands []uint64, head map[string]int32, prev []int32, key string, j int32) []uint64 {
	i, ok := head[key]
	if !ok {
		i = -1
	}
	for k := i; k >= 0; k = prev[k] {
		cands = append(cands, pack(k, j))
	}
	prev[j] = i
	head[key] = j
	return cands
}

// overlapTable answers whether Jaccard(a, b) ≥ t on sorted rank lists, with
// the same 1e-9 slack as the filter always had, caching the least overlap
// needed per pair of sizes (the float search costs more than most merges).
type overlapTable struct {
	t      float64
	need   []int16 // need[na*overlapSizes+nb] = minOverlap+1, 0 while unknown
	prefix []int16 // prefix[n] = prefixLen(n, t)
	index  []int16 // index[n] = indexLen(n, t)
}

// overlapSizes bounds the cached sizes; longer sets compute directly.
const overlapSizes = 64

func newOverlapTable(t float64) *overlapTable {
	o := &overlapTable{t: t, need: make([]int16, overlapSizes*overlapSizes),
		prefix: make([]int16, overlapSizes), index: make([]int16, overlapSizes)}
	for n := range o.prefix {
		o.prefix[n] = int16(prefixLen(n, t))
		o.index[n] = int16(indexLen(n, t))
	}
	return o
}

func (o *overlapTable) indexLen(n int) int {
	if n < overlapSizes {
		return int(o.index[n])
	}
	return indexLen(n, o.t)
}

func (o *overlapTable) prefixLen(n int) int {
	if n < overlapSizes {
		return int(o.prefix[n])
	}
	return prefixLen(n, o.t)
}

func (o *overlapTable) minOverlap(na, nb int) int {
	if na >= overlapSizes || nb >= overlapSizes {
		return minOverlap(na, nb, o.t)
	}
	k := na*overlapSizes + nb
	if o.need[k] == 0 {
		o.need[k] = int16(minOverlap(na, nb, o.t) + 1)
	}
	return int(o.need[k]) - 1
}

// reaches merges the lists and stops as soon as the overlap still possible
// falls short: most prefix hits share only a common word or two and are
// rejected after a few steps instead of a full merge.
func (o *overlapTable) reaches(a, b []int32) bool {
	if len(a) == 0 || len(b) == 0 {
		return 0 >= o.t-1e-9 // Jaccard with an empty set is 0
	}
	need := o.minOverlap(len(a), len(b))
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i], b[j]; {
		case x == y:
			inter++
			i++
			j++
			continue
		case x < y:
			i++
		default:
			j++
		}
		if inter+min(len(a)-i, len(b)-j) < need {
			return false
		}
	}
	return inter >= need
}

// minOverlap is the least intersection of an na-set and an nb-set whose
// Jaccard reaches t−1e-9, computed with the float test the verdicts use so the
// boundary cases agree exactly.
func minOverlap(na, nb int, t float64) int {
	ok := func(inter int) bool {
		return float64(inter)/float64(na+nb-inter) >= t-1e-9
	}
	n := max(0, int(t*float64(na+nb)/(1+t))-1)
	for n > 0 && ok(n) {
		n--
	}
	for n <= min(na, nb) && !ok(n) {
		n++
	}
	return n
}
