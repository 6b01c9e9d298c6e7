package budget

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens estimates how many tokens a model's tokenizer makes of src.
//
// No agent's tokenizer ships here as tables in a Go module we would want in
// every process (o200k's vocabulary is an 8 MB map literal; Claude's is not
// published), so the count is an estimate from what a byte-pair tokenizer
// does with text: an ASCII word is about one token and a long one a little
// more, punctuation often merges with its neighbours, a line break is its
// own token, digits go in threes, a CJK character is most of a token and
// another non-ASCII letter about a third of one. The weights were fitted on
// one half of 560 public agent instruction and memory files against
// o200k_base (the GPT-4o / Codex tokenizer) and checked on the other half;
// TestTokensAgainstO200k (build tag long) measures it again, and
// docs/budgets.md gives the figures. Claude's tokenizer counts English text
// somewhat higher than o200k: a limit in tokens is therefore judged with a
// margin (warnAt), never at the token.
func EstimateTokens(src []byte) int {
	var t tokenizer
	t.add(src)
	return t.count()
}

// tokenizer estimates a text fed to it in pieces that end at line ends, so
// that a limit in tokens can be placed at the line where it is crossed
// without counting the whole prefix again for each line.
type tokenizer struct {
	tenths int // the estimate so far, in tenths of a token
	// inBreak: the last piece ended in a line break, which a break at the
	// start of the next one continues (one token for a run of them).
	inBreak bool
}

func (t *tokenizer) count() int { return (t.tenths + 9) / 10 }

func (t *tokenizer) add(src []byte) {
	for i := 0; i < len(src); {
		c := src[i]
		if c != '\n' && c != '\r' {
			t.inBreak = false
		}
		switch {
		case isASCIILetter(c):
			j := i + 1
			for j < len(src) && isASCIILetter(src[j]) {
				j++
			}
			t.tenths += 12
			if n := j - i; n > 6 {
				t.tenths += (n - 6) * 12 / 10
			}
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			t.tenths += 20 * ((j - i + 2) / 3)
			i = j
		case c == '\n' || c == '\r':
			if !t.inBreak {
				t.tenths += 17
				t.inBreak = true
			}
			i++
		case c == ' ' || c == '\t':
			i++
		case c < utf8.RuneSelf:
			t.tenths += 2 // most punctuation merges with a neighbour
			i++
		default:
			r, n := utf8.DecodeRune(src[i:])
			switch {
			case isCJK(r):
				t.tenths += 8
			case unicode.IsLetter(r) || unicode.IsMark(r):
				t.tenths += 3
			default: // symbols, emoji, invalid bytes
				t.tenths += 10
			}
			i += n
		}
	}
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
