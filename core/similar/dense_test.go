package similar

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// denseTexts is a registry of n entries that are one sentence with one term
// changed (every pair siblings), with some values, reversals and copies
// among them, in the order r gives: the shape that made the pairs grow with
// the square of the entries (issue 26's red team).
func denseTexts(r *rand.Rand, n int) []*Text {
	texts := make([]*Text, n)
	for i := range texts {
		s := fmt.Sprintf("Deploy the api service before the web app on host%d", r.IntN(n))
		switch r.IntN(10) {
		case 0:
			s = fmt.Sprintf("Never deploy the api service before the web app on host%d", r.IntN(n))
		case 1:
			s = fmt.Sprintf("Deploy the api service before the web app on port %d", r.IntN(n))
		case 2:
			s = "Deploy the api service before the web app on host1"
		}
		texts[i] = Analyze(s)
	}
	return texts
}

// TestDensePairsMatchBruteForce: around and far past the dense limit, with
// the index filtering (and its early stop) and without (a threshold of
// zero), Pairs is bruteForce: all pairs below the limit, the windows past
// it.
func TestDensePairsMatchBruteForce(t *testing.T) {
	longtest.Skip(t)
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 26))
		for _, n := range []int{40, 90, 100, 130, 400} {
			texts := denseTexts(r, n)
			mixed := append(slices.Clone(texts), newEntryGen(seed, 60).texts(200)...)
			groups := make([]int, len(mixed))
			for i := range groups {
				groups[i] = r.IntN(2)
			}
			for _, th := range []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0, 0}} {
				for _, c := range []struct {
					texts []*Text
					group []int
				}{{texts, nil}, {mixed, groups}} {
					got, want := Pairs(c.texts, c.group, th), bruteForce(c.texts, c.group, th)
					if !slices.Equal(got, want) {
						t.Errorf("seed %d n=%d %v grouped=%v: Pairs found %d, brute force %d", seed, n, th, c.group != nil, len(got), len(want))
						reportDiff(t, c.texts, got, want)
					}
				}
				ps := GroupPairs(texts, th)
				count := bruteCandidates(texts, bruteGroups(n, nil)[0], th)
				if dense := count > denseLimit(n); ps.Dense != dense || !dense && ps.candidates != count {
					t.Errorf("seed %d n=%d %v: dense %v with %d candidates, brute force %d (limit %d)", seed, n, th, ps.Dense, ps.candidates, count, denseLimit(n))
				}
			}
		}
	}
}

// TestCandidatesMatchBruteForce: the candidates Pairs counts (and Update
// keeps counting) are the pairs the filter accepts, on generated memory.
func TestCandidatesMatchBruteForce(t *testing.T) {
	for seed := range uint64(4) {
		texts := newEntryGen(seed, 40+int(seed)*30).texts(300)
		texts = append(texts, copiesTexts(rand.New(rand.NewPCG(seed, 1)), 60)...)
		for _, th := range []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0.9, 0.5}, {1, 1}} {
			ps := GroupPairs(texts, th)
			if want := bruteCandidates(texts, bruteGroups(len(texts), nil)[0], th); ps.Dense || ps.candidates != want {
				t.Errorf("seed %d %v: %d candidates (dense %v), brute force %d", seed, th, ps.candidates, ps.Dense, want)
			}
			probes := []int{0, 7, len(texts) / 2, len(texts) - 1}
			want := 0
			for i := range texts {
				for j := i + 1; j < len(texts); j++ {
					if (slices.Contains(probes, i) || slices.Contains(probes, j)) &&
						candidate(texts[i], texts[j], min(th.Skip, th.Update)) && !Exact(texts[i], texts[j]) {
						want++
					}
				}
			}
			if _, got := candidatesOf(texts, probes, min(th.Skip, th.Update), 0); got != want {
				t.Errorf("seed %d %v: %d candidates involving the probes, brute force %d", seed, th, got, want)
			}
		}
	}
}

// TestUpdateMatchesGroupPairs: a group edited at random — entries typed,
// deleted and rewritten, a registry of siblings pasted in and cut out again
// — is after every edit, through Update, what GroupPairs makes of it
// afresh: the same pairs, the same count of candidates, dense at the same
// moments.
func TestUpdateMatchesGroupPairs(t *testing.T) {
	longtest.Skip(t)
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 27))
		g := newEntryGen(seed, 80)
		texts := g.texts(150)
		ps := GroupPairs(texts, defaultTh)
		denseSeen, sparseAfter := false, false
		for step := range 60 {
			next := slices.Clone(texts)
			switch k := r.IntN(len(next) + 1); {
			case step%20 == 5:
				// paste a registry of siblings
				next = slices.Insert(next, k, denseTexts(r, 100+r.IntN(60))...)
			case step%20 == 12:
				// cut it out again
				next = slices.DeleteFunc(next, func(t *Text) bool { return t.Keys()[0] == "api" })
			default:
				for range 1 + r.IntN(3) {
					switch k := r.IntN(len(next) + 1); r.IntN(3) {
					case 0:
						next = slices.Insert(next, k, Analyze(g.next()))
					case 1:
						if k < len(next) {
							next = slices.Delete(next, k, k+1)
						}
					default:
						if k < len(next) {
							next[k] = Analyze(g.variant(next[k].Raw))
						}
					}
				}
			}
			got := ps.Update(texts, next, diffTexts(texts, next), defaultTh)
			want := GroupPairs(next, defaultTh)
			if got.Dense != want.Dense || got.candidates != want.candidates && !want.Dense || !slices.Equal(got.Pairs, want.Pairs) {
				t.Fatalf("seed %d step %d: Update gave %d pairs (dense %v, %d candidates), GroupPairs %d (dense %v, %d)",
					seed, step, len(got.Pairs), got.Dense, got.candidates, len(want.Pairs), want.Dense, want.candidates)
			}
			denseSeen = denseSeen || got.Dense
			sparseAfter = sparseAfter || denseSeen && !got.Dense
			texts, ps = next, got
		}
		if !denseSeen || !sparseAfter {
			t.Errorf("seed %d: the edits never made the group dense and sparse again (dense %v, after %v)", seed, denseSeen, sparseAfter)
		}
	}
}

// diffTexts matches the texts of b with the same texts of a, in order: a
// common prefix and suffix, everything between changed (enough for Update,
// which needs any order-keeping match).
func diffTexts(a, b []*Text) []int {
	m := make([]int, len(b))
	for i := range m {
		m[i] = -1
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		m[pre] = pre
		pre++
	}
	for i, j := len(a)-1, len(b)-1; i >= pre && j >= pre && a[i] == b[j]; i, j = i-1, j-1 {
		m[j] = i
	}
	return m
}

// TestDenseWorkIsLinear: a registry of siblings at the line limit of a
// memory file is found dense with a bounded count of candidates, and its
// pairs cost denseWindow comparisons an entry, not one per pair of entries.
func TestDenseWorkIsLinear(t *testing.T) {
	longtest.Skip(t)
	if testing.Short() {
		t.Skip("25,000 entries")
	}
	const n = 25000
	texts := make([]*Text, n)
	for i := range texts {
		texts[i] = Analyze("Deploy the api service before the web app on " + fixture.Word(i))
	}
	pairs, counts := countedPairs(texts, nil, defaultTh)
	if counts[0] != 0 || counts[1] != 0 {
		t.Errorf("the candidates of a dense group were judged: %v", counts)
	}
	if len(pairs) < n-1 || len(pairs) > 2*n {
		t.Errorf("%d pairs, want about one per entry but the first (%d)", len(pairs), n-1)
	}

	kinds := map[string]int{}
	for _, p := range pairs {
		if !p.Verdict.Exact && p.J-p.I > denseWindow || !p.Verdict.Related() {
			t.Fatalf("pair %+v: not related within the window", p)
		}
		kinds[p.Verdict.Kind]++
	}
	if kinds[KindSibling] < n*9/10 {
		t.Errorf("kinds of the pairs %v: want nearly all siblings", kinds)
	}
}

// BenchmarkUpdate10k is an editor's re-check of 10,000 entries after one
// entry changed, through Update (count the candidates gone and come, then
// find the pairs of the changed entry), beside GroupPairs afresh: what the
// Checker's incremental path saves.
func BenchmarkUpdate10k(b *testing.B) {
	ss := benchStrings(10001)
	old := AnalyzeAll(ss[:10000])
	texts := slices.Clone(old)
	texts[5000] = Analyze(ss[10000])
	match := make([]int, len(texts))
	for i := range match {
		match[i] = i
	}
	match[5000] = -1
	ps := GroupPairs(old, defaultTh)
	b.Run("update", func(b *testing.B) {
		for b.Loop() {
			ps.Update(old, texts, match, defaultTh)
		}
	})
	b.Run("afresh", func(b *testing.B) {
		for b.Loop() {
			GroupPairs(texts, defaultTh)
		}
	})
	b.Run("involving", func(b *testing.B) {
		for b.Loop() {
			PairsInvolving(texts, []int{5000}, defaultTh)
		}
	})
}

// TestDenseGroupThenAnotherGroup: Pairs over two groups, the first dense,
// equals each group's pairs found alone: the index the dense group was
// found dense with still serves the next group.
func TestDenseGroupThenAnotherGroup(t *testing.T) {
	const registry = 400 // 79,800 candidate pairs: dense
	var texts []*Text
	var group []int
	for i := range registry {
		texts = append(texts, Analyze("Deploy the api service before the web app on "+fixture.Word(i)))
		group = append(group, 0)
	}
	others := []string{
		"Run the integration tests before merging to main.",
		"Never run the integration tests before merging to main.",
		"Use pnpm for every package in the workspace.",
		"Use pnpm for every package in the monorepo.",
		"Keep secrets out of the repository.",
	}
	for _, s := range others {
		texts = append(texts, Analyze(s))
		group = append(group, 1)
	}
	got := Pairs(texts, group, defaultTh)

	dense := GroupPairs(texts[:registry], defaultTh)
	if !dense.Dense {
		t.Fatal("the registry is not dense: the test no longer covers a dense group")
	}
	want := dense.Pairs
	for _, p := range GroupPairs(texts[registry:], defaultTh).Pairs {
		want = append(want, Pair{I: p.I + registry, J: p.J + registry, Verdict: p.Verdict})
	}
	sortPairs(want)
	if len(got) != len(want) {
		t.Fatalf("%d pairs over both groups, %d found group by group", len(got), len(want))
	}
	for k := range got {
		if got[k] != want[k] {
			t.Fatalf("pair %d: %+v over both groups, %+v group by group", k, got[k], want[k])
		}
	}
	if !slices.ContainsFunc(got, func(p Pair) bool { return p.I >= registry && p.Verdict.Action == Conflict }) {
		t.Error("the second group's reversal was not found after the dense group")
	}
}
