package lsptest

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Position is an LSP position: zero-based line, UTF-16 column.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// R is shorthand for a range in tests.
func R(startLine, startChar, endLine, endChar int) Range {
	return Range{Position{startLine, startChar}, Position{endLine, endChar}}
}

func (r Range) String() string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

// TextEdit is an LSP TextEdit.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// URI is the file:// URI of an absolute path.
func URI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// PathOf is the path of a file:// URI.
func PathOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%q is not a file: URI", uri)
	}
	return filepath.FromSlash(u.Path), nil
}

// Offset is the byte offset of p in text. Lines end at "\n", "\r\n" or "\r"
// as the specification says; a column counts UTF-16 code units. A position
// past the end of its line, on a line that does not exist, or between the
// two halves of a surrogate pair is an error: edits from a correct server
// never need clamping.
func Offset(text string, p Position) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("negative position %d:%d", p.Line, p.Character)
	}
	i := 0
	for line := 0; line < p.Line; line++ {
		j := strings.IndexAny(text[i:], "\r\n")
		if j < 0 {
			return 0, fmt.Errorf("line %d does not exist (the text has %d)", p.Line, line+1)
		}
		i += j
		if strings.HasPrefix(text[i:], "\r\n") {
			i += 2
		} else {
			i++
		}
	}
	col := 0
	for col < p.Character {
		if i >= len(text) || text[i] == '\n' || text[i] == '\r' {
			return 0, fmt.Errorf("column %d is past the end of line %d (%d UTF-16 units)", p.Character, p.Line, col)
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		n := 1
		if r != utf8.RuneError || size > 1 {
			n = utf16.RuneLen(r)
		}
		col += n
		i += size
	}
	if col != p.Character {
		return 0, fmt.Errorf("column %d of line %d falls inside a surrogate pair", p.Character, p.Line)
	}
	return i, nil
}

// Apply applies edits that, as in a WorkspaceEdit or a TextEdit[] result,
// all refer to the original text and must not overlap.
func Apply(text string, edits []TextEdit) (string, error) {
	type span struct {
		start, end int
		new        string
		order      int
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		s, err := Offset(text, e.Range.Start)
		if err != nil {
			return "", fmt.Errorf("edit %d: start: %w", i, err)
		}
		en, err := Offset(text, e.Range.End)
		if err != nil {
			return "", fmt.Errorf("edit %d: end: %w", i, err)
		}
		if en < s {
			return "", fmt.Errorf("edit %d: range %v ends before it starts", i, e.Range)
		}
		spans[i] = span{s, en, e.NewText, i}
	}
	sort.SliceStable(spans, func(a, b int) bool { return spans[a].start < spans[b].start })
	var b strings.Builder
	last := 0
	for i, s := range spans {
		if s.start < last {
			return "", fmt.Errorf("edits %d and %d overlap", spans[i-1].order, s.order)
		}
		b.WriteString(text[last:s.start])
		b.WriteString(s.new)
		last = s.end
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// applySequential applies didChange-style changes: each relative to the
// text the previous one left.
func applySequential(text string, edits []TextEdit) (string, error) {
	for i, e := range edits {
		next, err := Apply(text, []TextEdit{e})
		if err != nil {
			return "", fmt.Errorf("change %d: %w", i, err)
		}
		text = next
	}
	return text, nil
}

// PositionAt is the position of byte offset off in text (the inverse of
// Offset), for tests that locate a range by searching the text.
func PositionAt(text string, off int) Position {
	var p Position
	for i := 0; i < off && i < len(text); {
		switch {
		case strings.HasPrefix(text[i:], "\r\n"):
			p.Line, p.Character = p.Line+1, 0
			i += 2
		case text[i] == '\n' || text[i] == '\r':
			p.Line, p.Character = p.Line+1, 0
			i++
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 {
				p.Character++
			} else {
				p.Character += utf16.RuneLen(r)
			}
			i += size
		}
	}
	return p
}
