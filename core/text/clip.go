package text

import (
	"strconv"
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

// Thousands writes n with commas between groups of three digits, as
// messages write counts ("25,000 lines").
func Thousands(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
