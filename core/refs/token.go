package refs

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// span is a byte range [start, end) of the text Extract reads.
type span struct{ start, end int }

// codeSpan is an inline code span: outer covers the backticks, inner the content.
type codeSpan struct{ outer, inner span }

// CodeSpans are the byte ranges of s's inline code spans, backticks
// included, as Extract reads them: for the rules that must tell a mention
// in code from prose (hidden-text, agent-directive).
func CodeSpans(s string) [][2]int { return codeSpanRanges(s, false) }

// CodeSpanContents are the byte ranges of the contents of s's inline code
// spans, backticks excluded, in CodeSpans' order.
func CodeSpanContents(s string) [][2]int { return codeSpanRanges(s, true) }

func codeSpanRanges(s string, inner bool) [][2]int {
	cs := codeSpans(s)
	out := make([][2]int, len(cs))
	for i, c := range cs {
		sp := c.outer
		if inner {
			sp = c.inner
		}
		out[i] = [2]int{sp.start, sp.end}
	}
	return out
}

// codeSpans returns the inline code spans of s (text.CodeSpans) in this
// package's spans.
func codeSpans(s string) []codeSpan {
	cs := text.CodeSpans(s)
	out := make([]codeSpan, len(cs))
	for i, c := range cs {
		out[i] = codeSpan{outer: span{c.Outer.Start, c.Outer.End}, inner: span{c.Inner.Start, c.Inner.End}}
	}
	return out
}

// tokenPunct are the non-alphanumeric characters a token keeps. A path uses
// "._-/@+" (and ":" or "#" for its line); the rest are kept so that a glob
// (`*.tmp`), a placeholder (`<name>`, `{id}`, `$HOME`, `…`), a URL or an
// assignment stays one token and is refused whole instead of leaving a
// path-shaped piece behind.
const tokenPunct = "._-/@+~#:%$<>{}[]*?=\\!&^…"

func isTokenRune(r rune) bool {
	if r < utf8.RuneSelf {
		c := byte(r)
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte(tokenPunct, c) >= 0
	}
	if r == utf8.RuneError {
		return false
	}
	return r == '…' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// tokens splits s[a:b] into maximal runs of token characters: whitespace,
// quotes, brackets that close, commas, arrows, dashes and CJK punctuation all
// end a token.
func tokens(s string, a, b int) []span {
	var out []span
	start := -1
	for i := a; i < b; {
		r, w := utf8.DecodeRuneInString(s[i:b])
		if isTokenRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, span{start, i})
			start = -1
		}
		i += w
	}
	if start >= 0 {
		out = append(out, span{start, b})
	}
	return out
}

// trimToken drops what prose wraps around a path: a sentence's closing
// "." ":" "!" "?" (but not an ellipsis, which marks a placeholder) and
// Markdown emphasis ("**x**", "*x*" – only when both ends carry it, so a
// glob's trailing "**" stays and refuses the token).
func trimToken(s string, t span) span {
	for t.end > t.start {
		c := s[t.end-1]
		if c == '.' && t.end-t.start >= 2 && s[t.end-2] == '.' {
			break
		}
		if c != '.' && c != ':' && c != '!' && c != '?' {
			break
		}
		t.end--
	}
	for t.end-t.start >= 2 && s[t.start] == '*' && s[t.end-1] == '*' {
		t.start++
		t.end--
	}
	return t
}

// words splits s[a:b] on ASCII and Unicode white space.
func words(s string, a, b int) []span {
	var out []span
	start := -1
	for i := a; i < b; {
		r, w := utf8.DecodeRuneInString(s[i:b])
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, span{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += w
	}
	if start >= 0 {
		out = append(out, span{start, b})
	}
	return out
}
