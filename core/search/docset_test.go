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
