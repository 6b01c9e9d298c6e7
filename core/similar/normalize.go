package similar

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Normalize is the form for the exact-match shortcut. On ASCII text it is
// HackLM's (hacklm.Normalize), except that a '.' or ',' between two digits
// survives: HackLM makes "Java 1.8" equal "Java 18". Letters, digits and
// marks of every script are kept (HackLM deletes them, so all Chinese texts
// are equal), and invisible format characters such as a soft hyphen vanish
// without a trace.
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	var prev rune // the previous raw character, for digit-dot-digit
	for i, r := range s {
		keep := false
		switch {
		case r < utf8.RuneSelf:
			switch {
			case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
				keep = true
			case 'A' <= r && r <= 'Z':
				r += 'a' - 'A'
				keep = true
			case r == '.' || r == ',':
				keep = isDigit(prev) && isDigit(nextRune(s, i+1))
			case text.IsJSSpace(r):
				space = b.Len() > 0
			}
		case text.IsJSSpace(r):
			space = b.Len() > 0
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r):
			r = unicode.ToLower(r)
			keep = true
		}
		prev = r
		if !keep {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r < utf8.RuneSelf {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}

func nextRune(s string, i int) rune {
	if i >= len(s) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}
