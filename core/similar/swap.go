package similar

import (
	"cmp"
	"slices"
)

// A one-term swap is a sibling, or a changed value, at any similarity
// (issue 27). "Use Prometheus for metrics in all services." and "Use
// Datadog …" share most of their words, but short sentences do not:
// "Encrypt backups with KMS." / "Encrypt snapshots with KMS." is 0.5 to
// HackLM's Jaccard, "Retry failed webhook deliveries twice." / "… three
// times." less, and below the update threshold a pair used to be unrelated
// — stored side by side with no word, two contradicting facts in memory.
//
// Below the thresholds a pair is read word by word only when its Cores
// could be one swap apart (swapCandidate): they share at least two words
// and each holds one or two of its own. The bounds on the Cores' sizes are
// those past which the pair reaches the update threshold anyway, and they
// keep the candidates few: Pairs finds every such pair by hashing each
// short Core with one or two words left out (swapSignatures), so its
// result stays that of comparing all pairs.

// swapCoreMax is the largest Core that holds a swapped term of n words (1
// or 2) and can stay below the update threshold: past it the shared words
// outweigh the swap and Jaccard reaches 0.6 (with f shared words, f/(f+2)
// for two one-word terms, f/(f+3) for one and two, f/(f+4) for two and two).
func swapCoreMax(n int) int { return 3 + 2*n }

// swapCandidate reports whether Cores a and b (sorted, unique) could be one
// sentence with one term of one or two words swapped (swapShares).
func swapCandidate(a, b []string) bool {
	if len(a) < 3 || len(b) < 3 || len(a) > swapCoreMax(2) || len(b) > swapCoreMax(2) {
		return false
	}
	return swapShares(intersection(a, b), len(a), len(b))
}

// swapShares reports whether two Cores of na and nb words sharing f could
// be one swap apart: two words shared at least, one or two of each side's
// own, each side within swapCoreMax.
func swapShares(f, na, nb int) bool {
	da, db := na-f, nb-f
	return f >= 2 && da >= 1 && da <= 2 && db >= 1 && db <= 2 &&
		na <= swapCoreMax(da) && nb <= swapCoreMax(db)
}

// swapVerdict reads a pair below the thresholds whose Cores are a swap
// candidate: the same sentence with one term swapped is a changed value
// when both terms are quantities in words, else a sibling. The frame must
// hold two content words in place around the swap, and neither text may
// flip the other's sign or hold an order phrase (those are reversals or
// preferences, read elsewhere).
func swapVerdict(old, new *Text, sim float64) (Verdict, bool) {
	if !swapCandidate(old.Core(), new.Core()) || old.hasOrder || new.hasOrder ||
		old.effectiveSign() != new.effectiveSign() {
		return Verdict{}, false
	}
	ou, nu := old.shapeOf().units, new.shapeOf().units
	d := compareUnits(ou, nu)
	if len(d.old) == 0 || len(d.new) == 0 || len(ou)-len(d.old) < 2 {
		return Verdict{}, false
	}
	if quantityUnits(d.old) && quantityUnits(d.new) {
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}, true
	}
	// At either end of the sentence a swap of one word for two is another
	// predicate, not another name: "Never commit .env files" / "Never log
	// the contents of .env files", "Keep React components small" / "React
	// components live in src/components".
	atEdge := ou[0].s != nu[0].s || ou[len(ou)-1].s != nu[len(nu)-1].s
	if atEdge && len(d.old) != len(d.new) {
		return Verdict{}, false
	}
	switch {
	case d.sibling:
		return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: d.reason()}, true
	}
	return Verdict{}, false
}

// swapSignatures appends, for a Core given as sorted token ids, a hash of
// every subset it keeps with one word left out (Cores of up to
// swapCoreMax(1)) or two (up to swapCoreMax(2)), of at least two words. Two
// Cores that are a swap candidate leave out their own words and keep the
// same shared set, so they share a signature.
func swapSignatures(out []uint64, core []int32) []uint64 {
	n := len(core)
	if n < 3 || n > swapCoreMax(2) {
		return out
	}
	hashWithout := func(x, y int) uint64 {
		h := uint64(14695981039346656037)
		for k, id := range core {
			if k == x || k == y {
				continue
			}
			h ^= uint64(uint32(id))
			h *= 1099511628211
			h ^= h >> 29
		}
		return h
	}
	if n <= swapCoreMax(1) {
		for x := range n {
			out = append(out, hashWithout(x, -1))
		}
	}
	if n >= 4 {
		for x := range n {
			for y := x + 1; y < n; y++ {
				out = append(out, hashWithout(x, y))
			}
		}
	}
	return out
}

// swapCandidates adds to cands the pairs of members whose Cores (sorted
// token ids, as ix.core holds them) are a swap candidate, found through
// their shared signatures and checked, so that a hash collision or two
// Cores one inside the other add nothing.
func (ix *pairIndex) swapCandidates(cands []uint64, members []int32, spill func([]uint64) ([]uint64, bool)) ([]uint64, bool) {
	type signed struct {
		h uint64
		j int32
	}
	var sigs []signed
	var buf []uint64
	for _, j := range members {
		buf = swapSignatures(buf[:0], ix.core.sets[j])
		for _, h := range buf {
			sigs = append(sigs, signed{h, j})
		}
	}
	slices.SortFunc(sigs, func(a, b signed) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	ok := true
	for s := 0; s < len(sigs); {
		e := s + 1
		for e < len(sigs) && sigs[e].h == sigs[s].h {
			e++
		}
		for a := s; a < e; a++ {
			for b := a + 1; b < e; b++ {
				x, y := ix.core.sets[sigs[a].j], ix.core.sets[sigs[b].j]
				if sigs[a].j != sigs[b].j && swapShares(intersection(x, y), len(x), len(y)) {
					cands = append(cands, pack(sigs[a].j, sigs[b].j))
				}
			}
			if cands, ok = spill(cands); !ok {
				return cands, false
			}
		}
		s = e
	}
	return cands, true
}
