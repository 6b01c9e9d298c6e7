package search

import (
	"unicode"
	"unicode/utf8"
)

// Tokenisation rules (the same for documents, slugs and queries):
//
//   - Text is lower-cased rune by rune (Unicode); full-width ASCII (Ａ, １) is
//     folded to ASCII first.
//   - A word is a run of letters and digits of any script (combining marks
//     continue a word). '.' between two digits stays inside the word, so
//     versions survive: "1.8", "v1.8.2" (and "1.8" never equals "18").
//   - '-', '_', '/' and '.' between two word characters split the word into
//     parts, each a term, and the joined compound is ALSO a term:
//     "auto-scaling" → auto, scal, autoscal; "snake_case" → snake, case,
//     snakecase; "openapi.yaml" → openapi, yaml, openapiyaml.
//   - An apostrophe between letters joins ("don't" → dont) except a final
//     possessive "'s", which is dropped ("user's" → user).
//   - "++" or "#" right after a word and before a non-word keeps it: C++, C#.
//   - Han, Hiragana, Katakana and Hangul runs become overlapping character
//     bigrams ("变更日志" → 变更, 更日, 日志); a one-character run is a unigram.
//   - English stop words are dropped (negations are kept); the remaining
//     parts and compounds are stemmed (see stem).
//
// Parts and CJK grams form the "main" sequence used for phrase matching;
// compounds are extra terms outside it, so "auto-scaling policy" and
// "auto scaling policy" are the same phrase.

// isStop reports whether the lower-cased word w is an English stop word.
// Negations (not, no, never, don't …) are deliberately absent.
func isStop(w []byte) bool {
	switch string(w) {
	case "the", "a", "an", "of", "to", "in", "for", "on", "and", "or", "is", "are",
		"be", "it", "this", "that", "with", "what", "how", "do", "does", "we", "our",
		"you", "should", "when", "which":
		return true
	}
	return false
}

type class uint8

const (
	clOther class = iota
	clLetter
	clDigit
	clMark
	clCJK
)

func classify(r rune) class {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
			return clLetter
		case '0' <= r && r <= '9':
			return clDigit
		}
		return clOther
	}
	switch {
	case isCJK(r):
		return clCJK
	case unicode.IsLetter(r):
		return clLetter
	case unicode.IsDigit(r):
		return clDigit
	case unicode.IsMark(r):
		return clMark
	}
	return clOther
}

func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	switch r {
	case 0x30FC, 0xFF70: // prolonged sound marks (script Common)
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// fold lower-cases r and maps full-width ASCII to ASCII.
func fold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}
	if 0xFF01 <= r && r <= 0xFF5E {
		r -= 0xFEE0
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// span is one emitted term: out[start:end]; main is false for compounds.
type span struct {
	start, end int32
	main       bool
}

// tokenizer is reusable scratch state; the zero value is ready to use.
type tokenizer struct {
	out    []byte // term bytes, back to back
	spans  []span
	part   []byte // current word part, lower-cased
	prev   class  // class of the last rune added to part
	comp   []byte // the current word's parts joined
	nparts int
	cjk    []rune
}

func (t *tokenizer) reset() {
	t.out = t.out[:0]
	t.spans = t.spans[:0]
	t.part = t.part[:0]
	t.comp = t.comp[:0]
	t.nparts = 0
	t.cjk = t.cjk[:0]
}

// term returns the i-th emitted term's bytes.
func (t *tokenizer) term(i int) []byte {
	sp := t.spans[i]
	return t.out[sp.start:sp.end]
}

// peek decodes and folds the rune at s[i]; it returns (-1, 0) at the end.
func peek(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return fold(rune(c)), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return fold(r), n
}

func isWordClass(c class) bool { return c == clLetter || c == clDigit }

// run tokenises s, appending to t.out and t.spans.
func (t *tokenizer) run(s string) {
	for i := 0; i < len(s); {
		r, size := peek(s, i)
		c := classify(r)
		if c == clCJK {
			t.endWord()
			t.cjk = append(t.cjk, r)
			i += size
			continue
		}
		t.endCJK()
		if isWordClass(c) || (c == clMark && len(t.part) > 0) {
			t.part = utf8.AppendRune(t.part, r)
			if c != clMark {
				t.prev = c
			}
			i += size
			continue
		}
		if len(t.part) > 0 {
			nr, nsize := peek(s, i+size)
			nc := classify(nr)
			switch {
			case r == '.' && t.prev == clDigit && nc == clDigit:
				t.part = append(t.part, '.')
				i += size
				continue
			case (r == '\'' || r == '\u2019') && t.prev == clLetter && nc == clLetter:
				if nr == 's' {
					if ar, _ := peek(s, i+size+nsize); !isWordClass(classify(ar)) && classify(ar) != clMark {
						i += size + nsize // possessive: drop "'s"
						t.endWord()
						continue
					}
				}
				i += size // join: don't → dont
				continue
			case r == '+' && nr == '+' && t.prev == clLetter:
				if ar, _ := peek(s, i+2); !isWordClass(classify(ar)) {
					t.part = append(t.part, "++"...)
					i += 2
					t.endWord()
					continue
				}
			case r == '#' && t.prev == clLetter && !isWordClass(nc):
				t.part = append(t.part, '#')
				i += size
				t.endWord()
				continue
			case (r == '-' || r == '_' || r == '/' || r == '.') && isWordClass(nc):
				t.endPart()
				i += size
				continue
			}
		}
		t.endWord()
		i += size
	}
	t.endWord()
	t.endCJK()
}

// endPart closes the current word part: emits it (unless a stop word) and
// adds it to the compound.
func (t *tokenizer) endPart() {
	if len(t.part) == 0 {
		return
	}
	t.comp = append(t.comp, t.part...)
	t.nparts++
	if !isStop(t.part) {
		t.emitStem(t.part, true)
	}
	t.part = t.part[:0]
}

// endWord closes the current word, emitting its compound if it had parts.
func (t *tokenizer) endWord() {
	t.endPart()
	if t.nparts >= 2 {
		t.emitStem(t.comp, false)
	}
	t.comp = t.comp[:0]
	t.nparts = 0
}

func (t *tokenizer) emitStem(w []byte, main bool) {
	start := len(t.out)
	t.out = append(t.out, w...)
	st := stem(t.out[start:])
	t.out = t.out[:start+len(st)]
	t.spans = append(t.spans, span{int32(start), int32(len(t.out)), main})
}

func (t *tokenizer) emitRunes(main bool, rs ...rune) {
	start := len(t.out)
	for _, r := range rs {
		t.out = utf8.AppendRune(t.out, r)
	}
	t.spans = append(t.spans, span{int32(start), int32(len(t.out)), main})
}

// endCJK turns the pending CJK run into bigrams (or one unigram).
func (t *tokenizer) endCJK() {
	switch n := len(t.cjk); {
	case n == 0:
		return
	case n == 1:
		t.emitRunes(true, t.cjk[0])
	default:
		for i := 0; i+1 < n; i++ {
			t.emitRunes(true, t.cjk[i], t.cjk[i+1])
		}
	}
	t.cjk = t.cjk[:0]
}

// Tokens returns the stemmed index terms of s in order of appearance, with
// repeats: word parts and CJK grams, each compound right after its parts.
// Stop words are gone. Search analyses queries, contents and slugs with it.
func Tokens(s string) []string {
	var t tokenizer
	t.run(s)
	if len(t.spans) == 0 {
		return nil
	}
	out := make([]string, len(t.spans))
	for i := range t.spans {
		out[i] = string(t.term(i))
	}
	return out
}
