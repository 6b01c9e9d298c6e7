package memfile

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Kind says what a line is, as far as the memory format is concerned.
type Kind uint8

const (
	// KindEntry is a line HackLM reads as an entry (its content may be empty: `-   `).
	KindEntry Kind = iota
	// KindBlank is empty or whitespace only.
	KindBlank
	// KindHeading starts (after whitespace) with '#'.
	KindHeading
	// KindBareDash is `-` or `- ` with nothing after it: HackLM ignores it.
	KindBareDash
	// KindBullet is another list marker at column 0 (`* x`, `+ x`, `-x`, `-<TAB>x`, `1. x`).
	KindBullet
	// KindIndented is a list item indented by whitespace: HackLM never reads it.
	KindIndented
	// KindFence opens or closes a fenced code block.
	KindFence
	// KindCode is inside a fenced code block.
	KindCode
	// KindBoilerplate is HackLM's own "Memories stored by …" header line.
	KindBoilerplate
	// KindProse is any other text.
	KindProse
)

var kindNames = [...]string{"entry", "blank", "heading", "bare-dash", "bullet", "indented", "fence", "code", "boilerplate", "prose"}

func (k Kind) String() string { return kindNames[k] }

// Line is one LF-separated line.
type Line struct {
	// Num is the 1-based line number in HackLM's LF-only numbering.
	Num int
	// Span covers the line without its LF (a CRLF line's CR is inside it).
	Span text.Span
	// HasLF is false only for a last line with no final newline.
	HasLF bool
	Kind  Kind
	// Entry indexes Document.Entries for KindEntry lines, else -1.
	Entry int
}

// Entry is one memory entry as HackLM reads it.
type Entry struct {
	// Line is the 1-based line number (HackLM's lineNumber).
	Line int
	// LineIndex indexes Document.Lines.
	LineIndex int
	// HasSlug distinguishes "no slug" from an (impossible) empty slug.
	HasSlug bool
	// Slug is the text between the brackets, verbatim (may hold spaces or capitals).
	Slug string
	// Content is what HackLM stores and compares; never nil, possibly empty.
	Content string
	// LineSpan is the whole line without its LF.
	LineSpan text.Span
	// TailSpan is the trimmed text after "- " (slug and content together).
	TailSpan text.Span
	// SlugSpan is the slug between the brackets (empty span when HasSlug is false).
	SlugSpan text.Span
	// ContentSpan is the content.
	ContentSpan text.Span
}

// Document is a parsed memory file. Src is the file's bytes, unchanged, and
// never written afterwards, by the parse or by anyone holding the Document
// (a change is a new slice and a new parse): readers may view it as a
// string without copying it, and Parse does, for its entries' Slug and
// Content.
type Document struct {
	Src     []byte
	Lines   []Line
	Entries []Entry
}

// Parse reads src once. It never fails: every byte sequence is some document.
func Parse(src []byte) *Document {
	d := &Document{Src: src}
	d.Lines = make([]Line, 0, bytes.Count(src, []byte{'\n'})+1)
	d.Entries = make([]Entry, 0, maxEntries(src))
	view, inFence := viewOf(src), false
	eachLine(src, func(num int, span text.Span, hasLF bool) {
		ln := Line{Num: num, Span: span, HasLF: hasLF, Entry: -1}
		if e, ok := parseEntry(src, view, span); ok {
			e.Line, e.LineIndex = num, len(d.Lines)
			ln.Kind, ln.Entry = KindEntry, len(d.Entries)
			d.Entries = append(d.Entries, e)
		} else {
			ln.Kind = classify(src[span.Start:span.End], &inFence)
		}
		d.Lines = append(d.Lines, ln)
	})
	return d
}

// viewOf is src as a string, without a copy: for the strings of the
// entries of a parse of src, which is never written (see Document). Held
// by a long-lived process, a copy of each entry's content doubled the
// bytes a file's parse keeps, and the views keep nothing the Document does
// not: its Src.
func viewOf(src []byte) string {
	if len(src) == 0 {
		return ""
	}
	return unsafe.String(&src[0], len(src))
}

// maxEntries bounds the entries of the lines of src: an entry's line starts
// with "- ". The bound is exact for a file of entries, where a guess would
// grow the list by copies (a fifth of it left unused, and as much again
// thrown away, at 10,000 entries) and a bound by lines would leave the
// room of every blank or heading line.
func maxEntries(src []byte) int {
	n := bytes.Count(src, []byte("\n- "))
	if bytes.HasPrefix(src, []byte("- ")) {
		n++
	}
	return n
}

// Entries calls fn with each entry of src, in order, exactly as Parse finds
// them, without building a Document: for a reader that wants the entries
// alone and once (a one-shot query), the lines are neither classified nor
// kept.
func Entries(src []byte, fn func(Entry)) {
	eachLine(src, func(num int, span text.Span, _ bool) {
		if e, ok := parseEntry(src, "", span); ok {
			e.Line, e.LineIndex = num, num-1
			fn(e)
		}
	})
}

// EntryOfLine is the entry Parse reads in line, a file's line numbered
// num (1-based) that starts at byte start of it, without its LF; false when
// the line holds none. Whether a line is an entry and what it holds depend
// on that line alone, so a reader that knows where an entry is (an index)
// reads its line and nothing else of the file.
func EntryOfLine(line []byte, start, num int) (Entry, bool) {
	e, ok := parseEntry(line, "", text.Span{Start: 0, End: len(line)})
	if !ok {
		return Entry{}, false
	}
	for _, sp := range []*text.Span{&e.LineSpan, &e.TailSpan, &e.SlugSpan, &e.ContentSpan} {
		sp.Start += start
		sp.End += start
	}
	e.Line, e.LineIndex = num, num-1
	return e, true
}

// eachLine calls fn with each LF-separated line of src: its 1-based
// number, its span without the LF, and whether an LF ends it.
func eachLine(src []byte, fn func(num int, span text.Span, hasLF bool)) {
	for start, num := 0, 1; ; num++ {
		end := bytes.IndexByte(src[start:], '\n')
		hasLF := end >= 0
		if hasLF {
			end += start
		} else {
			end = len(src)
		}
		fn(num, text.Span{Start: start, End: end}, hasLF)
		if !hasLF {
			return
		}
		start = end + 1
	}
}

// parseEntry applies HackLM's entry grammar to one line. Its strings are
// views of view when it is src as a string (viewOf), else copies: a caller
// that may reuse src (Entries, EntryOfLine) passes "".
func parseEntry(src []byte, view string, line text.Span) (Entry, bool) {
	b := src[line.Start:line.End]
	if len(b) < 3 || b[0] != '-' || b[1] != ' ' {
		return Entry{}, false
	}
	tailStart := line.Start + 2
	tailEnd := tailStart
	for tailEnd < line.End {
		if c := src[tailEnd]; c < utf8.RuneSelf { // the common case, without decoding
			if isJSLineTerminator(rune(c)) {
				break
			}
			tailEnd++
			continue
		}
		r, size := utf8.DecodeRune(src[tailEnd:line.End])
		if isJSLineTerminator(r) {
			break
		}
		tailEnd += size
	}
	if tailEnd == tailStart {
		return Entry{}, false // "- " followed directly by a line terminator
	}
	ts, te := trimSpan(src, tailStart, tailEnd)
	e := Entry{
		LineSpan:    line,
		TailSpan:    text.Span{Start: ts, End: te},
		SlugSpan:    text.Span{Start: ts, End: ts},
		ContentSpan: text.Span{Start: ts, End: te},
	}
	if slug, rest, ok := splitSlug(src, ts, te); ok {
		e.HasSlug = true
		e.SlugSpan = slug
		e.ContentSpan = rest
		e.Slug = cut(src, view, slug)
	}
	e.Content = cut(src, view, e.ContentSpan)
	return e, true
}

// cut is src[sp] as a string: a view of view when it is src as a string,
// else a copy.
func cut(src []byte, view string, sp text.Span) string {
	if view != "" {
		return view[sp.Start:sp.End]
	}
	return string(src[sp.Start:sp.End])
}

// splitSlug tests `[` + one or more non-`]` + `]` + whitespace run + at least
// one more character, on the trimmed tail [ts, te).
func splitSlug(src []byte, ts, te int) (slug, rest text.Span, ok bool) {
	if te-ts < 4 || src[ts] != '[' {
		return
	}
	close := bytes.IndexByte(src[ts+1:te], ']')
	if close <= 0 {
		return // no `]`, or `[]`
	}
	close += ts + 1
	i := close + 1
	for i < te {
		r, size := utf8.DecodeRune(src[i:te])
		if !text.IsJSSpace(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		i += size
	}
	if i == close+1 || i >= te {
		return // no whitespace after `]`, or nothing after it
	}
	return text.Span{Start: ts + 1, End: close}, text.Span{Start: i, End: te}, true
}

var boilerplatePrefix = []byte("memories stored by")

// classify names a line that is not an entry. inFence carries fenced-code
// state from line to line.
func classify(b []byte, inFence *bool) Kind {
	ts, te := trimSpan(b, 0, len(b))
	t := b[ts:te]
	if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
		*inFence = !*inFence
		return KindFence
	}
	if *inFence {
		return KindCode
	}
	switch {
	case len(t) == 0:
		return KindBlank
	case b[0] == '-' && len(t) == 1:
		return KindBareDash // "-", "- ", "- \r"
	case t[0] == '#':
		return KindHeading
	case len(t) >= len(boilerplatePrefix) && bytes.EqualFold(t[:len(boilerplatePrefix)], boilerplatePrefix):
		return KindBoilerplate
	}
	marker := listMarkerLen(t)
	if ts > 0 && marker > 0 {
		return KindIndented
	}
	if ts == 0 && (marker > 0 || isDashGlued(t)) {
		return KindBullet
	}
	return KindProse
}

// listMarkerLen is the length of a Markdown list marker and the whitespace
// after it at the start of t (`- `, `* `, `+ `, `1. `, `1) `), or 0.
func listMarkerLen(t []byte) int {
	i := 0
	switch {
	case len(t) > 0 && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		i = 1
	default:
		for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(t) || (t[i] != '.' && t[i] != ')') {
			return 0
		}
		i++
	}
	j := i
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	if j == i || j == len(t) {
		return 0
	}
	return j
}

// isDashGlued is `-x`: a hyphen stuck to a word, which the writer surely meant
// as a bullet but HackLM ignores. `---` and `--flag` stay prose.
func isDashGlued(t []byte) bool {
	return len(t) >= 2 && t[0] == '-' && t[1] != '-' && t[1] != ' ' && t[1] != '\t'
}

// LineText is the bytes of a line without its LF.
func (d *Document) LineText(i int) []byte {
	s := d.Lines[i].Span
	return d.Src[s.Start:s.End]
}
