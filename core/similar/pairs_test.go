package similar

import (
	"fmt"
	"slices"
	"testing"
)

func TestPairsMatchesBruteForce(t *testing.T) {
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

// bruteForce is the definition Pairs must meet: Classify on every pair, of
// the exact duplicates only the pairs with the earliest text they duplicate.
func bruteForce(texts []*Text, group []int, th Thresholds) []Pair {
	var out []Pair
	hasEarlier := make([]bool, len(texts)) // j already paired with an exact duplicate
	for i := range texts {
		for j := i + 1; j < len(texts); j++ {
			if group == nil || group[i] == group[j] {
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
	}
	return out
}
