package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// TestSegmentKeepsEveryPosting: the compact postings and sequences of a
// segment read back exactly what its docs hold, counted here without the
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
					id, _ := seg.terms.find(w)
					main = append(main, id)
				}
			}
			if got := seg.seq.of(int32(d), nil); !slices.Equal(got, main) {
				t.Fatalf("doc %d: sequence %v, want %v", d, got, main)
			}
			if got := seg.category(int32(d)); got != doc.Category {
				t.Fatalf("doc %d: category %v, want %v", d, got, doc.Category)
			}
		}
		if seg.terms.len() != len(want) {
			t.Fatalf("%d terms, want %d", seg.terms.len(), len(want))
		}
		for w, l := range want {
			id, ok := seg.terms.find(w)
			if !ok {
				t.Fatalf("term %q missing", w)
			}
			var got []posting
			for it := seg.post.of(id); it.more(); {
				p := it.next()
				got = append(got, p)
			}
			if !slices.Equal(got, l) || int(seg.post.df[id]) != len(l) {
				t.Fatalf("%q: %v (df %d), want %v", w, got, seg.post.df[id], l)
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

// TestOffsetsPast4GiB: offsets kept in 32 bits read back exactly past
// 4 GiB, across one wrap, several at once, and none for a while.
func TestOffsetsPast4GiB(t *testing.T) {
	want := []int{0, 0, 7, 1<<32 - 1, 1 << 32, 1<<32 + 9, 1<<32 + 9, 3<<32 + 1, 3<<32 + 2, 5 << 32, 6<<32 - 1}
	var o offsets
	for _, v := range want {
		o.add(v)
	}
	if o.len() != len(want) {
		t.Fatalf("%d offsets, want %d", o.len(), len(want))
	}
	for i, v := range want {
		if got := o.at(i); got != v {
			t.Errorf("offset %d: %d, want %d", i, got, v)
		}
	}
	r := rand.New(rand.NewPCG(16, 3))
	var p offsets
	var all []int
	for v := 0; len(all) < 10000; v += r.IntN(1 << 30) {
		p.add(v)
		all = append(all, v)
	}
	for i, v := range all {
		if p.at(i) != v {
			t.Fatalf("offset %d: %d, want %d", i, p.at(i), v)
		}
	}
}

// TestHasRunOnlyAtTermStarts: a run is found where its terms start, not
// where its bytes occur inside a longer term's: term 128 is written 0x81
// 0x01, whose second byte is term 0's.
func TestHasRunOnlyAtTermStarts(t *testing.T) {
	var s sequences
	s.off.add(0)
	for _, doc := range [][]int32{{128, 4}, {7, 0, 4}, {0, 4}, {128, 4, 0, 4}, {}} {
		for _, id := range doc {
			s.appendID(id)
		}
		s.endDoc()
	}
	run := s.encode(nil, []int32{0, 4})
	for d, want := range []bool{false, true, true, true, false} {
		if got := s.hasRun(int32(d), run); got != want {
			t.Errorf("doc %d %v: hasRun %v, want %v", d, s.of(int32(d), nil), got, want)
		}
	}
}
