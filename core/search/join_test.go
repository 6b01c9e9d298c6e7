package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// TestJoinMatchesBuild: an index joined from segments (some empty) answers
// every query exactly as one built from all the docs at once — the same
// IDs in the same order with bit-identical scores — although each segment
// alone knows only part of the terms, their frequencies and the lengths.
func TestJoinMatchesBuild(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	docs := benchDocs(3000, 5)
	whole := Build(docs)
	queries := slices.Clone(benchQueries)
	for range 200 {
		d := docs[r.IntN(len(docs))]
		words := strings.Fields(d.Content + " " + strings.ReplaceAll(d.Slug, "-", " "))
		i := r.IntN(len(words))
		q := strings.Join(words[i:min(len(words), i+1+r.IntN(3))], " ")
		if r.IntN(4) == 0 && len(q) > 5 {
			q = q[:4+r.IntN(len(q)-4)] // a prefix
		}
		queries = append(queries, q)
	}
	for round := range 20 {
		var segs []*Segment
		for at := 0; at < len(docs); {
			n := r.IntN(len(docs)/3 + 1)
			if r.IntN(5) == 0 {
				n = 0
			}
			n = min(n, len(docs)-at)
			segs = append(segs, NewSegment(docs[at:at+n]))
			at += n
		}
		joined := Join(segs...)
		if joined.Len() != whole.Len() {
			t.Fatalf("round %d: Len %d, want %d", round, joined.Len(), whole.Len())
		}
		for _, q := range queries {
			opt := Options{Limit: []int{0, 1, 10, 20}[r.IntN(4)]}
			if r.IntN(3) == 0 {
				c := category.All[r.IntN(len(category.All))]
				opt.Category = &c
			}
			want, got := whole.Search(q, opt), joined.Search(q, opt)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, %d segments, %q %+v:\n got %v\nwant %v", round, len(segs), q, opt, got, want)
			}
		}
	}
}
