package text

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// Position is an LSP-style position: zero-based line, column in UTF-16 code units.
type Position struct {
	Line int
	Col  int
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Span is a half-open byte range [Start, End).
type Span struct {
	Start int
	End   int
}

// Len is the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Index answers position questions about one immutable byte buffer.
type Index struct {
	src []byte
	// lineStarts[i] is the byte offset where line i begins.
	lineStarts []int
}

// NewIndex scans src once for line starts.
func NewIndex(src []byte) *Index {
	starts := make([]int, 1, 1+len(src)/40)
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return &Index{src: src, lineStarts: starts}
}

// LineCount is the number of lines; a buffer ending in a line break has an
// empty last line, as LSP counts them.
func (ix *Index) LineCount() int { return len(ix.lineStarts) }

// Line is the line that holds byte offset off (clamped to the buffer).
func (ix *Index) Line(off int) int {
	return max(sort.SearchInts(ix.lineStarts, off+1)-1, 0)
}

// LineStart is the byte offset at which a line begins.
func (ix *Index) LineStart(line int) int { return ix.lineStarts[line] }

// LineEnd is the byte offset of the line's terminator (or of the end of the buffer).
func (ix *Index) LineEnd(line int) int {
	end := len(ix.src)
	if line+1 < len(ix.lineStarts) {
		end = ix.lineStarts[line+1]
		if end > 0 && ix.src[end-1] == '\n' {
			end--
		}
		if end > ix.lineStarts[line] && ix.src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// Position converts a byte offset to a position. The offset must lie on a
// character boundary and not inside a CRLF pair.
func (ix *Index) Position(off int) (Position, error) {
	if off < 0 || off > len(ix.src) {
		return Position{}, fmt.Errorf("offset %d is outside the document (0..%d)", off, len(ix.src))
	}
	line := sort.SearchInts(ix.lineStarts, off+1) - 1
	start, end := ix.lineStarts[line], ix.LineEnd(line)
	if off > end {
		return Position{}, fmt.Errorf("offset %d falls inside the line break of line %d", off, line)
	}
	col := 0
	for i := start; i < off; {
		if ix.src[i] < utf8.RuneSelf {
			// one UTF-16 unit, without decoding: a server converts the
			// ends of 13,000 diagnostics a keystroke
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRune(ix.src[i:])
		if i+size > off {
			return Position{}, fmt.Errorf("offset %d falls inside a multi-byte character", off)
		}
		col += runeUTF16(r, size)
		i += size
	}
	return Position{Line: line, Col: col}, nil
}

// Offset converts a position to a byte offset. A line past the end, a column
// past the end of its line, or a column between the two halves of a surrogate
// pair is an error: callers must never apply an edit somewhere it was not meant.
func (ix *Index) Offset(p Position) (int, error) {
	if p.Line < 0 || p.Line >= len(ix.lineStarts) || p.Col < 0 {
		return 0, fmt.Errorf("position %s is outside the document (%d lines)", p, len(ix.lineStarts))
	}
	start, end := ix.lineStarts[p.Line], ix.LineEnd(p.Line)
	col := 0
	i := start
	for i < end && col < p.Col {
		r, size := utf8.DecodeRune(ix.src[i:])
		col += runeUTF16(r, size)
		i += size
	}
	if col != p.Col {
		if col > p.Col {
			return 0, fmt.Errorf("position %s splits a surrogate pair", p)
		}
		return 0, fmt.Errorf("position %s is past the end of line %d (%d UTF-16 units)", p, p.Line, col)
	}
	return i, nil
}

// runeUTF16 is how many UTF-16 units a decoded rune takes; an invalid byte
// (size 1, RuneError) takes one, like the U+FFFD a decoder would put there.
func runeUTF16(r rune, size int) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// UTF16Len is the length of s in UTF-16 code units, which is what JavaScript's
// String.length reports and what HackLM's brevity score measures.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeUTF16(r, size)
		i += size
	}
	return n
}
