package similar

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/internal/hacklm"
)

// wordFlags describe a cleaned word (lowercase, apostrophes and other
// punctuation deleted, hyphens kept): "don't" and "don’t" are both "dont",
// while a compound such as "on-call" or "off-by-one" is none of its parts.
type wordFlags uint8

const (
	fStop wordFlags = 1 << iota
	// fFlip: a negator; each one multiplies the sign by -1, so "do not
	// disable" is positive again.
	fFlip
	// fPartner: the positive side of a negator pair. It does not flip, but it
	// leaves Core, so "Enable X" and "Disable X" share their Core.
	fPartner
	// fConnective: "over", "rather", "instead" introduce an order (A over B).
	fConnective
	// fTrigger: a word that may belong to an order phrase ("but", "than",
	// "а", "statt"). It only tells Analyze that the text's order phrases
	// must be read (see shape.go); unlike fConnective it stays in Core.
	fTrigger
)

// vocabulary is the polarity and ordering words; Core drops all of them.
const (
	negators = `not no never dont doesnt didnt isnt arent wasnt werent wont cant cannot
		couldnt shouldnt mustnt without off avoid avoids avoided avoiding disable disabled
		disables disabling disallow disallowed disallows deny denied denies forbid forbids
		forbidden exclude excluded excludes excluding reject rejected rejects remove removed
		removes removing after below less lower fewer out
		omit omits omitted omitting
		не нельзя нет без nicht nie niemals kein keine keinen keinem keiner keines
		ohne pas jamais nunca non não nao không đừng chẳng`
	// никогда ("never") is a partner, not a negator: Russian always says it
	// with не ("никогда не запускайте"), which does the flipping.
	partners = `always do does enable enabled enables enabling allow allowed allows with on
		use uses keep keeps include included includes accept accepted accepts before above
		greater higher more prefer prefers preferred
		всегда никогда immer mit toujours avec siempre luôn hãy`
	connectives = `over rather instead`
	triggers    = `but than plutôt lieu vez lugar mais statt anstatt anstelle sondern вместо а thay chứ mà`
)

// vocabulary is the lookup tables of the word lists of this package,
// built on first use (vocab): built at package initialisation they cost
// every run of the binary a quarter of a millisecond, and most runs (a
// query, a list, the version) never compare two texts.
type vocabulary struct {
	words      map[string]wordFlags
	table      *wordTable // words, for lookups by bytes
	cjkFirst   map[rune]bool
	cjkBytes   [][]byte
	shapeStop  map[string]bool
	accentFold map[rune]rune
}

var vocab = sync.OnceValue(func() *vocabulary {
	v := &vocabulary{words: map[string]wordFlags{}}
	for _, w := range hacklm.StopWords() {
		v.words[w] |= fStop
	}
	for _, list := range []struct {
		text string
		f    wordFlags
	}{{negators, fFlip}, {partners, fPartner}, {connectives, fConnective}, {triggers, fTrigger}} {
		for _, w := range strings.Fields(list.text) {
			v.words[w] |= list.f
		}
	}
	v.table = newWordTable(v.words)
	v.cjkFirst, v.cjkBytes = cjkTables()
	v.shapeStop = shapeStopWords()
	v.accentFold = accentFolds()
	return v
})

// cjkVocab is matched inside runs of CJK characters, which have no word
// boundaries: at each position the longest entry wins. The entries with no
// flags are ordinary words listed only so that the negator inside them does
// not count (特别 "especially" is not 别 "don't").
var cjkVocab = []struct {
	word string
	f    wordFlags
}{
	{"不要", fFlip}, {"不", fFlip}, {"别", fFlip}, {"勿", fFlip}, {"禁止", fFlip},
	{"没有", fFlip}, {"没", fFlip}, {"禁用", fFlip}, {"无效", fFlip}, {"無効", fFlip},
	{"有效", fPartner}, {"有効", fPartner}, {"しない", fFlip}, {"しません", fFlip}, {"ないで", fFlip},
	{"않", fFlip},
	// Japanese says "not" with ない and ません after the verb ("出力してはならない",
	// "使わない", "できません"; issue 27's eleventh set); "must" is a double
	// negation said whole ("しなければならない"), and 少ない "few" and
	// 危ない "dangerous" hold no negation
	{"ない", fFlip}, {"ません", fFlip}, {"少ない", 0}, {"危ない", 0},
	{"なければならない", fPartner}, {"なくてはならない", fPartner}, {"なければいけない", fPartner},
	{"なくてはいけない", fPartner}, {"ないといけない", fPartner},
	// and their polite and literary forms, and "may" (かもしれない): a red
	// team's, each a wrong skip that lost the new rule
	{"なければなりません", fPartner}, {"なくてはなりません", fPartner}, {"なければいけません", fPartner},
	{"なくてはいけません", fPartner}, {"ないといけません", fPartner}, {"ねばならない", fPartner},
	{"ねばなりません", fPartner}, {"かもしれない", 0}, {"かもしれません", 0}, {"欠かせない", fPartner},
	{"总是", fPartner}, {"始终", fPartner}, {"必须", fPartner}, {"务必", fPartner},
	{"启用", fPartner}, {"允许", fPartner}, {"使用", fPartner}, {"常に", fPartner},
	{"必ず", fPartner}, {"する", fPartner}, {"します", fPartner},
	{"而不是", fConnective}, {"而非", fConnective}, {"而不用", fConnective}, {"而是", fConnective},
	{"不是", fFlip}, {"代替", fConnective}, {"ではなく", fConnective}, {"じゃなく", fConnective},
	{"の代わりに", fConnective}, {"代わりに", fConnective}, {"대신", fConnective}, {"아니라", fConnective},
	{"特别", 0}, {"区别", 0}, {"类别", 0}, {"级别", 0}, {"分别", 0}, {"个别", 0},
	{"别人", 0}, {"别的", 0}, {"不过", 0}, {"不断", 0},
}

// cjkTables are the first rune of every cjkVocab entry, so that most CJK
// characters are rejected with one map probe, and the entries' words as
// bytes (cjkBytes[i] is cjkVocab[i].word), for matching inside a buffer.
func cjkTables() (first map[rune]bool, words [][]byte) {
	first = map[rune]bool{}
	for _, v := range cjkVocab {
		words = append(words, []byte(v.word))
		r, _ := utf8.DecodeRuneInString(v.word)
		first[r] = true
	}
	return first, words
}

// cjkMatch returns the longest cjkVocab entry that starts run, if any.
func cjkMatch(run []byte) (n int, f wordFlags, ok bool) {
	r, _ := utf8.DecodeRune(run)
	v := vocab()
	if !v.cjkFirst[r] {
		return 0, 0, false
	}
	for i, b := range v.cjkBytes {
		if len(b) > n && bytes.HasPrefix(run, b) {
			n, f, ok = len(b), cjkVocab[i].f, true
		}
	}
	return n, f, ok
}

// assignedNoes counts the "no" assigned without a space ("SKILL=no"): the
// words drop the "=" and keep "skillno", while "set SKILL to no" reads a
// "no"; both say the same, so both count one.
func assignedNoes(s string) int {
	n := 0
	for i := strings.Index(s, "="); i >= 0; {
		rest := s[i+1:]
		if len(rest) >= 2 && (rest[0] == 'n' || rest[0] == 'N') && (rest[1] == 'o' || rest[1] == 'O') &&
			(len(rest) == 2 || !isWordByte(rest[2])) && i > 0 && isWordByte(s[i-1]) {
			n++
		}
		j := strings.Index(rest, "=")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// comparatorFlips counts the comparators of s that say "less": <, <=, ≤.
// Tokenising deletes symbols, so "depth > 1000" and "depth < 1000" have the
// same keywords; only the raw text can tell them apart. A '<' or '>' counts
// only where it reads as a comparison (spaced on both sides, or directly before
// a number), so arrows (->, =>), shifts and generics (Vec<u8>, <div>) do not.
func comparatorFlips(s string) int {
	flips := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '<' && lessAt(s, i):
			flips++
		case s[i] == 0xE2 && strings.HasPrefix(s[i:], "≤"):
			flips++
		}
	}
	return flips
}

// lessAt: the '<' at s[i] is a comparison (spaced on both sides, or directly
// before a number, "<=" included). A '>' never flips, so it needs no test.
func lessAt(s string, i int) bool {
	var prev, next byte = ' ', ' '
	if i > 0 {
		prev = s[i-1]
	}
	j := i + 1
	if j < len(s) && s[j] == '=' {
		j++
	}
	if j < len(s) {
		next = s[j]
	}
	if strings.IndexByte("-=<>!", prev) >= 0 || strings.IndexByte("-<>", next) >= 0 {
		return false
	}
	return isASCIISpace(prev) && isASCIISpace(next) || '0' <= next && next <= '9'
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
