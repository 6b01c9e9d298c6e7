package similar

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

func TestPairsMatchesBruteForce(t *testing.T) {
	longtest.Skip(t)
	ths := []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0.9, 0.5}, {1, 1}, {0, 0}}
	for seed := range uint64(6) {
		g := newEntryGen(seed, 40+int(seed)*30)
		texts := g.texts(300)
		groups := make([]int, len(texts))
		for i := range groups {
			groups[i] = g.rng.IntN(3)
		}
		for _, th := range ths {
			for _, grp := range [][]int{nil, groups} {
				name := fmt.Sprintf("seed %d %v grouped=%v", seed, th, grp != nil)
				got, want := Pairs(texts, grp, th), bruteForce(texts, grp, th)
				if !slices.Equal(got, want) {
					t.Errorf("%s: Pairs found %d, brute force %d", name, len(got), len(want))
					reportDiff(t, texts, got, want)
				}
			}
		}
		if seed == 0 {
			ps := Pairs(texts, nil, defaultTh)
			count := map[Action]int{}
			for _, p := range ps {
				count[p.Verdict.Action]++
			}
			t.Logf("300 texts: %d pairs (%d skip, %d update, %d conflict)", len(ps), count[Skip], count[Update], count[Conflict])
			if count[Skip] == 0 || count[Update] == 0 || count[Conflict] == 0 {
				t.Errorf("generator too tame: %v", count)
			}
		}
	}
}

func reportDiff(t *testing.T, texts []*Text, got, want []Pair) {
	t.Helper()
	in := map[[2]int]bool{}
	for _, p := range got {
		in[[2]int{p.I, p.J}] = true
	}
	shown := 0
	for _, p := range want {
		if !in[[2]int{p.I, p.J}] && shown < 5 {
			shown++
			t.Errorf("  missed %d/%d %+v: %q / %q", p.I, p.J, p.Verdict, texts[p.I].Raw, texts[p.J].Raw)
		}
	}
}

func TestPairsEdges(t *testing.T) {
	if got := Pairs(nil, nil, defaultTh); len(got) != 0 {
		t.Errorf("Pairs(nil) = %v", got)
	}
	texts := []*Text{
		Analyze("Always run database seeds in CI"),
		Analyze("发布前更新变更日志"),
		Analyze("Never run database seeds in CI"),
		Analyze("发布前更新变更日志"),
		Analyze("Run database seeds in CI"),
	}
	want := []struct {
		i, j int
		a    Action
	}{{0, 2, Conflict}, {0, 4, Skip}, {1, 3, Skip}, {2, 4, Conflict}}
	got := Pairs(texts, nil, defaultTh)
	if len(got) != len(want) {
		t.Fatalf("Pairs = %+v, want %+v", got, want)
	}
	for k, w := range want {
		if got[k].I != w.i || got[k].J != w.j || got[k].Verdict.Action != w.a {
			t.Errorf("pair %d = %+v, want %+v", k, got[k], w)
		}
	}
	// groups keep categories apart
	if got := Pairs(texts, []int{0, 1, 1, 1, 0}, defaultTh); len(got) != 2 || got[0].I != 0 || got[0].J != 4 || got[1].I != 1 || got[1].J != 3 {
		t.Errorf("grouped Pairs = %+v", got)
	}
}

// bruteForce is the definition Pairs must meet: per group, when its
// candidate pairs (counted pair by pair) are within denseLimit, Classify on
// every pair, of the exact duplicates only the pairs with the earliest text
// they duplicate; past it, bruteWindow.
func bruteForce(texts []*Text, group []int, th Thresholds) []Pair {
	var out []Pair
	for _, members := range bruteGroups(len(texts), group) {
		if bruteCandidates(texts, members, th) > denseLimit(len(members)) {
			out = append(out, bruteWindow(texts, members, th)...)
		} else {
			out = append(out, bruteAll(texts, members, th)...)
		}
	}
	slices.SortFunc(out, func(a, b Pair) int { return cmp.Or(cmp.Compare(a.I, b.I), cmp.Compare(a.J, b.J)) })
	return out
}

func bruteGroups(n int, group []int) [][]int {
	at := map[int]int{}
	var out [][]int
	for i := range n {
		g := 0
		if group != nil {
			g = group[i]
		}
		k, ok := at[g]
		if !ok {
			k = len(out)
			at[g] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// bruteCandidates counts the pairs of members that pass the candidate
// filter and are not exact duplicates.
func bruteCandidates(texts []*Text, members []int, th Thresholds) int {
	n := 0
	for a, i := range members {
		for _, j := range members[a+1:] {
			if candidate(texts[i], texts[j], min(th.Skip, th.Update)) && !Exact(texts[i], texts[j]) {
				n++
			}
		}
	}
	return n
}

// bruteAll is every related pair of members, exact pairs with the earliest
// text of their class only.
func bruteAll(texts []*Text, members []int, th Thresholds) []Pair {
	var out []Pair
	hasEarlier := map[int]bool{} // j already paired with an exact duplicate
	for a, i := range members {
		for _, j := range members[a+1:] {
			v := Classify(texts[i], texts[j], th)
			if v.Exact && hasEarlier[j] {
				continue
			}
			if v.Exact {
				hasEarlier[j] = true
			}
			if v.Related() {
				out = append(out, Pair{I: i, J: j, Verdict: v})
			}
		}
	}
	return out
}

// bruteWindow is a dense group's pairs as the doc of denseLimit states
// them: per member, of the related texts among the denseWindow members
// before it, the strongest non-reversal and the strongest reversal (action,
// then similarity, then the earlier), and the exact pair with the earliest
// text of its class.
func bruteWindow(texts []*Text, members []int, th Thresholds) []Pair {
	var out []Pair
	for k, j := range members {
		var near, reverse []Pair
		for _, i := range members[max(0, k-denseWindow):k] {
			v := Classify(texts[i], texts[j], th)
			switch {
			case v.Exact || !v.Related():
			case v.Action == Conflict:
				reverse = append(reverse, Pair{I: i, J: j, Verdict: v})
			default:
				near = append(near, Pair{I: i, J: j, Verdict: v})
			}
		}
		order := func(a, b Pair) int {
			return cmp.Or(cmp.Compare(rank[b.Verdict.Action], rank[a.Verdict.Action]),
				cmp.Compare(b.Verdict.Similarity, a.Verdict.Similarity), cmp.Compare(a.I, b.I))
		}
		for _, ps := range [][]Pair{near, reverse} {
			if len(ps) > 0 {
				out = append(out, slices.MinFunc(ps, order))
			}
		}
		for _, i := range members[:k] {
			if Exact(texts[i], texts[j]) {
				out = append(out, Pair{I: i, J: j, Verdict: exactVerdict})
				break
			}
		}
	}
	return out
}

// bruteAllPairs is bruteAll over all texts: the pairs of every group as
// though none were dense, which PairsInvolving finds.
func bruteAllPairs(texts []*Text, th Thresholds) []Pair {
	return bruteAll(texts, bruteGroups(len(texts), nil)[0], th)
}

// candidate is the filter Pairs applies before Classify, pair by pair: the
// exact keys are equal, or both Cores are empty with equal normCore, or the
// keyword Jaccard reaches t, or the Core Jaccard reaches coreCandidateMin.
// Any pair it rejects is Store to Classify. Pairs and scanPartners find
// exactly the pairs it accepts, without testing each pair: this is the
// definition the tests hold them to.
func candidate(a, b *Text, t float64) bool {
	if !(t > 0) || a.exactKey() == b.exactKey() ||
		len(a.Core()) == 0 && len(b.Core()) == 0 && a.normCore() != "" && a.normCore() == b.normCore() {
		return true
	}
	return jaccardReaches(a.Keys(), b.Keys(), t) || jaccardReaches(a.Core(), b.Core(), coreCandidateMin) ||
		swapCandidate(a.Core(), b.Core())
}

func jaccardReaches(a, b []string, t float64) bool {
	return overlapReaches(intersection(a, b), len(a), len(b), t)
}
