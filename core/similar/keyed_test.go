package similar

import (
	"runtime"
	"slices"
	"testing"
)

// TestDecideKeyedMatchesDecideContents: a store decided on what a Keyed
// read, made at once or extended entry by entry as stores append them, is
// DecideContents's decision, similarity included.
func TestDecideKeyedMatchesDecideContents(t *testing.T) {
	ths := []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0.9, 0.5}, {1, 1}}
	for seed := range uint64(6) {
		g := newEntryGen(seed, 30+int(seed)*20)
		var contents []string
		for range 150 {
			contents = append(contents, g.next())
		}
		contents = append(contents, "auto-scaling nodes", "Autoscaling nodes!", "Do it", "Don't do it", "🚀", "发布前更新日志", "", "Use v2.1 of the API", "use V2.1 of the api",
			// issue 27: swaps, values in words, antonyms, polarity words aside
			"Encrypt backups with KMS.", "Encrypt snapshots with KMS.", "Retry failed webhook deliveries twice.",
			"Retry failed webhook deliveries three times.", "The CLI treats names as case-sensitive.",
			"The CLI treats names as case-insensitive.", "Keep secrets out of the repository.",
			"Remove secrets from the repository.", "Don't create Markdown docs unless asked.",
			"Do not create Markdown documents unless asked.")
		whole := NewKeyed(contents)
		grown := NewKeyed(contents[:10])
		for n := 11; n <= len(contents); n += 7 {
			grown = grown.Extend(contents[:n])
		}
		grown = grown.Extend(contents)
		news := append(append([]string{}, contents...), g.next(), g.next(), "Autoscaling nodes", "Don't do it!")
		for i, c := range news {
			if i%2 == 1 {
				continue
			}
			nt := Analyze(c)
			for _, th := range ths {
				wi, wv := DecideContents(nt, contents, th)
				for name, k := range map[string]*Keyed{"whole": whole, "grown": grown} {
					if gi, gv := DecideKeyed(nt, contents, k, th); gi != wi || gv != wv {
						t.Fatalf("seed %d, new %q, %v, %s: DecideKeyed = %d %+v, DecideContents = %d %+v", seed, c, th, name, gi, gv, wi, wv)
					}
				}
			}
		}
	}
}

// TestDecideKeyedParallel covers the multi-core path with the same equality.
func TestDecideKeyedParallel(t *testing.T) {
	g := newEntryGen(43, 60)
	contents := make([]string, 2*parallelMin+100)
	for i := range contents {
		contents[i] = g.next()
	}
	k := NewKeyed(contents)
	for i := 0; i < len(contents); i += 97 {
		for _, nt := range []*Text{Analyze(contents[i]), Analyze(g.next())} {
			wi, wv := DecideContents(nt, contents, defaultTh)
			if gi, gv := DecideKeyed(nt, contents, k, defaultTh); gi != wi || gv != wv {
				t.Fatalf("new %q: DecideKeyed = %d %+v, DecideContents = %d %+v", nt.Raw, gi, gv, wi, wv)
			}
		}
	}
}

// TestDecideKeyedPartsKeepTheEarliest: the entries are judged in parts side
// by side, each keeping only its strongest verdict; the decision is still
// the earliest of the strongest, as when every verdict was kept, with the
// same text or equally similar ones in several parts.
func TestDecideKeyedPartsKeepTheEarliest(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	g := newEntryGen(7, 80)
	contents := make([]string, 4*parallelMin+37)
	for i := range contents {
		contents[i] = g.next()
	}
	same := []string{"Use the blue deploy pipeline for staging", "use the blue deploy pipeline for staging!"}
	for _, at := range [][]int{{3 * parallelMin}, {parallelMin + 5, 3*parallelMin + 1}, {2*parallelMin + 9, 10}, {len(contents) - 1, 0}} {
		cs := slices.Clone(contents)
		for j, i := range at {
			cs[i] = same[j%len(same)]
		}
		k := NewKeyed(cs)
		for _, nt := range []*Text{Analyze(same[0]), Analyze(same[1]), Analyze("Use the blue deploy pipeline for production"), Analyze(cs[1])} {
			for _, th := range []Thresholds{defaultTh, {0.3, 0.3}} {
				wi, wv := DecideContents(nt, cs, th)
				if gi, gv := DecideKeyed(nt, cs, k, th); gi != wi || gv != wv {
					t.Fatalf("at %v, new %q, %v: DecideKeyed = %d %+v, DecideContents = %d %+v", at, nt.Raw, th, gi, gv, wi, wv)
				}
			}
		}
	}
}
