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
