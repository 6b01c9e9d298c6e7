package similar

import (
	"reflect"
	"testing"
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
