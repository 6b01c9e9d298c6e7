package similar

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Keywords is HackLM's keyword set for ASCII text (sorted, unique), extended
// to Unicode letters and CJK bigrams.
func Keywords(s string) []string {
	return tokenize(s, true).keys
}

// span is a byte range of tokens.clean.
type span struct{ start, end int32 }

// word is one non-CJK word in text order, with what orders and names need.
type word struct {
	span
	flags wordFlags
	key   bool // a keyword (long enough, not a stop word)
	named bool
}

// tokens is everything one pass over a text yields.
type tokens struct {
	// clean holds the cleaned words back to back; every token is a substring.
	clean string
	// keys in text order with repeats (GenerateSlug needs the order), or
	// sorted and unique.
	keys []string
	// core is keys without the polarity and ordering vocabulary (and, inside
	// CJK runs, with the vocabulary cut out before the bigrams are made).
	core   []string
	flips  int
	vocab  bool // some key or CJK run held vocabulary, so core != keys
	words  []word
	orders bool // a connective or trigger word occurred
	// numbers are the whitespace-separated raw tokens that hold a digit,
	// trimmed of surrounding punctuation: the values a text states, which
	// keywords lose ("1.8" becomes "18", "v2" is too short to be a keyword).
	numbers []string
}

// tokenizer builds tokens. Punctuation and symbols are deleted without
// splitting the word, as HackLM deletes them ("don't" → "dont"), and
// hyphens are kept, so ASCII text gives exactly HackLM's keywords. Letters,
// digits and marks of every script are kept, where HackLM deletes all of them
// outside a–z and 0–9.
type tokenizer struct {
	table     *wordTable // vocab().table
	buf       []byte
	keys      []span
	core      []span
	words     []word
	runStarts []int32 // rune starts of the open CJK run
	t         tokens

	// the open word
	inWord                   bool
	wordStart                int32
	runes, letters, uppers   int
	digits                   bool
	firstUpper, sentenceHead bool
	// concord: a negator of negative concord has flipped this sentence
	concord bool
}

// concordNegator reports whether a cleaned word is a negator of the
// languages whose negators repeat one negation (negative concord).
func concordNegator(w []byte) bool {
	switch string(w) {
	case "não", "nao", "no", "non", "nunca", "jamais":
		return true
	}
	return false
}

// scratch is the tokenizer's buffers, recycled through a pool: Analyze runs
// once per entry on every check, and the scratch is most of what it would
// otherwise allocate. The tokenizer itself lives on the stack, so filling the
// buffers costs no GC write barriers.
type scratch struct {
	buf       []byte
	keys      []span
	core      []span
	words     []word
	runStarts []int32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// tokenize reads s in one pass; sorted asks for keys and core as sorted sets
// rather than in text order with repeats.
func tokenize(s string, sorted bool) tokens {
	sc := scratchPool.Get().(*scratch)
	tk := tokenizer{
		table:        vocab().table,
		buf:          sc.buf[:0],
		keys:         sc.keys[:0],
		core:         sc.core[:0],
		words:        sc.words[:0],
		runStarts:    sc.runStarts[:0],
		sentenceHead: true,
	}
	lastPunc := false // the raw token so far ends in sentence punctuation
	rawStart, rawDigit := -1, false
	endRaw := func(i int) {
		tk.flush()
		if lastPunc {
			tk.sentenceHead = true
			tk.concord = false
		}
		lastPunc = false
		if rawDigit {
			if v := strings.ToLower(strings.TrimFunc(s[rawStart:i], notAlnum)); statesValue(v) {
				tk.t.numbers = append(tk.t.numbers, v)
			} else {
				tk.t.numbers = appendCJKNumbers(tk.t.numbers, v)
			}
		}
		rawStart, rawDigit = -1, false
	}
	for i, r := range s {
		if rawStart < 0 && !text.IsJSSpace(r) {
			rawStart = i
		}
		if r < utf8.RuneSelf {
			switch {
			case 'a' <= r && r <= 'z', r == '-':
				tk.wordRune(r, false, false)
				lastPunc = false
			case '0' <= r && r <= '9':
				tk.wordRune(r, false, true)
				rawDigit, lastPunc = true, false
			case 'A' <= r && r <= 'Z':
				tk.wordRune(r+'a'-'A', true, false)
				lastPunc = false
			case text.IsJSSpace(r):
				endRaw(i)
			default:
				tk.punct()
				lastPunc = r == '.' || r == '!' || r == '?' || r == ':'
			}
			continue
		}
		switch {
		case text.IsJSSpace(r):
			endRaw(i)
		case unicode.Is(unicode.Cf, r):
			// invisible (soft hyphen, zero-width space): as if absent
		case isCJK(r):
			tk.cjkRune(r)
			lastPunc = false
		case unicode.IsMark(r):
			tk.mark(r)
		case unicode.IsLetter(r), unicode.IsDigit(r):
			lr, digit := unicode.ToLower(r), unicode.IsDigit(r)
			tk.wordRune(lr, lr != r, digit)
			rawDigit = rawDigit || digit
			lastPunc = false
		default:
			tk.punct()
			lastPunc = r == '。' || r == '！' || r == '？' || r == '…'
		}
	}
	endRaw(len(s))
	t := tk.finish(sorted)
	sc.buf, sc.keys, sc.core, sc.words, sc.runStarts = tk.buf, tk.keys, tk.core, tk.words, tk.runStarts
	scratchPool.Put(sc)
	return t
}

// notAlnum is what is trimmed off a value token: "(v2)," is "v2".
func notAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// isCJK: scripts written without spaces between words, which need bigrams.
// appendCJKNumbers appends the numbers written inside a run of CJK text,
// which has no spaces to end a word at: "タイムアウトは30秒です" states 30,
// and "… 60秒です" another value, not the same text (issue 27: the second
// was skipped as a duplicate, and its value lost). A token without CJK is
// statesValue's to read.
func appendCJKNumbers(out []string, v string) []string {
	if !strings.ContainsFunc(v, isCJK) {
		return out
	}
	start := -1
	for i, r := range v + " " {
		number := unicode.IsDigit(r) || start >= 0 && (r == '.' || r == ':') && i+1 < len(v) && unicode.IsDigit(rune(v[i+1]))
		switch {
		case number && start < 0:
			start = i
		case !number && start >= 0:
			out = append(out, v[start:i])
			start = -1
		}
	}
	return out
}

func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 0x30FC
}

func (tk *tokenizer) wordRune(r rune, upper, digit bool) {
	if len(tk.runStarts) > 0 {
		tk.flushRun()
	}
	if !tk.inWord {
		tk.inWord, tk.wordStart = true, int32(len(tk.buf))
		tk.runes, tk.letters, tk.uppers, tk.digits, tk.firstUpper = 0, 0, 0, false, false
	}
	if !digit && r != '-' {
		if tk.letters == 0 {
			tk.firstUpper = upper
		}
		tk.letters++
		if upper {
			tk.uppers++
		}
	}
	tk.digits = tk.digits || digit
	tk.runes++
	tk.buf = utf8.AppendRune(tk.buf, r)
}

// mark joins the character before it: a combining accent belongs to its
// letter, and inside a CJK run it does not count as a character of its own.
func (tk *tokenizer) mark(r rune) {
	if len(tk.runStarts) > 0 {
		tk.buf = utf8.AppendRune(tk.buf, r)
		return
	}
	tk.wordRune(r, false, false)
}

func (tk *tokenizer) cjkRune(r rune) {
	if tk.inWord {
		tk.flushWord()
	}
	tk.runStarts = append(tk.runStarts, int32(len(tk.buf)))
	tk.buf = utf8.AppendRune(tk.buf, r)
}

// punct deletes a character without splitting a word, but it does end a CJK
// run: a bigram across "、" or "。" is not a word of the text.
func (tk *tokenizer) punct() {
	if len(tk.runStarts) > 0 {
		tk.flushRun()
	}
}

func (tk *tokenizer) flush() {
	if tk.inWord {
		tk.flushWord()
	}
	if len(tk.runStarts) > 0 {
		tk.flushRun()
	}
}

func (tk *tokenizer) flushWord() {
	tk.inWord = false
	sp := span{tk.wordStart, int32(len(tk.buf))}
	w := word{span: sp, flags: tk.table.lookup(tk.buf[sp.start:sp.end])}
	if w.flags&fFlip != 0 {
		if !concordNegator(tk.buf[sp.start:sp.end]) {
			tk.t.flips++
		} else if !tk.concord {
			// Portuguese and Spanish say one negation with several
			// negators ("Não use nunca", "No uses nunca", "Não deixe
			// … e jamais exponha"): the first of a sentence counts
			tk.t.flips++
			tk.concord = true
		}
	}
	w.key = tk.runes > 2 && w.flags&fStop == 0
	vocab := w.flags&(fFlip|fPartner|fConnective) != 0
	if w.key {
		tk.keys = append(tk.keys, sp)
		// A value ("3.14", "v2", "8080") is no part of what a rule is
		// about: Core without values lets "Pin Terraform to 1.5.7" and
		// "… to 1.9.0" meet as the same rule with another value.
		if vocab || tk.digits && isValueWord(tk.buf[sp.start:sp.end]) {
			tk.t.vocab = true
		} else {
			tk.core = append(tk.core, sp)
			allCaps := tk.letters >= 2 && tk.uppers == tk.letters
			w.named = !tk.digits && (allCaps || tk.firstUpper && !tk.sentenceHead)
		}
	}
	if w.flags&(fConnective|fTrigger) != 0 {
		tk.t.orders = true
	}
	if tk.letters > 0 {
		tk.sentenceHead = false
	}
	tk.words = append(tk.words, w)
}

// flushRun turns the open CJK run into character bigrams (a lone character
// stands for itself). For core, polarity words are cut out of the run first,
// so 不使用缓存 and 使用缓存 have the same core and differ only in sign.
func (tk *tokenizer) flushRun() {
	starts := tk.runStarts
	end := int32(len(tk.buf))
	at := func(k int) int32 {
		if k < len(starts) {
			return starts[k]
		}
		return end
	}
	tk.keys = appendGrams(tk.keys, starts, end)
	piece := 0 // first rune of the current piece without vocabulary
	found := false
	for k := 0; k < len(starts); {
		n, f, ok := cjkMatch(tk.buf[starts[k]:end])
		if !ok {
			k++
			continue
		}
		if f&fFlip != 0 {
			tk.t.flips++
		}
		if f&fConnective != 0 {
			tk.t.orders = true
		}
		m := k + 1
		for at(m) < starts[k]+int32(n) {
			m++
		}
		if f != 0 {
			found = true
			tk.core = appendGrams(tk.core, starts[piece:k], starts[k])
			piece = m
		}
		k = m
	}
	if found {
		tk.t.vocab = true
		tk.core = appendGrams(tk.core, starts[piece:], end)
	} else {
		tk.core = appendGrams(tk.core, starts, end)
	}
	tk.runStarts = tk.runStarts[:0]
	tk.sentenceHead = false
}

// appendGrams appends the bigrams of the run whose runes start at starts and
// which ends at end; one rune is its own token and no rune gives nothing.
func appendGrams(dst []span, starts []int32, end int32) []span {
	switch len(starts) {
	case 0:
		return dst
	case 1:
		return append(dst, span{starts[0], end})
	}
	for k := 0; k+1 < len(starts); k++ {
		e := end
		if k+2 < len(starts) {
			e = starts[k+2]
		}
		dst = append(dst, span{starts[k], e})
	}
	return dst
}

func (tk *tokenizer) finish(sorted bool) tokens {
	t := tk.t
	t.clean = string(tk.buf)
	if sorted {
		// sorting spans rather than strings moves no pointers, so no GC write
		// barriers; the order is the same (bytes.Compare is string order)
		tk.keys = tk.sortSpans(tk.keys)
		if t.vocab {
			tk.core = tk.sortSpans(tk.core)
		}
	}
	if t.vocab {
		// one allocation for both lists
		all := spansToStrings(t.clean, append(tk.keys, tk.core...))
		t.keys, t.core = all[:len(tk.keys):len(tk.keys)], all[len(tk.keys):]
	} else {
		t.keys = spansToStrings(t.clean, tk.keys)
		t.core = t.keys
	}
	// only the names are read from the words, and there are few
	t.words = namedOnly(tk.words)
	return t
}

// sortSpans sorts spans by their text and drops repeats.
func (tk *tokenizer) sortSpans(sp []span) []span {
	text := func(x span) []byte { return tk.buf[x.start:x.end] }
	slices.SortFunc(sp, func(a, b span) int { return bytes.Compare(text(a), text(b)) })
	return slices.CompactFunc(sp, func(a, b span) bool { return bytes.Equal(text(a), text(b)) })
}

// namedOnly copies out the few words that are names (usually none).
func namedOnly(ws []word) []word {
	var out []word
	for _, w := range ws {
		if w.named {
			out = append(out, w)
		}
	}
	return out
}

func spansToStrings(clean string, sp []span) []string {
	if len(sp) == 0 {
		return nil
	}
	out := make([]string, len(sp))
	for i, x := range sp {
		out[i] = clean[x.start:x.end]
	}
	return out
}

// sortedSet sorts ss in place and drops repeats. The lists it gets (values,
// names) hold a handful of strings, where an insertion sort beats pdqsort.
func sortedSet(ss []string) []string {
	if len(ss) > 12 {
		slices.Sort(ss)
	} else {
		for i := 1; i < len(ss); i++ {
			for j := i; j > 0 && ss[j] < ss[j-1]; j-- {
				ss[j], ss[j-1] = ss[j-1], ss[j]
			}
		}
	}
	return slices.Compact(ss)
}

// statesValue reports whether a raw token holding a digit (lower case,
// trimmed of punctuation) states a value: a number, a version, a region, a
// time ("1.5.7", "v2", "eu-west-1", "02:00", "python3.11") — not a name that
// carries a digit ("queue0", "wsl2", "s3bucket"), which a swap replaces
// as it replaces any name (docs/hacklm.md).
func statesValue(v string) bool {
	if isValueWord([]byte(v)) || strings.ContainsAny(v, ".:/=") {
		return true // 1.5.7, 02:00, --maxWorkers=4
	}
	// a part after a hyphen that opens with a digit: gpt-4o-mini, llama-3
	for i := strings.IndexByte(v, '-'); i >= 0 && i+1 < len(v); {
		if '0' <= v[i+1] && v[i+1] <= '9' {
			return true
		}
		j := strings.IndexByte(v[i+1:], '-')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// isValueWord: a cleaned keyword that states a value — a number or version
// ("8080", "157" from 1.5.7), "v2", a region or zone ("eu-west-1") — rather
// than names something that has digits in its name ("queue0", "s3bucket",
// "es2022"). Values leave Core; names stay.
func isValueWord(w []byte) bool {
	switch {
	case len(w) == 0:
		return false
	case '0' <= w[0] && w[0] <= '9':
		return true
	case w[0] == 'v' && len(w) > 1 && '0' <= w[1] && w[1] <= '9':
		return true
	}
	if i := bytes.LastIndexByte(w, '-'); i > 0 && i < len(w)-1 {
		for _, c := range w[i+1:] {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return false
}
