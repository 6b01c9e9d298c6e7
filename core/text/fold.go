package text

import (
	"unicode"
	"unicode/utf8"
)

// ContainsFold reports whether s holds a run of characters equal to x under
// Unicode simple case folding, as strings.EqualFold compares: "Успешно"
// holds "успешн". The run may differ from x in bytes ("ſ" for "s"), so a
// first-byte filter cannot find it; the first character's fold orbit is
// asked instead, and only where it matches is the rest compared.
func ContainsFold(s, x string) bool {
	if x == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(x)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if sameFold(r, first) && hasPrefixFold(s[i:], x) {
			return true
		}
		i += n
	}
	return false
}

// hasPrefixFold reports whether s opens with x under simple case folding.
func hasPrefixFold(s, x string) bool {
	for x != "" {
		if s == "" {
			return false
		}
		a, n := utf8.DecodeRuneInString(s)
		b, m := utf8.DecodeRuneInString(x)
		if !sameFold(a, b) {
			return false
		}
		s, x = s[n:], x[m:]
	}
	return true
}

// sameFold reports whether a and b are one character under simple case
// folding: b is in a's fold orbit.
func sameFold(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return 'A' <= a && a <= 'Z' && a+'a'-'A' == b || 'A' <= b && b <= 'Z' && b+'a'-'A' == a
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}
