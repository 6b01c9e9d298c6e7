package similar

import (
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestDecideContentsMatchesDecide: the shortcut must never change a
// decision, including the reported similarity of a plain store.
func TestDecideContentsMatchesDecide(t *testing.T) {
	longtest.Skip(t)
	ths := []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0.9, 0.5}, {1, 1}}
	checked := 0
	for seed := range uint64(8) {
		g := newEntryGen(seed, 30+int(seed)*20)
		var contents []string
		for range 200 {
			contents = append(contents, g.next())
		}
		contents = append(contents, "auto-scaling nodes", "Autoscaling nodes!", "Do it", "Don't do it", "🚀", "发布前更新日志", "",
			// issue 27: swaps, values in words, antonyms, polarity words aside
			"Encrypt backups with KMS.", "Encrypt snapshots with KMS.", "Retry failed webhook deliveries twice.",
			"Retry failed webhook deliveries three times.", "The CLI treats names as case-sensitive.",
			"The CLI treats names as case-insensitive.", "Keep secrets out of the repository.",
			"Remove secrets from the repository.", "Don't create Markdown docs unless asked.",
			"Do not create Markdown documents unless asked.")
		texts := make([]*Text, len(contents))
		for i, c := range contents {
			texts[i] = Analyze(c)
		}
		for k := 0; k < len(contents); k += 3 {
			for _, th := range ths {
				// Each text against all the others (and itself, which must be an exact skip).
				gi, gv := DecideContents(texts[k], contents, th)
				wi, wv := Decide(texts[k], texts, th)
				if gi != wi || gv != wv {
					t.Fatalf("seed %d, new %q, %v: DecideContents = %d %+v, Decide = %d %+v", seed, contents[k], th, gi, gv, wi, wv)
				}
				// And against all the others only.
				rest := append(append([]string{}, contents[:k]...), contents[k+1:]...)
				restT := append(append([]*Text{}, texts[:k]...), texts[k+1:]...)
				gi, gv = DecideContents(texts[k], rest, th)
				wi, wv = Decide(texts[k], restT, th)
				if gi != wi || gv != wv {
					t.Fatalf("seed %d, new %q (excluded), %v: DecideContents = %d %+v, Decide = %d %+v", seed, contents[k], th, gi, gv, wi, wv)
				}
				checked++
			}
		}
	}
	t.Logf("%d decisions compared", checked)
}

// TestDecideContentsParallel covers the multi-core path (over parallelMin
// entries per worker) with the same equality.
func TestDecideContentsParallel(t *testing.T) {
	g := newEntryGen(42, 60)
	n := 2*parallelMin + 100
	contents := make([]string, n)
	texts := make([]*Text, n)
	for i := range contents {
		contents[i] = g.next()
		texts[i] = Analyze(contents[i])
	}
	for k := 0; k < n; k += 97 {
		gi, gv := DecideContents(texts[k], contents, defaultTh)
		wi, wv := Decide(texts[k], texts, defaultTh)
		if gi != wi || gv != wv {
			t.Fatalf("new %q: DecideContents = %d %+v, Decide = %d %+v", contents[k], gi, gv, wi, wv)
		}
		fresh := Analyze(g.next())
		gi, gv = DecideContents(fresh, contents, defaultTh)
		wi, wv = Decide(fresh, texts, defaultTh)
		if gi != wi || gv != wv {
			t.Fatalf("new %q: DecideContents = %d %+v, Decide = %d %+v", fresh.Raw, gi, gv, wi, wv)
		}
	}
}
