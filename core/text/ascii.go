package text

import (
	"strings"
	"unicode/utf8"
)

// IsASCII reports whether s holds ASCII bytes only.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// LowerASCII lowers ASCII letters only, so byte offsets stay the same and
// every other byte is kept as it is. It copies s once (a Builder's string
// is its buffer), and not at all when s has no capital.
func LowerASCII(s string) string {
	var b strings.Builder
	from := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			if from == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[from:i])
			b.WriteByte(c + 'a' - 'A')
			from = i + 1
		}
	}
	if from == 0 {
		return s
	}
	b.WriteString(s[from:])
	return b.String()
}

// WordSet is the set of the space-separated words of lists.
func WordSet(lists ...string) map[string]bool {
	m := map[string]bool{}
	for _, list := range lists {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	return m
}
