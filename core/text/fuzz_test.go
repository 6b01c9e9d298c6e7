package text

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// refLines splits src as LSP does (LF, CRLF, lone CR), written independently
// of NewIndex: it returns each line's start and the offset of its terminator.
func refLines(src []byte) (starts, ends []int) {
	starts = []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] != '\n' && src[i] != '\r' {
			continue
		}
		ends = append(ends, i)
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		starts = append(starts, i+1)
	}
	return starts, append(ends, len(src))
}

// refCol is the UTF-16 length of b with every invalid byte as one U+FFFD,
// via the standard library's converters rather than UTF16Len.
func refCol(b []byte) int {
	return len(utf16.Encode([]rune(string(b))))
}

func FuzzIndex(f *testing.F) {
	for _, s := range []string{
		"", "a", "abc\ndef", "a😀b\r\nc", "用户\r\n名", "e\u0301x", "a\rb", "\r\r\n\n\r",
		"\ufeff- [s] x\r\n- y", "\xff\xfe\xe2\x82\n\xed\xa0\x80", "😀😀\n\n", "a\u2028b\u2029c",
		"😀\r\n😀\r😀\n", "\xf0\x9f\r\n\x98\x80😀", "a\r\n\r\n𝄞b\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		// Position is linear in the line length and is called at every
		// offset, so keep inputs small enough for many execs per second.
		if len(src) > 1024 {
			src = src[:1024]
		}
		ix := NewIndex(src)
		starts, ends := refLines(src)
		if ix.LineCount() != len(starts) {
			t.Fatalf("LineCount = %d, reference %d (src %q)", ix.LineCount(), len(starts), src)
		}
		for i := range starts {
			if ix.LineStart(i) != starts[i] || ix.LineEnd(i) != ends[i] {
				t.Fatalf("line %d = [%d,%d), reference [%d,%d) (src %q)", i, ix.LineStart(i), ix.LineEnd(i), starts[i], ends[i], src)
			}
		}
		// Walk every byte offset. Valid offsets are Go-decoder boundaries
		// within a line's text plus the line end (columns accumulate one
		// character at a time); offsets inside a character or inside a CRLF
		// must fail.
		for l := range starts {
			col := 0
			for off := starts[l]; ; {
				p, err := ix.Position(off)
				want := Position{Line: l, Col: col}
				if err != nil || p != want {
					t.Fatalf("Position(%d) = %v, %v; reference %v (src %q)", off, p, err, want, src)
				}
				if back, err := ix.Offset(p); err != nil || back != off {
					t.Fatalf("Offset(Position(%d)=%v) = %d, %v (src %q)", off, p, back, err, src)
				}
				if off == ends[l] {
					break
				}
				_, n := utf8.DecodeRune(src[off:ends[l]])
				for inner := off + 1; inner < off+n; inner++ {
					if p, err := ix.Position(inner); err == nil {
						t.Fatalf("Position(%d) = %v inside a character, want an error (src %q)", inner, p, src)
					}
				}
				col += refCol(src[off : off+n])
				off += n
			}
			if l+1 < len(starts) {
				for inner := ends[l] + 1; inner < starts[l+1]; inner++ {
					if p, err := ix.Position(inner); err == nil {
						t.Fatalf("Position(%d) = %v inside a line break, want an error (src %q)", inner, p, src)
					}
				}
			}
		}
		// The other direction: every UTF-16 column of every line, from an
		// independent encoding of the line. A column between the two halves
		// of a surrogate pair must be refused; every other one must map to
		// the offset where its character starts (or to the line end, before
		// any CR or CRLF) and back to itself.
		for l := range starts {
			line := string(src[starts[l]:ends[l]])
			units := utf16.Encode([]rune(line))
			at := make([]int, len(units)+1) // offset of each column; -1 inside a pair
			for c := range at {
				at[c] = -1
			}
			c := 0
			for i, r := range line {
				at[c] = starts[l] + i
				c += utf16.RuneLen(r)
			}
			at[len(units)] = ends[l]
			for col, want := range at {
				p := Position{Line: l, Col: col}
				off, err := ix.Offset(p)
				if want < 0 {
					if !utf16.IsSurrogate(rune(units[col])) || !utf16.IsSurrogate(rune(units[col-1])) {
						t.Fatalf("reference: column %d of line %d is no surrogate pair's middle (src %q)", col, l, src)
					}
					if err == nil {
						t.Fatalf("Offset(%v) = %d between the halves of a surrogate pair, want an error (src %q)", p, off, src)
					}
					continue
				}
				if err != nil || off != want {
					t.Fatalf("Offset(%v) = %d, %v; reference %d (src %q)", p, off, err, want, src)
				}
				if back, err := ix.Position(off); err != nil || back != p {
					t.Fatalf("Position(Offset(%v)=%d) = %v, %v (src %q)", p, off, back, err, src)
				}
			}
		}
		// One column past each line's end is always an error.
		for l := range starts {
			p := Position{Line: l, Col: refCol(src[starts[l]:ends[l]]) + 1}
			if off, err := ix.Offset(p); err == nil {
				t.Fatalf("Offset(%v) = %d past the end of the line (src %q)", p, off, src)
			}
		}
		if _, err := ix.Offset(Position{Line: len(starts)}); err == nil {
			t.Fatalf("Offset of line %d accepted", len(starts))
		}
		if got, want := UTF16Len(string(src)), refCol(src); got != want {
			t.Fatalf("UTF16Len = %d, reference %d (src %q)", got, want, src)
		}
	})
}
