package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ContainsFold reports whether s holds a run of characters equal to x under
// Unicode simple case folding, as strings.EqualFold compares: "Успешно"
// holds "успешн". The run may differ from x in bytes ("ſ" for "s"), so a
// first-byte filter cannot find it: each character that folds to x's first
// is looked for with strings.Index (the hazard rules' hint gates ask this
// of every line not in ASCII, BenchmarkContainsFold), and only where one
// stands is the rest compared.
func ContainsFold(s, x string) bool {
	if x == "" {
		return true
	}
	first, n := utf8.DecodeRuneInString(x)
	if first == utf8.RuneError {
		return containsFoldRunes(s, x) // an invalid byte equals any other
	}
	var buf [utf8.UTFMax]byte
	for r := first; ; {
		lead := string(buf[:utf8.EncodeRune(buf[:], r)])
		for i := 0; ; {
			j := strings.Index(s[i:], lead)
			if j < 0 {
				break
			}
			if hasPrefixFold(s[i+j+len(lead):], x[n:]) {
				return true
			}
			i += j + 1
		}
		if r = unicode.SimpleFold(r); r == first {
			return false
		}
	}
}

// containsFoldRunes is ContainsFold by trying every character of s.
func containsFoldRunes(s, x string) bool {
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
