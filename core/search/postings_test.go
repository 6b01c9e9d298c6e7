package search

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// TestSegmentKeepsEveryPosting: the postings and sequences of a segment
// are exactly what its docs hold, counted here without the
// segment: every term's docs and frequencies (a frequency of one, of
// several, and one past what a posting keeps, which saturates), and every
// doc's main terms in order; and the categories of docs all of one
// category and of several.
func TestSegmentKeepsEveryPosting(t *testing.T) {
	docs := benchDocs(2000, 9)
	docs = append(docs,
		Doc{Category: category.Quirk, Content: strings.Repeat("again ", 3)},
		Doc{Category: category.Quirk, Content: strings.Repeat("saturate ", math.MaxUint16+5)},
		Doc{Category: category.Quirk, Content: ""},
		Doc{Category: category.Quirk, Content: "again, and lonely at the far end"})
	for _, docs := range [][]Doc{docs, sameCategory(docs, category.Security)} {
		seg := NewSegment(docs)
		want := map[string][]posting{}
		var tk tokenizer
		for d, doc := range docs {
			tk.reset()
			tk.run(doc.Content)
			var main []int32
			for i, sp := range tk.spans {
				w := string(tk.term(i))
				l := want[w]
				if len(l) > 0 && l[len(l)-1].doc == int32(d) {
					if l[len(l)-1].tf < math.MaxUint16 {
						l[len(l)-1].tf++
					}
				} else {
					want[w] = append(l, posting{doc: int32(d), tf: 1})
				}
				if sp.main {
					id, _ := seg.find(w)
					main = append(main, id)
				}
			}
			if got := seg.seq[seg.seqOff[d]:seg.seqOff[d+1]]; !slices.Equal(got, main) {
				t.Fatalf("doc %d: sequence %v, want %v", d, got, main)
			}
			if got := seg.category(int32(d)); got != doc.Category {
				t.Fatalf("doc %d: category %v, want %v", d, got, doc.Category)
			}
		}
		if len(seg.terms) != len(want) {
			t.Fatalf("%d terms, want %d", len(seg.terms), len(want))
		}
		for w, l := range want {
			id, ok := seg.find(w)
			if !ok {
				t.Fatalf("term %q missing", w)
			}
			if got := seg.post[id]; !slices.Equal(got, l) {
				t.Fatalf("%q: %v, want %v", w, got, l)
			}
		}
		if got := want["saturat"]; len(got) != 1 || got[0].tf != math.MaxUint16 {
			t.Fatalf("the test should hold a saturated frequency: %v", got)
		}
	}
}

func sameCategory(docs []Doc, c category.Category) []Doc {
	out := slices.Clone(docs)
	for i := range out {
		out[i].Category = c
	}
	return out
}

// TestHasRunOnlyAtTermStarts: a run is found where its terms are
// consecutive, not where they are apart or in another order.
func TestHasRunOnlyAtTermStarts(t *testing.T) {
	docs := [][]int32{{128, 4}, {7, 0, 4}, {0, 4}, {128, 4, 0, 4}, {}, {4, 0}, {0, 7, 4}}
	s := &Segment{seqOff: []int32{0}}
	for _, doc := range docs {
		s.seq = append(s.seq, doc...)
		s.seqOff = append(s.seqOff, int32(len(s.seq)))
	}
	for d, want := range []bool{false, true, true, true, false, false, false} {
		if got := s.hasRun(int32(d), []int32{0, 4}); got != want {
			t.Errorf("doc %d %v: hasRun %v, want %v", d, docs[d], got, want)
		}
	}
}
