package text

import (
	"strings"
	"unicode/utf8"
)

// Clip shortens s to at most n characters for a message, ending it with
// "…" when cut: findings and refusals quote what they are about, and a
// megabyte line would drown the message.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, c := 0, 0
	for i = range s {
		if c == n {
			break
		}
		c++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}
