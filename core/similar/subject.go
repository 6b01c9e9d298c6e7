package similar

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// sameSubjectMin is the share of the shorter text's content words that the
// other must hold, in some form, for the two to be about the same subject.
// Chosen on the tuning halves of the evaluation sets (docs/evaluation.md):
// restatements, reversals by meaning and changed values that the verdict
// stores as new entries share at least half their words; unrelated entries
// that share a word or two mostly do not.
const sameSubjectMin = 0.5

// sameSubjectWords is the least weight of shared words (in half words: a
// CJK character weighs one, any other word two) for a subject: two words,
// or four CJK characters.
const sameSubjectWords = 4

// subjectUnitsMost bounds the words of a text SameSubject compares: an
// entry of more is no one subject (HackLM's entries are one sentence;
// maxContent allows about 200 words), and the comparison takes the product
// of the two lengths.
const subjectUnitsMost = 300

// SameSubject reports whether two texts are about the same subject: at least
// sameSubjectMin of the shorter one's content words (values, stop words and
// the words of polarity and order aside) are words of the other, in any
// form (variants). It does not say how they relate — a restatement, a
// reversal by meaning, a changed value and a second fact about one thing
// all pass — which is why a store that is decided a plain Store reports
// such an entry to its caller rather than acting on it: a person or the
// calling agent reads what the word-by-word verdict cannot.
//
// The overlap is the share of the shorter text's words found in the other,
// for ranking several such entries.
func SameSubject(a, b *Text) (overlap float64, ok bool) {
	x, y := subjectUnits(a), subjectUnits(b)
	if len(x) > subjectUnitsMost || len(y) > subjectUnitsMost {
		return 0, false
	}
	if termWeight(x) > termWeight(y) {
		x, y = y, x
	}
	total := termWeight(x)
	if total < sameSubjectWords {
		return 0, false
	}
	used := make([]bool, len(y))
	shared := 0
next:
	for _, u := range x {
		for j, v := range y {
			if !used[j] && u.cjk == v.cjk && (u.s == v.s || !u.cjk && variants([]unit{u}, []unit{v})) {
				used[j] = true
				shared += termWeight([]unit{u})
				continue next
			}
		}
	}
	overlap = float64(shared) / float64(total)
	return overlap, shared >= sameSubjectWords && overlap >= sameSubjectMin
}

// subjectUnits are t's content words without its values, split at hyphens.
func subjectUnits(t *Text) []unit {
	var out []unit
	for _, u := range hyphenParts(t.shapeOf().units) {
		// "---" is a unit of the shape with nothing in it
		if !u.value && fold(u.s) != "" {
			out = append(out, u)
		}
	}
	return out
}

// SameSubjectAmong lists the contents on the same subject as new
// (SameSubject), the most overlapping first and at most most of them; ties
// keep file order.
//
// A store runs this over every entry of its category, and reading each
// entry's words in order costs a store into a category of 1,000 entries
// several times the rest of its work (BenchmarkSameSubjectAmong). So each
// content is first scanned for the keys of new's words (subjectKeys): an
// entry without two words' weight of them cannot pass SameSubject and is
// not read further.
func SameSubjectAmong(new *Text, contents []string, most int) []int {
	type hit struct {
		i       int
		overlap float64
	}
	keys := subjectKeys(new)
	if len(keys.m) == 0 {
		return nil
	}
	overlaps := make([]float64, len(contents)) // 0: not on the subject
	parallel(len(contents), func(from, to int) {
		var ks keyScan
		for i := from; i < to; i++ {
			if ks.keyWeight(contents[i], keys) < sameSubjectWords {
				continue
			}
			if o, ok := SameSubject(Analyze(contents[i]), new); ok {
				overlaps[i] = o
			}
		}
	})
	sharedRareSpans(new.Raw, contents, overlaps)
	var hits []hit
	for i, o := range overlaps {
		if o > 0 {
			hits = append(hits, hit{i, o})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.overlap, a.overlap) })
	out := make([]int, 0, min(most, len(hits)))
	for _, h := range hits[:min(most, len(hits))] {
		out = append(out, h.i)
	}
	return out
}

// spanHoldersMost is how many entries of a category may hold a code span
// for it to name their subject: a span most entries cite (`main`,
// `pnpm`) is the project's vocabulary, not one subject.
const spanHoldersMost = 2

// sharedRareSpans marks as on new's subject the contents not already so
// that hold one of new's code spans, where at most spanHoldersMost
// contents hold it: "Keep the Kotlin `!!` operator out of production
// code" / "Use `!!` freely …", "Never modify `global.json` unless asked"
// / "Leave `global.json` unchanged …", "`console.log` pode ser usado
// livremente" / "`console.log` é proibido" share two words or fewer, or
// none across languages, and are one subject: a reversal or a restatement
// by meaning, which the verdict stores as new (the tuning halves of
// issue 27's sets: 19 such pairs, 3 second facts on one subject). They
// rank after every entry that shares words.
func sharedRareSpans(new string, contents []string, overlaps []float64) {
	spans := codeSpans(new)
	for _, sp := range slices.Compact(slices.Sorted(slices.Values(spans))) {
		if utf8.RuneCountInString(sp) < 2 || strings.Trim(sp, "0123456789.") == "" {
			continue // a digit or a version names no subject
		}
		quoted := "`" + sp + "`"
		var holders []int
		for i, c := range contents {
			if strings.Contains(c, quoted) {
				if holders = append(holders, i); len(holders) > spanHoldersMost {
					break
				}
			}
		}
		if len(holders) > spanHoldersMost {
			continue
		}
		for _, i := range holders {
			if overlaps[i] == 0 {
				overlaps[i] = spanOverlap
			}
		}
	}
}

// spanOverlap ranks an entry that shares a rare code span and too few
// words below every entry that shares enough words (SameSubject's
// overlap is at least sameSubjectMin).
const spanOverlap = sameSubjectMin / 10

// subjectKeys are what any form of t's subject words shares with them: a
// word's first four letters once folded (variants needs that much in
// common), the word itself when shorter, its synonym group, and each CJK
// character.
func subjectKeys(t *Text) *keySet {
	keys := &keySet{m: map[string]bool{}}
	for _, u := range subjectUnits(t) {
		if u.cjk {
			keys.m[u.s] = true
			continue
		}
		folded := fold(u.s)
		keys.add(folded[:prefixBytes(folded, 4)])
		if g := synonyms[folded]; g != 0 {
			keys.m[synonymKey(g)] = true
		}
	}
	return keys
}

// keySet is a set of keys, with the first two bytes of each word key in a
// bit set: most words of an entry share no key, and are set aside by one
// bit rather than a map lookup.
type keySet struct {
	m    map[string]bool
	lead leadBits
}

type leadBits [1 << 16 / 64]uint64

func leadOf(w []byte) int {
	if len(w) == 1 {
		return int(w[0]) << 8
	}
	return int(w[0])<<8 | int(w[1])
}

func (b *leadBits) set(w []byte)      { i := leadOf(w); b[i/64] |= 1 << (i % 64) }
func (b *leadBits) has(w []byte) bool { i := leadOf(w); return b[i/64]&(1<<(i%64)) != 0 }

func (k *keySet) add(key string) {
	k.m[key] = true
	k.lead.set([]byte(key))
}

// synonymLead holds the first two bytes of every word of the synonyms
// table.
var synonymLead = func() *leadBits {
	b := new(leadBits)
	for w := range synonyms {
		b.set([]byte(w))
	}
	return b
}()

// synonymKey is the key of a synonym group: no word's prefix, and the same
// string for every caller.
func synonymKey(g int) string { return synonymKeys[g] }

var synonymKeys = func() []string {
	most := 0
	for _, g := range synonyms {
		most = max(most, g)
	}
	out := make([]string, most+1)
	for g := range out {
		out[g] = "\x00" + strconv.Itoa(g)
	}
	return out
}()

// keyWeight is at least the weight (in half words) of content's words that
// share a key with SameSubject's other text, by a scan that reads more
// words than the shape does (the whole word, each hyphen part, the word
// after an apostrophe): never less than SameSubject would find. It
// allocates nothing: it runs over every entry of a category on each store.
func (ks *keyScan) keyWeight(content string, keys *keySet) int {
	ks.weight = 0
	for _, r := range content {
		if r < utf8.RuneSelf {
			ks.ascii(byte(r), keys)
			continue
		}
		switch {
		case text.IsJSSpace(r):
			ks.flush(keys)
		case isCJK(r):
			ks.flush(keys)
			var b [utf8.UTFMax]byte
			if keys.m[string(b[:utf8.EncodeRune(b[:], r)])] {
				ks.weight++
			}
		case r == '’':
			ks.word = append(ks.word, '\'')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			r = unicode.ToLower(r)
			if f, ok := vocab().accentFold[r]; ok {
				r = f
			}
			ks.word = utf8.AppendRune(ks.word, r)
		case strings.ContainsRune("，、。；！？", r):
			ks.flush(keys)
		}
		// any other character is deleted, as the shape deletes it
	}
	ks.flush(keys)
	return ks.weight
}

// ascii reads one ASCII character of keyWeight's content.
func (ks *keyScan) ascii(c byte, keys *keySet) {
	switch {
	case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		ks.word = append(ks.word, c)
	case 'A' <= c && c <= 'Z':
		ks.word = append(ks.word, c+'a'-'A')
	case c == ' ' || '\t' <= c && c <= '\r':
		ks.flush(keys)
	case c == '-' || c == '\'':
		ks.word = append(ks.word, c)
	case (c == '#' || c == '+') && len(ks.word) > 0:
		// "C#", "C++": the shape keeps the sign
		ks.word = append(ks.word, c)
	case c == '.' && bytes.ContainsAny(ks.word, "0123456789"):
		// "s3.bucket", "go1.x": the shape keeps a dot after a digit
		ks.word = append(ks.word, '.')
	}
	// any other character is deleted, as the shape deletes it
	// ("gorilla/mux" is one word; "tests." ends at the space)
}

// keyScan is keyWeight's state: the word being read, lowercased and folded,
// with its hyphens and apostrophes. Its buffers are reused from one content
// to the next.
type keyScan struct {
	word, part []byte
	weight     int
}

func (ks *keyScan) flush(keys *keySet) {
	w := ks.word
	ks.word = w[:0]
	if len(w) == 0 {
		return
	}
	w = bytes.TrimRight(w, "-.") // as the shape trims a word's end
	if bytes.IndexByte(w, '-') < 0 && bytes.IndexByte(w, '\'') < 0 {
		// the common word, with no mark to read it around
		if hasKey(keys, w) {
			ks.weight += 2
		}
		return
	}
	// the whole word, then a part after each mark (a hyphen part, or the
	// word an elision leaves), each a word of its own to the shape
	// ("blue-green-canary" is three), so each weighs its own
	if ks.matches(keys, w) {
		ks.weight += 2
	}
	for i := 0; i < len(w); i++ {
		if (w[i] == '-' || w[i] == '\'') && ks.matches(keys, w[i+1:]) {
			ks.weight += 2
		}
	}
}

// matches: w, without its marks, has a key. A part cut at a hyphen is read
// up to the next hyphen too, which is enough: a key is a word's first four
// letters, or the whole of a shorter one.
func (ks *keyScan) matches(keys *keySet, w []byte) bool {
	full := ks.part[:0]
	for _, c := range w {
		if c != '-' && c != '\'' {
			full = append(full, c)
		}
	}
	ks.part = full
	upto := ks.part[:0:0]
	if i := bytes.IndexAny(w, "-'"); i >= 0 {
		upto = w[:i]
	}
	return hasKey(keys, full) || hasKey(keys, upto)
}

// hasKey: the word w (no marks) has a key of keys: its first four letters,
// or its synonym group.
func hasKey(keys *keySet, w []byte) bool {
	if len(w) == 0 {
		return false
	}
	if keys.lead.has(w) && keys.m[string(w[:runePrefixLen(w, 4)])] {
		return true
	}
	if len(w) > synonymLongest || !synonymLead.has(w) {
		return false
	}
	g := synonyms[string(w)]
	return g != 0 && keys.m[synonymKey(g)]
}

// synonymLongest is the length of the longest word of the synonyms table.
var synonymLongest = func() int {
	n := 0
	for w := range synonyms {
		n = max(n, len(w))
	}
	return n
}()

// runePrefixLen is the length in bytes of the first n runes of b.
func runePrefixLen(b []byte, n int) int {
	i := 0
	for ; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}
