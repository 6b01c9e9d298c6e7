package similar

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// copiesTexts is n entries drawn from a few sentences, each mostly copied
// verbatim and sometimes spelled otherwise with the same normalised text,
// with reversals and changed values of them among the copies, in random
// order: the workspace an agent that stores one fact on every run leaves.
func copiesTexts(r *rand.Rand, n int) []*Text {
	families := [][]string{
		{"Run the tests with -race", "run the tests with -race.", "RUN THE TESTS WITH -RACE!"},
		{"Never run the tests with -race"},
		{"Pin Go to 1.26 on the runner", "pin go to 1.26 on the runner"},
		{"Pin Go to 1.25 on the runner"},
		{"entry", "Entry", "entry."},
		{"Do it", "do it!"},
		{"Don't do it"},
		{"🙂"},
		{"Use YAML for the deploy config"},
		{"Use JSON for the deploy config"},
		{"发布前更新变更日志", "发布前更新变更日志。"},
	}
	texts := make([]*Text, n)
	for i := range texts {
		f := families[r.IntN(len(families))]
		s := f[0]
		if r.IntN(4) == 0 {
			s = f[r.IntN(len(f))]
		}
		texts[i] = Analyze(s)
	}
	return texts
}

// TestPairsOfCopiesMatchBruteForce: with many copies and respellings of a
// few texts, Pairs is still the comparison of all pairs, exact duplicates
// paired with the earliest text of their class.
func TestPairsOfCopiesMatchBruteForce(t *testing.T) {
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 16))
		texts := copiesTexts(r, 60+r.IntN(200))
		groups := make([]int, len(texts))
		for i := range groups {
			groups[i] = r.IntN(2)
		}
		for _, th := range []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {1, 1}, {0, 0}} {
			for _, grp := range [][]int{nil, groups} {
				got, want := Pairs(texts, grp, th), bruteForce(texts, grp, th)
				if !slices.Equal(got, want) {
					t.Errorf("seed %d %v grouped=%v: Pairs found %d, brute force %d", seed, th, grp != nil, len(got), len(want))
					reportDiff(t, texts, got, want)
				}
			}
		}
		changed := []int{0, len(texts) / 2, len(texts) - 1}
		var want []Pair
		for _, p := range bruteAllPairs(texts, defaultTh) {
			if !p.Verdict.Exact && (slices.Contains(changed, p.I) || slices.Contains(changed, p.J)) {
				want = append(want, p)
			}
		}
		if got := PairsInvolving(texts, changed, defaultTh); !slices.Equal(got, want) {
			t.Errorf("seed %d: PairsInvolving found %d, brute force %d", seed, len(got), len(want))
		}
		var stars []Pair
		for _, p := range bruteForce(texts, nil, defaultTh) {
			if p.Verdict.Exact {
				stars = append(stars, p)
			}
		}
		if got := ExactStars(texts); !slices.Equal(got, stars) {
			t.Errorf("seed %d: ExactStars found %d, brute force %d", seed, len(got), len(stars))
		}
	}
}

// TestPairsOfCopiesScale counts the work of Pairs on n copies of an entry
// in three spellings of one normalised text, with one reversal of another
// entry at the end (TestThousandRapidChanges in lsp/ types a thousand equal
// entries): comparing all pairs would take n(n−1)/2 comparisons; here the
// candidates and the calls of Classify do not grow with n, and the pairs
// grow linearly (n−1 exact pairs, n reversals).
func TestPairsOfCopiesScale(t *testing.T) {
	var work [][2]int
	for _, n := range []int{1000, 4000} {
		spellings := []*Text{Analyze("Run the tests with -race"), Analyze("run the tests with -race."), Analyze("RUN THE TESTS WITH -RACE!")}
		texts := make([]*Text, 0, n+1)
		for i := range n {
			texts = append(texts, Analyze(spellings[i%3].Raw)) // a text per entry, as a check analyses them
		}
		texts = append(texts, Analyze("Never run the tests with -race"))
		pairs, counts := countedPairs(texts, nil, defaultTh)
		exact, conflicts := 0, 0
		for _, p := range pairs {
			switch {
			case p.Verdict.Exact && p.I == 0:
				exact++
			case p.Verdict.Action == Conflict && p.J == n:
				conflicts++
			default:
				t.Fatalf("n=%d: unexpected pair %+v", n, p)
			}
		}
		if exact != n-1 || conflicts != n {
			t.Errorf("n=%d: %d exact pairs and %d reversals, want %d and %d", n, exact, conflicts, n-1, n)
		}
		t.Logf("n=%d: %d candidate pairs, %d calls of Classify, %d pairs (all pairs: %d)", n, counts[0], counts[1], len(pairs), (n+1)*n/2)
		work = append(work, counts)
	}
	if work[1] != work[0] {
		t.Errorf("the work grew with the copies: %v at 1,000, %v at 4,000", work[0], work[1])
	}
}

// BenchmarkPairsOfCopies is Pairs over n copies of one entry, plus a
// reversal of it: before the copies were collapsed, the time grew with n².
func BenchmarkPairsOfCopies(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			texts := make([]*Text, 0, n+1)
			for range n {
				texts = append(texts, Analyze("entry"))
			}
			texts = append(texts, Analyze("Never entry"))
			for b.Loop() {
				Pairs(texts, nil, defaultTh)
			}
		})
	}
}

// TestExactStarsAfterEdits: the exact pairs kept from before an edit, with
// those of the classes it touched made afresh, are ExactStars of the texts
// after it, for edits that take the earliest copy away or put one before it.
func TestExactStarsAfterEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 16))
	texts := copiesTexts(r, 200)
	for step := range 300 {
		before := texts
		stars := ExactStars(before)
		var touched []*Text
		keep := make([]int, len(before)) // old index → new, -1 if gone
		var after []*Text
		for i, tx := range before {
			if r.IntN(40) == 0 {
				touched = append(touched, copiesTexts(r, 1)[0])
				after = append(after, touched[len(touched)-1])
			}
			if r.IntN(40) == 0 {
				keep[i] = -1
				touched = append(touched, tx)
				continue
			}
			keep[i] = len(after)
			after = append(after, tx)
		}
		var kept []Pair
		for _, p := range stars {
			if i, j := keep[p.I], keep[p.J]; i >= 0 && j >= 0 {
				kept = append(kept, Pair{I: i, J: j, Verdict: p.Verdict})
			}
		}
		if got, want := ExactStarsAfter(after, kept, touched), ExactStars(after); !slices.Equal(got, want) {
			t.Fatalf("step %d: %d exact pairs after the edit, want %d", step, len(got), len(want))
		}
		texts = after
	}
}

// TestExactClassIsExact: two texts share an ExactClass exactly when Exact
// holds (duplicate-slug tells versions of an entry from repeats by it).
func TestExactClassIsExact(t *testing.T) {
	ss := digestTexts()[:400]
	ss = append(ss, "Use PostgreSQL 16.", "use postgresql 16", "Use PostgreSQL 17.", "Never use PostgreSQL 16.", "Don't use PostgreSQL 16.")
	texts := make([]*Text, len(ss))
	for i, s := range ss {
		texts[i] = Analyze(s)
	}
	same := 0
	for i := range texts {
		for j := range i {
			if e, c := Exact(texts[i], texts[j]), ExactClass(texts[i]) == ExactClass(texts[j]); e != c {
				t.Fatalf("%q / %q: Exact %v, same ExactClass %v", ss[i], ss[j], e, c)
			} else if e {
				same++
			}
		}
	}
	if same == 0 {
		t.Fatal("no exact pair among the texts: the test compares nothing")
	}
}
