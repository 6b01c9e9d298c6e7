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

// TestExcerptHoldsTheEntriesGiven: an excerpt of some entries of a file
// holds them as Parse does (their lines and offsets the file's), in the order
// given, each on its line, and nothing else.
func TestExcerptHoldsTheEntriesGiven(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 15))
	pieces := []string{"- ", "[slug] ", "text", " ", "\n", "\r\n", "- entry one\n", "# H\n", "é", "\u2028"}
	for range 5000 {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := []byte(b.String())
		doc := Parse(src)
		if len(doc.Entries) == 0 {
			continue
		}
		var given []Excerpted
		for i, e := range doc.Entries {
			if r.IntN(3) == 0 {
				given = append(given, Excerpted{Entry: i, Start: e.LineSpan.Start, Line: e.Line, Bytes: src[e.LineSpan.Start:e.LineSpan.End]})
			}
		}
		x, ok := Excerpt(given, len(doc.Entries), len(doc.Lines))
		if !ok {
			t.Fatalf("%q: no excerpt", src)
		}
		if len(x.Entries) != len(given) || len(x.Lines) != len(given) || len(x.Src) != 0 {
			t.Fatalf("%q: %d entries, %d lines and %d bytes excerpted of %d entries given", src, len(x.Entries), len(x.Lines), len(x.Src), len(given))
		}
		for i, g := range given {
			want := doc.Entries[g.Entry]
			want.LineIndex = i
			if !reflect.DeepEqual(x.Entries[i], want) {
				t.Fatalf("%q: entry %d excerpted as %+v, parsed as %+v", src, g.Entry, x.Entries[i], doc.Entries[g.Entry])
			}
			if ln, w := x.Lines[i], doc.Lines[doc.Entries[g.Entry].LineIndex]; ln.Num != w.Num || ln.Span != w.Span || ln.Kind != w.Kind || ln.Entry != i {
				t.Fatalf("%q: line %d excerpted as %+v, parsed as %+v", src, w.Num, ln, w)
			}
		}
	}
	if _, ok := Excerpt([]Excerpted{{Entry: 0, Line: 1, Bytes: []byte("# not an entry")}}, 1, 1); ok {
		t.Error("a line that is no entry was excerpted as one")
	}
}
