package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// trickyText is random text over the bytes the tokenizer treats specially:
// separators inside words, dots between digits, apostrophes and
// possessives, C++ and C#, stop words, capitals, and now and then a
// non-ASCII letter, a combining mark, a CJK run or a full-width letter.
func trickyText(r *rand.Rand) string {
	pieces := []string{"a", "the", "To", "don't", "user's", "Users'", "c++", "C#", "x#y", "a++b", "1.8", "v1.8.2", "18.",
		"auto-scaling", "snake_case", "a/b", "openapi.yaml", "-", "_", "/", ".", "'", "+", "#", " ", " ", "  ", ",", "cache",
		"caching", "queries", "use", "US", "which", "should", "é", "\u0301", "变更日志", "Ａ", "’s", "it's", "I'S", "s", "'s", "9"}
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestCountTermsMatchesTokenizer: the byte-level count is the tokenizer's,
// term for term, on every ASCII text, and declines every other.
func TestCountTermsMatchesTokenizer(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 6))
	for range 200000 {
		s := trickyText(r)
		n, ascii := countTerms(s)
		if ascii != text.IsASCII(s) {
			t.Fatalf("%q: ascii %v", s, ascii)
		}
		if ascii && n != len(Tokens(s)) {
			t.Fatalf("%q: counted %d terms, the tokenizer finds %d: %q", s, n, len(Tokens(s)), Tokens(s))
		}
	}
}

// TestScanMatchesSearch: scanning docs one by one gives exactly the hits of
// an index of them (IDs, order, bit-identical scores), for whole words,
// phrases, prefixes, slugs, tricky text, categories and limits.
func TestScanMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 7))
	docs := benchDocs(3000, 9)
	for i := range 300 {
		docs[r.IntN(len(docs))] = Doc{Category: category.All[i%5], Content: trickyText(r) + " " + trickyText(r), Slug: strings.Trim(trickyText(r), " ")}
	}
	ix := Build(docs)
	queries := randomQueries(r, docs)
	for _, q := range queries {
		opt := Options{Limit: []int{0, 1, 10, 20}[r.IntN(4)]}
		if r.IntN(3) == 0 {
			c := category.All[r.IntN(len(category.All))]
			opt.Category = &c
		}
		s := NewScan(q)
		for _, d := range docs {
			s.Add(d)
		}
		if got, want := s.Search(q, opt), ix.Search(q, opt); !slices.Equal(got, want) {
			t.Fatalf("%q %+v:\n scan %v\nindex %v", q, opt, got, want)
		}
	}
}

// randomQueries are the benchmark's queries, tricky ones, and runs of one
// to three words of random docs, some cut short (prefixes).
func randomQueries(r *rand.Rand, docs []Doc) []string {
	queries := append(slices.Clone(benchQueries), "", "...", "the", "a", "u", "us", "c++", "C#", "1.8", "v1", "auto-scaling", "autoscal",
		"don't", "user", "变更", "é", "ＡＢ", "cach", "quer", "cache cache", "auto scaling")
	for range 300 {
		d := docs[r.IntN(len(docs))]
		words := strings.Fields(d.Content + " " + d.Slug)
		if len(words) == 0 {
			continue
		}
		i := r.IntN(len(words))
		q := strings.Join(words[i:min(len(words), i+1+r.IntN(3))], " ")
		if r.IntN(4) == 0 && len(q) > 5 {
			q = q[:4+r.IntN(len(q)-4)]
		}
		queries = append(queries, q)
	}
	return queries
}
