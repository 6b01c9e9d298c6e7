package similar

import (
	"fmt"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestPairsInvolvingMatchesBruteForce: the non-exact pairs touching the
// changed texts are exactly those of comparing all pairs, for any share of
// changed texts.
func TestPairsInvolvingMatchesBruteForce(t *testing.T) {
	longtest.Skip(t)
	ths := []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0.9, 0.5}, {1, 1}, {0, 0}}
	extra := []string{"我不吃", "我吃", "不要提交生成的代码", "要提交生成的代码", "Do it", "Don't do it", "🙂", "🙃", "Use YAML", "Use JSON"}
	for seed := range uint64(6) {
		g := newEntryGen(seed+100, 40+int(seed)*30)
		texts := g.texts(250)
		for _, s := range extra {
			texts = append(texts, Analyze(s))
		}
		g.rng.Shuffle(len(texts), func(i, j int) { texts[i], texts[j] = texts[j], texts[i] })
		for _, share := range []int{0, 1, 3, 20, 100} {
			var changed []int
			for i := range texts {
				if g.rng.IntN(100) < share || share == 0 && i == len(texts)/2 {
					changed = append(changed, i)
				}
			}
			for _, th := range ths {
				want := []Pair{}
				for _, p := range bruteAllPairs(texts, th) {
					if !p.Verdict.Exact && (slices.Contains(changed, p.I) || slices.Contains(changed, p.J)) {
						want = append(want, p)
					}
				}
				got := PairsInvolving(texts, changed, th)
				if len(got) == 0 && len(want) == 0 {
					continue
				}
				if !slices.Equal(got, want) {
					t.Errorf("seed %d, %d changed, %v: got %d pairs, want %d", seed, len(changed), th, len(got), len(want))
					reportDiff(t, texts, got, want)
				}
			}
		}
	}
	if got := PairsInvolving(nil, nil, defaultTh); got != nil {
		t.Errorf("PairsInvolving(nil) = %v", got)
	}
}

func BenchmarkPairsInvolving10k(b *testing.B) {
	ss := benchStrings(10000)
	texts := AnalyzeAll(ss)
	for _, n := range []int{1, 10, 100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			changed := make([]int, n)
			for i := range changed {
				changed[i] = i * (len(texts) / n)
			}
			for b.Loop() {
				PairsInvolving(texts, changed, defaultTh)
			}
		})
	}
}
