package similar

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unitDiff is how two texts differ word by word, once their common start and
// end are set aside.
type unitDiff struct {
	// sibling: one term replaced by another ("frontend" / "backend",
	// "Windows" / "macOS", 用户 / 表单): the same sentence about a different
	// thing is a second fact.
	sibling bool
	// adds: the new text is the old one with words added; drops: with words
	// taken away.
	adds, drops bool
	old, new    []unit
}

// maxTermWeight bounds a substituted term: two words, or four CJK
// characters (a CJK character weighs half a word). Vietnamese writes one word
// as two syllables, and "design system" is as much one thing as "frontend".
const maxTermWeight = 4 // in half words

func compareUnits(a, b []unit) unitDiff {
	p := 0
	for p < len(a) && p < len(b) && a[p].s == b[p].s {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s].s == b[len(b)-1-s].s {
		s++
	}
	x, y := a[p:len(a)-s], b[p:len(b)-s]
	d := unitDiff{old: x, new: y}
	switch {
	case len(x) == 0 && len(y) == 0:
	case len(x) == 0:
		d.adds = true
	case len(y) == 0:
		d.drops = true
	default:
		d.sibling = termWeight(x) <= maxTermWeight && termWeight(y) <= maxTermWeight &&
			!sharesUnit(x, y) && !(allValues(x) && allValues(y)) && !variants(x, y) && !sharesStem(x, y)
	}
	return d
}

// otherFiles reports whether each side of the difference names a path or a
// file the other does not; the reason names the first of each. Whether
// "features/crm" / "features/customer" is a folder renamed or a second
// folder, words cannot tell: a red team's "Never edit packages/api/generated
// by hand" / "… packages/web/generated …" are two rules, as two locales,
// two RFCs or two formats of one file are.
func (d unitDiff) otherFiles(oldRaw, newRaw string) (reason string, ok bool) {
	files := func(us []unit, raw string) []string {
		var out []string
		for _, u := range us {
			if !u.joined {
				continue
			}
			if w := rawWord(raw, u.s); pathLike(w) {
				out = append(out, w)
			}
		}
		return out
	}
	a, b := files(d.old, oldRaw), files(d.new, newRaw)
	if len(a) == 0 || len(b) == 0 {
		return "", false
	}
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return "", false
			}
		}
	}
	return `sibling: "` + a[0] + `" vs "` + b[0] + `"`, true
}

// rawWord is the word of raw, as written, that reads as the unit u, or ""
// when none does.
func rawWord(raw, u string) string {
	for _, f := range strings.Fields(raw) {
		w := f
		for prev := ""; prev != w; {
			prev = w
			w = strings.TrimRight(strings.Trim(w, "`'\"()[]{},;:!?。、，；：（）「」"), ".")
		}
		var b strings.Builder
		for _, r := range strings.ToLower(w) {
			if r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		if b.String() == u {
			return w
		}
	}
	return ""
}

// pathLike reports whether a word is a path or a file name: a slash, or an
// extension after a name.
func pathLike(w string) bool {
	if strings.Contains(w, "/") {
		return true
	}
	i := strings.LastIndexByte(w, '.')
	return i > 0 && i < len(w)-1
}

// reason names the two terms, for the store reply and the finding.
func (d unitDiff) reason() string {
	return "sibling: " + quoteUnits(d.old) + " vs " + quoteUnits(d.new)
}

func quoteUnits(us []unit) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, u := range us {
		if i > 0 && !(u.cjk && us[i-1].cjk) {
			b.WriteByte(' ')
		}
		b.WriteString(u.s)
	}
	b.WriteByte('"')
	return b.String()
}

func termWeight(us []unit) int {
	w := 0
	for _, u := range us {
		if u.cjk {
			w++
		} else {
			w += 2
		}
	}
	return w
}

func sharesUnit(x, y []unit) bool {
	for _, a := range x {
		for _, b := range y {
			if a.s == b.s {
				return true
			}
		}
	}
	return false
}

func allValues(us []unit) bool {
	for _, u := range us {
		if !u.value {
			return false
		}
	}
	return true
}

// variants: the two terms are one word written two ways — with and without
// hyphens or accents ("auto-scaling", "Résumé"), or two forms of one stem
// ("title" / "titles", "configure" / "configured").
func variants(x, y []unit) bool {
	if len(x) != 1 || len(y) != 1 || x[0].cjk || y[0].cjk {
		return foldUnits(x) == foldUnits(y)
	}
	a, b := fold(x[0].s), fold(y[0].s)
	if a == b || synonyms[a] != 0 && synonyms[a] == synonyms[b] {
		return true
	}
	if x[0].joined || y[0].joined {
		return false // "feat/fix/ref" / "feat/fix/ref/test": a part more
	}
	n := commonPrefix(a, b)
	if strings.ContainsAny(a[prefixBytes(a, n):], "0123456789") || strings.ContainsAny(b[prefixBytes(b, n):], "0123456789") {
		return false // queue0 / queue1: two names, not two forms of one
	}
	ra, rb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	// "commit" / "committing" doubles a consonant before its ending: one
	// more letter is allowed where the stem is long
	most := 3
	if n >= 5 {
		most = 4
	}
	return n >= 4 && ra-n <= most && rb-n <= most
}

// sharesStem: a word of one term is a form or a synonym of a word of the
// other ("resets every night" / "is reset nightly", "call" / "talk to"):
// the same fact reworded, not a second one.
func sharesStem(x, y []unit) bool {
	for _, a := range x {
		for _, b := range y {
			if !a.cjk && !b.cjk && variants([]unit{a}, []unit{b}) {
				return true
			}
		}
	}
	return false
}

func foldUnits(us []unit) string {
	var b strings.Builder
	for _, u := range us {
		b.WriteString(fold(u.s))
	}
	return b.String()
}

// fold drops hyphens and the accents of Latin letters.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf && s[i] != '-'
	}
	if ascii {
		return s // the common case, with nothing to fold
	}
	fold := vocab().accentFold
	// Text in other scripts (CJK, Cyrillic) has nothing to fold either:
	// copying it anyway was the largest allocation of a check of a CJK
	// registry (TestE2EShapeReversalRegistryMemory).
	if !strings.ContainsFunc(s, func(r rune) bool { _, ok := fold[r]; return ok || r == '-' }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '-' {
			continue
		}
		if f, ok := fold[r]; ok {
			r = f
		}
		b.WriteRune(r)
	}
	return b.String()
}

// prefixBytes is the length in bytes of the first n runes of s.
func prefixBytes(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// commonPrefix counts the runes a and b start with alike.
func commonPrefix(a, b string) int {
	n := 0
	for a != "" && b != "" {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			break
		}
		n++
		a, b = a[sa:], b[sb:]
	}
	return n
}

// accentFolds maps the accented Latin letters to their base letter.
func accentFolds() map[rune]rune {
	fold := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ", 'h': "ĥħ",
		'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ", 'o': "òóôõöøōŏő",
		'r': "ŕŗř", 's': "śŝşšß", 't': "ţťŧ", 'u': "ùúûüũūŭůűų", 'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range accented {
			fold[r] = base
		}
	}
	return fold
}

// synonyms groups words that name one thing or one act in the memory of
// software teams: a swap within a group is a rewording ("Handlers must not
// call the database directly" / "… may not talk to the database …",
// "Deploy to Kubernetes" / "… to k8s"), never a second fact. Only words
// whose senses all agree are grouped: a swap the table misses is reported
// as a sibling, which loses nothing.
var synonyms = func() map[string]int {
	m := map[string]int{}
	for g, group := range []string{
		"call talk access query hit reach contact",
		"use utilise utilize employ",
		"run execute invoke",
		"start begin",
		"delete erase",
		"kubernetes k8s",
		"javascript js",
		"typescript ts",
		"database db",
		"repository repo",
		"configuration config",
		"documentation docs documents doc",
		"production prod",
		"development dev",
		"environment env",
		"dependencies deps",
		"directory dir folder",
		"nightly daily",
	} {
		for _, w := range strings.Fields(group) {
			m[w] = g + 1
		}
	}
	return m
}()

// sameWords reports whether two texts' content words are the same once
// split at hyphens, in any order, a word matching another of its forms or
// synonyms (variants).
func sameWords(a, b []unit) bool {
	x, y := hyphenParts(a), hyphenParts(b)
	if len(x) != len(y) || len(x) == 0 {
		return false
	}
	used := make([]bool, len(y))
next:
	for _, u := range x {
		for j, v := range y {
			if !used[j] && (u.s == v.s || variants([]unit{u}, []unit{v})) {
				used[j] = true
				continue next
			}
		}
		return false
	}
	return true
}

// hyphenParts splits the units at hyphens ("line-endings" is "line" and
// "endings"). Units without a hyphen are given back as they are, not
// copied: classify asks this of every candidate pair, and the copies were
// most of what a check of a large registry allocated
// (TestE2EShapeReversalRegistryMemory). Callers only read the result.
func hyphenParts(us []unit) []unit {
	if !slices.ContainsFunc(us, func(u unit) bool { return !u.cjk && strings.Contains(u.s, "-") }) {
		return us
	}
	out := make([]unit, 0, len(us)+2)
	for _, u := range us {
		if u.cjk || !strings.Contains(u.s, "-") {
			out = append(out, u)
			continue
		}
		for p := range strings.SplitSeq(u.s, "-") {
			if p != "" {
				out = append(out, unit{s: p, value: u.value})
			}
		}
	}
	return out
}
