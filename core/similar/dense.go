package similar

import "slices"

// A group of texts is dense when it holds more candidate pairs (see
// candidate) than denseLimit of its size: a registry of near-identical
// lines ("Deploy the api before the web app on <host>" four thousand times)
// where every entry is a sibling of every other. Comparing all of those
// pairs costs time and memory in the square of the entries: the red team of
// issue 26 took a server past 100 MiB with 4,000 such entries, a check to
// 1.2 GB, and at the line limit of a memory file the server never
// published. Real memory is far from it: a text has a handful of
// candidates at most (BenchmarkPairs10k, TestDenseNeverOnRealShapes).
//
// In a dense group each text is compared with the denseWindow texts before
// it only, and keeps, of those related to it, the strongest near-duplicate
// and the strongest reversal (Decide's order: action, then similarity, then
// the earlier text); the exact duplicates are paired as always
// (exactStars). What a check reports of a later entry, its strongest
// earlier partner of each kind, then comes from its neighbours, and a
// cleanup offers one choice per entry instead of one per pair. Every pair
// reported is still one that Classify relates: being dense costs recall
// past the window, never precision.
const (
	densePerText = 8    // candidate pairs per text a group may hold
	denseFloor   = 4096 // ... and at least this many, so a small file is never dense
	denseWindow  = 16
)

// denseLimit is the most candidate pairs a group of n texts may hold and
// still have every related pair found.
func denseLimit(n int) int { return max(denseFloor, densePerText*n) }

// windowPairs appends the pairs of a dense group (see denseLimit): for each
// member, of the related texts among the denseWindow members before it, the
// strongest near-duplicate and the strongest reversal, then the exact pairs.
func windowPairs(out []Pair, texts []*Text, members []int32, th Thresholds) []Pair {
	// a dense group's members have a partner or two each: room for one
	// each, so that the list is copied once at most as it grows
	out = slices.Grow(out, len(members))
	for k, j := range members {
		tj := texts[j]
		near, reverse := -1, -1
		var nearV, reverseV Verdict
		for _, i := range members[max(0, k-denseWindow):k] {
			if Exact(texts[i], tj) {
				continue
			}
			v := Classify(texts[i], tj, th)
			switch {
			case !v.Related():
			case v.Action == Conflict:
				if reverse < 0 || v.Similarity > reverseV.Similarity {
					reverse, reverseV = int(i), v
				}
			case near < 0 || stronger(v, nearV):
				near, nearV = int(i), v
			}
		}
		if near >= 0 {
			out = append(out, Pair{I: near, J: int(j), Verdict: nearV})
		}
		if reverse >= 0 {
			out = append(out, Pair{I: reverse, J: int(j), Verdict: reverseV})
		}
		if k >= denseWindow {
			// the window has passed it: its shape is not read again here
			trimShapes(texts[members[k-denseWindow] : members[k-denseWindow]+1])
		}
	}
	return exactStars(out, texts, members)
}

// countCandidates counts the candidate text pairs that cands (sorted,
// distinct pairs of first texts of tn's nodes) stand for: each pair of
// nodes that are not one exact class stands for a pair of every member of
// the one with every member of the other.
func countCandidates(cands []uint64, texts []*Text, tn *twinNodes) int {
	n := 0
	for _, c := range cands {
		a, b := int32(c>>32), int32(uint32(c))
		if !Exact(texts[a], texts[b]) {
			n += int(tn.size[a]) * int(tn.size[b])
		}
	}
	return n
}

// compactCandidates sorts cands and drops the pairs found twice.
func compactCandidates(cands []uint64) []uint64 {
	slices.Sort(cands)
	return slices.Compact(cands)
}
