package similar

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestExtendInPlaceLeavesEarlierKeyeds: a chain of Keyeds each extended in
// place from the one before, as a long-lived process's stores extend them,
// every one of them kept: each still holds exactly what a Keyed made at
// once of its own contents holds, however the later ones grew into the
// room behind it.
func TestExtendInPlaceLeavesEarlierKeyeds(t *testing.T) {
	g := newEntryGen(7, 60)
	var contents []string
	for range 40 {
		contents = append(contents, g.next())
	}
	chain := []*Keyed{NewKeyed(contents)}
	lens := []int{len(contents)}
	for step := range 200 {
		for range 1 + step%3 {
			contents = append(contents, g.next())
		}
		chain = append(chain, chain[len(chain)-1].ExtendInPlace(contents))
		lens = append(lens, len(contents))
	}
	for i, k := range chain {
		if want := NewKeyed(contents[:lens[i]]); !reflect.DeepEqual(k, want) {
			t.Fatalf("Keyed %d of the chain (%d contents) no longer holds what NewKeyed reads", i, lens[i])
		}
	}
}

// TestKeyedVocabularyMergesAsRead: a Keyed grown over thousands of new
// words, in place and by copy, merges its added words into new bases on the
// way; every Keyed of the chain, the earlier ones included, still reads as
// NewKeyed does (the same ids for the same words) and decides as
// DecideContents.
func TestKeyedVocabularyMergesAsRead(t *testing.T) {
	longtest.Skip(t)
	g := newEntryGen(11, 4000)
	var contents []string
	for range 20 {
		contents = append(contents, g.next())
	}
	chain := []*Keyed{NewKeyed(contents)}
	lens := []int{len(contents)}
	for step := range 600 {
		for range 1 + step%4 {
			contents = append(contents, g.next())
		}
		last := chain[len(chain)-1]
		if step%5 == 4 {
			chain = append(chain, last.Extend(contents))
		} else {
			chain = append(chain, last.ExtendInPlace(contents))
		}
		lens = append(lens, len(contents))
	}
	if k := chain[len(chain)-1]; len(k.base) == 0 || len(k.added) > len(k.base) {
		t.Fatalf("the vocabulary was never merged: %d words in base, %d added", len(k.base), len(k.added))
	}
	vocab := func(k *Keyed) map[string]uint32 {
		m := maps.Clone(k.base)
		if m == nil {
			m = map[string]uint32{}
		}
		maps.Copy(m, k.added)
		return m
	}
	for i, k := range chain {
		want := NewKeyed(contents[:lens[i]])
		if !maps.Equal(vocab(k), vocab(want)) || !slices.Equal(k.ids[:k.off[k.Len()]], want.ids) || !slices.Equal(k.off[:k.Len()+1], want.off) ||
			!slices.Equal(k.alnum[:k.Len()], want.alnum) || !slices.Equal(k.ascii[:k.Len()], want.ascii) {
			t.Fatalf("Keyed %d of the chain (%d contents) does not read as NewKeyed", i, lens[i])
		}
		if i%60 == 0 {
			for _, c := range []string{contents[lens[i]-1], g.next()} {
				nt := Analyze(c)
				wi, wv := DecideContents(nt, contents[:lens[i]], defaultTh)
				if gi, gv := DecideKeyed(nt, contents[:lens[i]], k, defaultTh); gi != wi || gv != wv {
					t.Fatalf("Keyed %d, new %q: DecideKeyed = %d %+v, DecideContents = %d %+v", i, c, gi, gv, wi, wv)
				}
			}
		}
	}
}
