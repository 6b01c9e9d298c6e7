package memfile

import (
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// isJSLineTerminator is what JavaScript's `.` refuses to match.
func isJSLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// TrimJS trims JavaScript whitespace from both ends of s, as JS trim() does.
func TrimJS(s string) string {
	start, end := trimSpan([]byte(s), 0, len(s))
	return s[start:end]
}

// trimSpan narrows [start, end) of b past JavaScript whitespace on both sides.
func trimSpan(b []byte, start, end int) (int, int) {
	for start < end {
		r, size := utf8.DecodeRune(b[start:end])
		if !text.IsJSSpace(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		start += size
	}
	for end > start {
		r, size := utf8.DecodeLastRune(b[start:end])
		if !text.IsJSSpace(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		end -= size
	}
	return start, end
}
