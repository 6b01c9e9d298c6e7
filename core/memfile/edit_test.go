package memfile

import (
	"testing"

	"github.com/memory-lsp/memory-lsp/core/text"
)

func TestDeleteLines(t *testing.T) {
	tests := []struct {
		src   string
		lines []int
		want  string
	}{
		{"a\nb\nc\n", []int{1}, "a\nc\n"},
		{"a\nb\nc", []int{2}, "a\nb"},
		{"a\r\nb\r\nc", []int{2}, "a\r\nb"},
		{"a\nb\nc", []int{1, 2}, "a"},
		{"a\nb\nc", []int{0, 2}, "b"},
		{"a", []int{0}, ""},
		{"a\nb", []int{0, 1}, ""},
		{"a\nb\nc\nd\n", []int{0, 1, 3}, "c\n"},
	}
	for _, tt := range tests {
		d := Parse([]byte(tt.src))
		got, err := text.Apply(d.Src, d.DeleteLines(tt.lines))
		if err != nil || string(got) != tt.want {
			t.Errorf("DeleteLines(%q, %v) = %q, %v; want %q", tt.src, tt.lines, got, err, tt.want)
		}
	}
}

func TestReplaceLineKeepsEnding(t *testing.T) {
	d := Parse([]byte("a\r\nb\nc"))
	for i, want := range []string{"X\r\nb\nc", "a\r\nX\nc", "a\r\nb\nX"} {
		got, err := text.Apply(d.Src, []text.Edit{d.ReplaceLine(i, "X")})
		if err != nil || string(got) != want {
			t.Errorf("ReplaceLine(%d) = %q, %v; want %q", i, got, err, want)
		}
	}
}

func TestEOL(t *testing.T) {
	tests := map[string]string{"": "\n", "a\nb\n": "\n", "a\r\nb\r\nc\n": "\r\n", "a\r\nb\n": "\n"}
	for src, want := range tests {
		if got := Parse([]byte(src)).EOL(); got != want {
			t.Errorf("EOL(%q) = %q, want %q", src, got, want)
		}
	}
}
