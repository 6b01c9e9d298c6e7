package similar

import (
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"

	"github.com/memory-lsp/memory-lsp/internal/cputime"
)

func benchStrings(n int) []string {
	g := newEntryGen(42, 3000)
	out := make([]string, n)
	for i := range out {
		out[i] = g.next()
	}
	return out
}

func BenchmarkAnalyze(b *testing.B) {
	ss := benchStrings(1000)
	b.ReportAllocs()
	i := 0
	cpu := cputime.Start()
	for b.Loop() {
		Analyze(ss[i%len(ss)])
		i++
	}
	cpu.Report(b)
}

// BenchmarkPairs10k is a cleanup or check of 10,000 entries from scratch:
// Analyze every text, then find the related pairs.
func BenchmarkPairs10k(b *testing.B) {
	ss := benchStrings(10000)
	groups := make([]int, len(ss))
	for i := range groups {
		groups[i] = i % 5
	}
	b.ReportAllocs()
	var pairs int
	cpu := cputime.Start()
	for b.Loop() {
		texts := make([]*Text, len(ss))
		for i, s := range ss {
			texts[i] = Analyze(s)
		}
		pairs = len(Pairs(texts, groups, defaultTh))
	}
	cpu.Report(b)
	b.ReportMetric(float64(pairs), "pairs")
}

func BenchmarkDecide10k(b *testing.B) {
	ss := benchStrings(10001)
	texts := make([]*Text, 10000)
	for i := range texts {
		texts[i] = Analyze(ss[i])
	}
	b.ReportAllocs()
	cpu := cputime.Start()
	for b.Loop() {
		Decide(Analyze(ss[10000]), texts, defaultTh)
	}
	cpu.Report(b)
}

func BenchmarkScore(b *testing.B) {
	ss := benchStrings(1000)
	b.ReportAllocs()
	i := 0
	cpu := cputime.Start()
	for b.Loop() {
		Score(category.Decision, ss[i%len(ss)])
		i++
	}
	cpu.Report(b)
}

// BenchmarkSameSubjectAmong is the part of a store into a category of
// 10,000 entries that names the entries on the new text's subject; the
// "keyscan=off" run reads every entry's words, as SameSubjectAmong would
// without its key scan.
func BenchmarkSameSubjectAmong(b *testing.B) {
	ss := benchStrings(10001)
	nt := Analyze(ss[10000])
	b.Run("keyscan=on", func(b *testing.B) {
		for b.Loop() {
			SameSubjectAmong(nt, ss[:10000], 2)
		}
	})
	b.Run("keyscan=off", func(b *testing.B) {
		for b.Loop() {
			for _, c := range ss[:10000] {
				SameSubject(Analyze(c), nt)
			}
		}
	})
}
