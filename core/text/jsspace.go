package text

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
