package search

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestDocSetMatchesMapOfLists: a docSet answers as the map of lists it
// replaced, for keys of one doc, of several, and added twice by one doc.
func TestDocSetMatchesMapOfLists(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	s, want := newDocSet(), map[string][]int32{}
	for d := range int32(3000) {
		for range r.IntN(4) {
			k := "k" + strconv.Itoa(r.IntN(2000))
			s.add([]byte(k), d)
			if l := want[k]; len(l) == 0 || l[len(l)-1] != d {
				want[k] = append(l, d)
			}
		}
	}
	var buf [1]int32
	for i := range 2100 {
		k := "k" + strconv.Itoa(i)
		if got := s.docs(k, &buf); !slices.Equal(got, want[k]) {
			t.Fatalf("%s: %v, want %v", k, got, want[k])
		}
	}
	if len(s.lists) == 0 || len(s.lists) == len(want) {
		t.Fatalf("%d lists for %d keys: the test should hold keys of one doc and of several", len(s.lists), len(want))
	}
}

// TestFrozenDocSetAnswersAsBuilt: a docSet moved into its sorted keys
// (freeze) answers every key, present or not, below, between and above
// the keys, as it did from its map, and lists the same keys; so does an
// empty one.
func TestFrozenDocSetAnswersAsBuilt(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 4))
	built, frozen, empty := newDocSet(), newDocSet(), newDocSet()
	for d := range int32(2000) {
		for range r.IntN(3) {
			k := []byte("k" + strconv.Itoa(r.IntN(1500)))
			built.add(k, d)
			frozen.add(k, d)
		}
	}
	frozen.freeze()
	empty.freeze()
	if frozen.one != nil || frozen.keys.len() != len(built.one) {
		t.Fatalf("frozen: %d keys, want %d and no map", frozen.keys.len(), len(built.one))
	}
	if !slices.Equal(frozen.sortedKeys(), built.sortedKeys()) {
		t.Fatal("frozen and built sets list different keys")
	}
	var b1, b2 [1]int32
	for _, k := range append([]string{"", "a", "k", "k0", "k9999", "z"}, built.sortedKeys()...) {
		if got, want := frozen.docs(k, &b1), built.docs(k, &b2); !slices.Equal(got, want) {
			t.Fatalf("%q: %v, want %v", k, got, want)
		}
		if got := empty.docs(k, &b1); got != nil {
			t.Fatalf("empty set: %q gives %v", k, got)
		}
	}
}
