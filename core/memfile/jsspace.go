package memfile

import "unicode/utf8"

// IsJSSpace reports whether r is in JavaScript's whitespace set, the one
// String.prototype.trim() removes and the regular expression class \s matches:
// ASCII TAB/LF/VT/FF/CR/SP, NBSP, U+FEFF, the Unicode Zs characters, and the
// line/paragraph separators. Go's unicode.IsSpace differs (it has U+0085 and
// lacks U+FEFF), and using it would misread entries HackLM reads.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

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
		if !IsJSSpace(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		start += size
	}
	for end > start {
		r, size := utf8.DecodeLastRune(b[start:end])
		if !IsJSSpace(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		end -= size
	}
	return start, end
}
