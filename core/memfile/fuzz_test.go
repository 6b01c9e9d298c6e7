package memfile

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// This file holds an independent, deliberately naive reading of spec §2 and
// holds Parse to it. Nothing here calls the package's own helpers (text.IsJSSpace,
// TrimJS, trimSpan, splitSlug): the whitespace set, the trim and both regular
// expressions are written out again from the spec text.

// refJSSpace is JavaScript's WhiteSpace + LineTerminator set, which is both
// what String.prototype.trim() strips and what the regexp class \s matches:
// TAB, LF, VT, FF, CR, SP, NBSP, U+1680, U+2000–U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000, U+FEFF. (U+0085 and U+180E are NOT in it.)
const refJSSpaceClass = `\t\n\x0B\x0C\r \x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

var (
	// JS /^- (.+)/ per line: `.` is anything but LF, CR, U+2028, U+2029.
	refEntryRE = regexp.MustCompile(`^- ([^\n\r\x{2028}\x{2029}]+)`)
	// JS /^\[([^\]]+)\]\s+(.+)$/ on the trimmed tail.
	refSlugRE = regexp.MustCompile(`^\[([^\]]+)\][` + refJSSpaceClass + `]+([^\n\r\x{2028}\x{2029}]+)$`)
	// One JS whitespace character, anchored, for the hand-written trim.
	refSpaceRE = regexp.MustCompile(`^[` + refJSSpaceClass + `]$`)
)

func refIsSpace(r rune) bool {
	if r == utf8.RuneError {
		return false // U+FFFD (or an invalid byte standing for it) is not whitespace
	}
	return refSpaceRE.MatchString(string(r))
}

// refTrim is JS trim() done by hand, byte-exact on invalid UTF-8.
func refTrim(s string) string {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if !refIsSpace(r) {
			break
		}
		s = s[n:]
	}
	for len(s) > 0 {
		r, n := utf8.DecodeLastRuneInString(s)
		if !refIsSpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

type refEntry struct {
	Line    int
	HasSlug bool
	Slug    string
	Content string
}

// refParse is spec §2 read literally: split on "\n", match each line, trim,
// try the slug form.
func refParse(src []byte) []refEntry {
	var out []refEntry
	for i, line := range strings.Split(string(src), "\n") {
		m := refEntryRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		tail := refTrim(m[1])
		e := refEntry{Line: i + 1, Content: tail}
		if s := refSlugRE.FindStringSubmatch(tail); s != nil {
			e.HasSlug, e.Slug, e.Content = true, s[1], s[2]
		}
		out = append(out, e)
	}
	return out
}

func compareWithReference(t *testing.T, src []byte, doc *Document) {
	t.Helper()
	ref := refParse(src)
	if len(ref) != len(doc.Entries) {
		t.Errorf("Parse found %d entries, reference %d\nsrc=%q", len(doc.Entries), len(ref), src)
	}
	for i := 0; i < min(len(ref), len(doc.Entries)); i++ {
		g, w := doc.Entries[i], ref[i]
		if g.Line != w.Line || g.HasSlug != w.HasSlug || g.Slug != w.Slug || g.Content != w.Content {
			t.Errorf("entry %d: Parse line %d slug(%v)=%q content=%q; reference line %d slug(%v)=%q content=%q\nsrc=%q",
				i, g.Line, g.HasSlug, g.Slug, g.Content, w.Line, w.HasSlug, w.Slug, w.Content, src)
		}
	}
}

// runeBoundaries returns the offsets in [start, end] at which a Go decoder
// stepping through src[start:end] stops (every invalid byte is its own step).
func runeBoundaries(src []byte, start, end int) map[int]bool {
	b := map[int]bool{start: true}
	for i := start; i < end; {
		_, n := utf8.DecodeRune(src[i:end])
		i += n
		b[i] = true
	}
	return b
}

// checkInvariants holds the document model to its documented shape.
func checkInvariants(t *testing.T, d *Document) {
	t.Helper()
	src := d.Src
	if len(d.Lines) != bytes.Count(src, []byte{'\n'})+1 {
		t.Fatalf("%d lines for %d LFs", len(d.Lines), bytes.Count(src, []byte{'\n'}))
	}
	// the list is sized once: a bound below the entries would grow it by
	// copies, one above them by lines that cannot be entries leaves room
	if cap(d.Entries) != maxEntries(src) || len(d.Entries) > cap(d.Entries) {
		t.Fatalf("%d entries in a list of %d made for %d", len(d.Entries), cap(d.Entries), maxEntries(src))
	}
	pos, entries := 0, 0
	for i, ln := range d.Lines {
		if ln.Num != i+1 {
			t.Errorf("line %d has Num %d", i, ln.Num)
		}
		if ln.Span.Start != pos || ln.Span.End < ln.Span.Start || ln.Span.End > len(src) {
			t.Fatalf("line %d span %v does not continue at %d (len %d)", ln.Num, ln.Span, pos, len(src))
		}
		if bytes.IndexByte(src[ln.Span.Start:ln.Span.End], '\n') >= 0 {
			t.Errorf("line %d span holds an LF", ln.Num)
		}
		last := i == len(d.Lines)-1
		if ln.HasLF == last {
			t.Errorf("line %d HasLF=%v, last=%v", ln.Num, ln.HasLF, last)
		}
		if ln.HasLF && src[ln.Span.End] != '\n' {
			t.Errorf("line %d HasLF but byte %d is %q", ln.Num, ln.Span.End, src[ln.Span.End])
		}
		pos = ln.Span.End + 1
		if last && ln.Span.End != len(src) {
			t.Errorf("last line ends at %d, buffer at %d", ln.Span.End, len(src))
		}
		if int(ln.Kind) >= len(kindNames) {
			t.Errorf("line %d has unknown kind %d", ln.Num, ln.Kind)
		}
		if (ln.Kind == KindEntry) != (ln.Entry >= 0) {
			t.Errorf("line %d kind %v but Entry=%d", ln.Num, ln.Kind, ln.Entry)
		}
		if ln.Entry >= 0 {
			if ln.Entry != entries || ln.Entry >= len(d.Entries) {
				t.Fatalf("line %d points at entry %d, expected %d of %d", ln.Num, ln.Entry, entries, len(d.Entries))
			}
			entries++
		}
	}
	if entries != len(d.Entries) {
		t.Errorf("%d entry lines, %d entries", entries, len(d.Entries))
	}
	for i, e := range d.Entries {
		if e.LineIndex < 0 || e.LineIndex >= len(d.Lines) {
			t.Fatalf("entry %d LineIndex %d out of range", i, e.LineIndex)
		}
		ln := d.Lines[e.LineIndex]
		if ln.Entry != i || e.Line != ln.Num || e.LineSpan != ln.Span {
			t.Errorf("entry %d: line %d/%v vs Lines[%d] = num %d span %v entry %d", i, e.Line, e.LineSpan, e.LineIndex, ln.Num, ln.Span, ln.Entry)
		}
		ls := ln.Span
		inside := func(name string, s, outer [2]int) {
			if s[0] < outer[0] || s[1] > outer[1] || s[0] > s[1] {
				t.Errorf("entry %d (line %d): %s [%d,%d) not inside [%d,%d)", i, e.Line, name, s[0], s[1], outer[0], outer[1])
			}
		}
		line := [2]int{ls.Start + 2, ls.End}
		tail := [2]int{e.TailSpan.Start, e.TailSpan.End}
		inside("TailSpan", tail, line)
		inside("SlugSpan", [2]int{e.SlugSpan.Start, e.SlugSpan.End}, tail)
		inside("ContentSpan", [2]int{e.ContentSpan.Start, e.ContentSpan.End}, tail)
		if t.Failed() {
			return
		}
		if ls.End-ls.Start < 3 || src[ls.Start] != '-' || src[ls.Start+1] != ' ' {
			t.Errorf("entry %d: line %q does not start with \"- x\"", i, src[ls.Start:ls.End])
		}
		bounds := runeBoundaries(src, ls.Start, ls.End)
		for _, off := range []int{e.TailSpan.Start, e.TailSpan.End, e.SlugSpan.Start, e.SlugSpan.End, e.ContentSpan.Start, e.ContentSpan.End} {
			if !bounds[off] {
				t.Errorf("entry %d (line %d): offset %d is not on a character boundary", i, e.Line, off)
			}
		}
		if got := string(src[e.ContentSpan.Start:e.ContentSpan.End]); got != e.Content {
			t.Errorf("entry %d: Content %q but ContentSpan holds %q", i, e.Content, got)
		}
		if got := string(src[e.SlugSpan.Start:e.SlugSpan.End]); got != e.Slug {
			t.Errorf("entry %d: Slug %q but SlugSpan holds %q", i, e.Slug, got)
		}
		if e.ContentSpan.End != e.TailSpan.End {
			t.Errorf("entry %d: content does not end the tail", i)
		}
		if e.HasSlug {
			if e.SlugSpan.Start != e.TailSpan.Start+1 || src[e.TailSpan.Start] != '[' || src[e.SlugSpan.End] != ']' {
				t.Errorf("entry %d: slug span %v not bracketed in tail %v", i, e.SlugSpan, e.TailSpan)
			}
			if e.Slug == "" || e.ContentSpan.Start <= e.SlugSpan.End+1 {
				t.Errorf("entry %d: empty slug or no whitespace before content", i)
			}
		} else if e.Slug != "" || e.SlugSpan.Len() != 0 || e.ContentSpan != e.TailSpan {
			t.Errorf("entry %d: no slug but SlugSpan %v / ContentSpan %v / Slug %q", i, e.SlugSpan, e.ContentSpan, e.Slug)
		}
	}
}

// fixtureSeeds returns the bytes of every testdata/parse/*.md fixture.
func fixtureSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureDir, "*.md"))
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, b := range fixtureSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc := Parse(src)
		if got := doc.Render(); !bytes.Equal(got, src) {
			t.Fatalf("Render(Parse(x)) != x\n got %q\nwant %q", got, src)
		}
		if !bytes.Equal(doc.Src, src) {
			t.Fatalf("Document.Src changed")
		}
		checkInvariants(t, doc)
		compareWithReference(t, src, doc)
		// TrimJS against the hand-written trim on each whole line.
		for i := range doc.Lines {
			line := string(doc.LineText(i))
			if got, want := TrimJS(line), refTrim(line); got != want {
				t.Errorf("TrimJS(%q) = %q, reference %q", line, got, want)
			}
		}
	})
}

// TestReferenceSelfCheck pins the reference reading itself to spec examples,
// so that a wrong reference cannot agree with a wrong parser.
func TestReferenceSelfCheck(t *testing.T) {
	got := refParse([]byte("\ufeff- hidden\n- [x]  two spaces\n- [s]x\n- a\rb\n- \n-   \n- [ spaced ] y\n- \u0085z\u0085"))
	want := []refEntry{
		{Line: 2, HasSlug: true, Slug: "x", Content: "two spaces"},
		{Line: 3, Content: "[s]x"},
		{Line: 4, Content: "a"},
		{Line: 6, Content: ""},
		{Line: 7, HasSlug: true, Slug: " spaced ", Content: "y"},
		{Line: 8, Content: "\u0085z\u0085"},
	}
	if len(got) != len(want) {
		t.Fatalf("reference: %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("reference entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
