package memfile

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestExtendChainMatchesParse extends each parse from the one before, as a
// long-lived process does after its stores (mostly appends, now and then
// another change), and checks after every step that each document of the
// chain, the earlier ones included, still equals a fresh parse of its own
// bytes: a shared array of entries must never show one document's entries
// to another.
func TestExtendChainMatchesParse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		src := randomDoc(r)
		docs := []*Document{Parse([]byte(src))}
		srcs := []string{src}
		for range 30 {
			if r.IntN(4) > 0 {
				src += reparseLines[r.IntN(len(reparseLines))] + "\n"
			} else {
				src = changed(r, src)
			}
			d := Extend(docs[len(docs)-1], []byte(src))
			docs, srcs = append(docs, d), append(srcs, src)
			for i, d := range docs {
				if want := Parse([]byte(srcs[i])); !reflect.DeepEqual(d, want) {
					t.Fatalf("document %d of the chain, %q:\n%+v\nParse:\n%+v", i, srcs[i], d, want)
				}
			}
		}
	}
}

// FuzzExtend: Extend is Parse, and leaves the document it started from as
// it was.
func FuzzExtend(f *testing.F) {
	f.Add("# D\n\n- a.\n", "# D\n\n- a.\n- [b] b.\n")
	f.Add("- a.\n```\n", "- a.\n```\n- b.\n")
	f.Fuzz(func(t *testing.T, a, b string) { checkParseFrom(t, "Extend", Extend, a, b) })
}
