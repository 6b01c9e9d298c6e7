package text

import (
	"strings"
	"testing"
)

// pos is shorthand for a Position.
func pos(line, col int) Position { return Position{Line: line, Col: col} }

// TestPositionOffset covers both directions on one table: every row is an
// offset and the position it must map to; ok=false rows must fail in the
// direction they name.
func TestPositionOffset(t *testing.T) {
	tests := []struct {
		name string
		src  string
		off  int
		p    Position
	}{
		{"ascii start", "abc\ndef", 0, pos(0, 0)},
		{"ascii mid", "abc\ndef", 2, pos(0, 2)},
		{"ascii end of line", "abc\ndef", 3, pos(0, 3)},
		{"ascii next line", "abc\ndef", 4, pos(1, 0)},
		{"ascii last line no newline end", "abc\ndef", 7, pos(1, 3)},
		{"emoji before", "a😀b", 1, pos(0, 1)},
		{"emoji after (2 units)", "a😀b", 5, pos(0, 3)},
		{"emoji end", "a😀b", 6, pos(0, 4)},
		{"two emoji", "😀😀", 8, pos(0, 4)},
		{"cjk", "用户名", 3, pos(0, 1)},
		{"cjk end", "用户名", 9, pos(0, 3)},
		{"combining mark counts as its own unit", "e\u0301x", 3, pos(0, 2)},
		{"combining mark base", "e\u0301x", 1, pos(0, 1)},
		{"two-byte char", "é\nb", 2, pos(0, 1)},
		{"crlf before cr", "ab\r\ncd", 2, pos(0, 2)},
		{"crlf next line", "ab\r\ncd", 4, pos(1, 0)},
		{"crlf end", "ab\r\ncd\r\n", 8, pos(2, 0)},
		{"lone cr ends a line", "a\rb", 1, pos(0, 1)},
		{"lone cr next line", "a\rb", 2, pos(1, 0)},
		{"cr cr lf", "\r\r\n", 1, pos(1, 0)},
		{"cr cr lf last", "\r\r\n", 3, pos(2, 0)},
		{"lf cr", "\n\r", 1, pos(1, 0)},
		{"lf cr end", "\n\r", 2, pos(2, 0)},
		{"trailing newline gives empty last line", "a\n", 2, pos(1, 0)},
		{"empty buffer", "", 0, pos(0, 0)},
		{"invalid byte is one unit", "\xff\xfeb", 2, pos(0, 2)},
		{"truncated sequence bytes are one unit each", "\xe2\x82x", 1, pos(0, 1)},
		{"emoji on second crlf line", "x\r\n😀y", 7, pos(1, 2)},
		{"bom is one unit", "\ufeff- x", 3, pos(0, 1)},
		{"u2028 is not a line break (LSP splits on CR/LF only)", "a\u2028b", 4, pos(0, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := NewIndex([]byte(tt.src))
			got, err := ix.Position(tt.off)
			if err != nil || got != tt.p {
				t.Errorf("Position(%d) = %v, %v; want %v", tt.off, got, err, tt.p)
			}
			off, err := ix.Offset(tt.p)
			if err != nil || off != tt.off {
				t.Errorf("Offset(%v) = %d, %v; want %d", tt.p, off, err, tt.off)
			}
		})
	}
}

func TestPositionErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		off  int
	}{
		{"negative", "abc", -1},
		{"past end", "abc", 4},
		{"past end of empty", "", 1},
		{"inside crlf", "ab\r\ncd", 3},
		{"inside final crlf", "ab\r\n", 3},
		{"inside emoji 1", "a😀b", 2},
		{"inside emoji 2", "a😀b", 3},
		{"inside emoji 3", "a😀b", 4},
		{"inside cjk", "用户", 1},
		{"inside cjk 2", "用户", 5},
		{"inside two-byte", "é", 1},
		{"inside combining mark", "e\u0301", 2},
		{"inside crlf after cr line", "\r\r\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p, err := NewIndex([]byte(tt.src)).Position(tt.off); err == nil {
				t.Errorf("Position(%d) = %v, want an error", tt.off, p)
			}
		})
	}
}

func TestOffsetErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		p    Position
	}{
		{"negative line", "abc", pos(-1, 0)},
		{"negative col", "abc", pos(0, -1)},
		{"line past end", "abc", pos(1, 0)},
		{"line past end after newline", "abc\n", pos(2, 0)},
		{"col past end", "abc", pos(0, 4)},
		{"col past end of crlf line (onto the CR)", "ab\r\ncd", pos(0, 3)},
		{"col past end of crlf line (onto the LF)", "ab\r\ncd", pos(0, 4)},
		{"col past end of lone-cr line", "a\rb", pos(0, 2)},
		{"col past end of lf line", "a\nb", pos(0, 2)},
		{"splits surrogate pair", "a😀b", pos(0, 2)},
		{"splits second surrogate pair", "😀😀", pos(0, 3)},
		{"col past end of empty buffer", "", pos(0, 1)},
		{"line 1 of empty buffer", "", pos(1, 0)},
		{"col past last line without newline", "a\nbc", pos(1, 3)},
		{"col past cjk", "用户", pos(0, 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if off, err := NewIndex([]byte(tt.src)).Offset(tt.p); err == nil {
				t.Errorf("Offset(%v) = %d, want an error", tt.p, off)
			}
		})
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		src    string
		starts []int
		ends   []int
	}{
		{"", []int{0}, []int{0}},
		{"a", []int{0}, []int{1}},
		{"a\n", []int{0, 2}, []int{1, 2}},
		{"a\r\nb", []int{0, 3}, []int{1, 4}},
		{"a\rb", []int{0, 2}, []int{1, 3}},
		{"\r\r\n\n", []int{0, 1, 3, 4}, []int{0, 1, 3, 4}},
		{"\n\r\n\r", []int{0, 1, 3, 4}, []int{0, 1, 3, 4}},
		{"😀\r\n用", []int{0, 6}, []int{4, 9}},
	}
	for _, tt := range tests {
		ix := NewIndex([]byte(tt.src))
		if ix.LineCount() != len(tt.starts) {
			t.Errorf("%q: LineCount = %d, want %d", tt.src, ix.LineCount(), len(tt.starts))
			continue
		}
		for i := range tt.starts {
			if ix.LineStart(i) != tt.starts[i] || ix.LineEnd(i) != tt.ends[i] {
				t.Errorf("%q line %d: [%d,%d), want [%d,%d)", tt.src, i, ix.LineStart(i), ix.LineEnd(i), tt.starts[i], tt.ends[i])
			}
		}
	}
}

func TestUTF16Len(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"😀", 2},
		{"a😀b", 4},
		{"用户", 2},
		{"e\u0301", 2},
		{"é", 1},
		{"\uffff", 1},
		{"\U00010000", 2},
		{"\U0010ffff", 2},
		{"\ufeff", 1},
		{"\xff", 1},
		{"\xe2\x82", 2},
		{"\xed\xa0\x80", 3}, // encoded surrogate: three invalid bytes
		{"👍🏽", 4},           // emoji + skin-tone modifier
		{"🇫🇷", 4},           // two regional indicators
		{strings.Repeat("x", 512), 512},
	}
	for _, tt := range tests {
		if got := UTF16Len(tt.s); got != tt.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestSpanAndPositionHelpers(t *testing.T) {
	if (Span{Start: 3, End: 7}).Len() != 4 {
		t.Error("Span.Len")
	}
	if pos(2, 5).String() != "2:5" {
		t.Errorf("Position.String = %q", pos(2, 5).String())
	}
}

func TestIndexLine(t *testing.T) {
	ix := NewIndex([]byte("ab\ncd\r\n\nef"))
	for off, want := range map[int]int{0: 0, 2: 0, 3: 1, 5: 1, 6: 1, 7: 2, 8: 3, 10: 3, 11: 3} {
		if got := ix.Line(off); got != want {
			t.Errorf("Line(%d) = %d, want %d", off, got, want)
		}
	}
}
