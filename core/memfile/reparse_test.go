package memfile

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// reparseLines are the lines the random documents are made of: entries with
// and without slugs, fences that turn the lines after them into code, and
// each other kind of line, with CRLF and without.
var reparseLines = []string{
	"- Use Postgres.", "- [db] Use Postgres for the ledger.", "- [x]  y", "-   ", "- ", "-",
	"```", "~~~", "  ```go", "# Decisions", "", "   ", "* bullet", "1. item", "-glued",
	"  - indented", "Memories stored by HackLM", "prose", "- Tag releases.\r", "- café ☕",
}

func randomDoc(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(reparseLines[r.IntN(len(reparseLines))])
		b.WriteByte('\n')
	}
	if r.IntN(3) == 0 {
		b.WriteString(reparseLines[r.IntN(len(reparseLines))]) // no final LF
	}
	return b.String()
}

// changed is a with one of the changes a file goes through: a line
// appended (a store), a line replaced, inserted or deleted, a cut, bytes
// changed anywhere, or another document.
func changed(r *rand.Rand, a string) string {
	lines := strings.SplitAfter(a, "\n")
	i := r.IntN(len(lines) + 1)
	line := reparseLines[r.IntN(len(reparseLines))] + "\n"
	switch r.IntN(8) {
	case 0:
		return a + line
	case 6, 7: // a keystroke, a paste or a cut anywhere, line breaks and fences included
		at := r.IntN(len(a) + 1)
		cut := min(len(a)-at, r.IntN(3)*r.IntN(8))
		ins := []string{"", "x", "\n", "`", "```\n", "- ", line}[r.IntN(7)]
		return a[:at] + ins + a[at+cut:]
	case 1:
		if i < len(lines) {
			lines[i] = line
		}
	case 2:
		lines = append(lines[:i], append([]string{line}, lines[i:]...)...)
	case 3:
		if i < len(lines) {
			lines = append(lines[:i], lines[i+1:]...)
		}
	case 4:
		return a[:r.IntN(len(a)+1)]
	default:
		return randomDoc(r)
	}
	return strings.Join(lines, "")
}

// checkReparse checks that Reparse of b from a parse of a is Parse(b), and
// leaves the parse of a as it was.
func checkReparse(t *testing.T, a, b string) {
	t.Helper()
	old := Parse([]byte(a))
	got, want := Reparse(old, []byte(b)), Parse([]byte(b))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Reparse(Parse(%q), %q) =\n%+v\nParse = \n%+v", a, b, got, want)
	}
	// Parse's room is the bound by "- " lines; Reparse's counts only the
	// lines it reads, the kept ones by their entries.
	if got != old && cap(got.Entries) > cap(want.Entries) {
		t.Fatalf("Reparse(Parse(%q), %q) made room for %d entries, Parse for %d", a, b, cap(got.Entries), cap(want.Entries))
	}
	if !reflect.DeepEqual(old, Parse([]byte(a))) {
		t.Fatalf("Reparse changed the document it started from (%q, %q)", a, b)
	}
}

func TestReparseMatchesParse(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	for range 20000 {
		a := randomDoc(r)
		checkReparse(t, a, changed(r, a))
	}
}

func TestReparseOfSameBytesIsTheDocument(t *testing.T) {
	old := Parse([]byte("# D\n\n- a.\n"))
	if got := Reparse(old, []byte("# D\n\n- a.\n")); got != old {
		t.Fatalf("a new document for the same bytes: %+v", got)
	}
}

func FuzzReparse(f *testing.F) {
	f.Add("# D\n\n- a.\n", "# D\n\n- a.\n\n- b.\n")
	f.Add("```\n- a.\n", "```\n- a.\n```\n- b.")
	f.Add("- a.\r\n- b.", "- a.\r\n- c.\n")
	f.Fuzz(func(t *testing.T, a, b string) { checkReparse(t, a, b) })
}

// TestReparseKeepsTheEnd: a change in the middle of a file reads only the
// lines around it; the entries after it are old's, with old's strings.
func TestReparseKeepsTheEnd(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "- Entry number %d.\n", i)
	}
	a := b.String()
	src := strings.Replace(a, "number 50.", "number fifty.", 1)
	old := Parse([]byte(a))
	got := Reparse(old, []byte(src))
	if !reflect.DeepEqual(got, Parse([]byte(src))) {
		t.Fatal("Reparse differs from Parse")
	}
	for _, i := range []int{10, 51, 99} {
		if unsafe.StringData(got.Entries[i].Content) != unsafe.StringData(old.Entries[i].Content) {
			t.Errorf("entry %d was read again", i)
		}
	}
	if unsafe.StringData(got.Entries[50].Content) == unsafe.StringData(old.Entries[50].Content) {
		t.Error("the changed entry kept its old text")
	}
}
