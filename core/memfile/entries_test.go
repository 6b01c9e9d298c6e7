package memfile

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestEntriesMatchesParse: Entries yields exactly Parse's entries, in
// order, on random files made of the pieces the grammar turns on (list
// markers, slugs, fences, CR, Unicode line and space separators, BOM).
func TestEntriesMatchesParse(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 8))
	pieces := []string{"- ", "-", "[slug] ", "[a b]", "[]", "]", "text", " ", "\t", "\n", "\r\n", "\r", "\u2028", "\u00a0",
		"```\n", "# H\n", "* x\n", "1. y\n", "\ufeff", "é", "  - indented\n"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(20) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := []byte(b.String())
		var got []Entry
		Entries(src, func(e Entry) { got = append(got, e) })
		if want := Parse(src).Entries; !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
			t.Fatalf("%q:\nEntries %+v\n  Parse %+v", src, got, want)
		}
		// Each entry read again from its line alone is the same entry.
		for _, e := range got {
			again, ok := EntryOfLine(src[e.LineSpan.Start:e.LineSpan.End], e.LineSpan.Start, e.Line)
			if !ok || !reflect.DeepEqual(again, e) {
				t.Fatalf("%q: line %d alone reads as %+v (%v), not %+v", src, e.Line, again, ok, e)
			}
		}
	}
}
