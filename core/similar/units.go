package similar

import (
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
	// at is where old and new begin: the number of units the texts
	// share before them.
	at int
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
	d := unitDiff{old: x, new: y, at: p}
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

// valueSlot reports whether the swapped term is the same thing given
// another value, in the slot after the subject: one word each side, not
// the first (which names what the sentence is about), and as written in
// the raw texts one of the pairs sameThingMoved reads (issue 27's eighth
// set). Two different paths, files or names are a sibling: "Skip the check
// for changes under docs/" / "… under .github/", "Publish to queue0" /
// "… to queue1" (the earlier sets' and a red team's).
func (d unitDiff) valueSlot(oldRaw, newRaw string) bool {
	if len(d.old) != 1 || len(d.new) != 1 || d.at == 0 || d.old[0].cjk || d.new[0].cjk {
		return false
	}
	a, b := rawWord(oldRaw, d.old[0].s), rawWord(newRaw, d.new[0].s)
	return a != "" && b != "" && sameThingMoved(a, b)
}

// sameThingMoved reports whether two words as written are one thing with
// another value:
//   - a file or folder that moved: the same last part under another
//     folder ("client/.github/x.md" / "apps/client/.github/x.md",
//     "`web/nyx/`" / "`services/nyx/`"), or a folder renamed in place
//     ("features/crm" / "features/customer", "docs/adr" / "docs/decisions";
//     two files of one folder are two things: "scripts/check-a.sh" /
//     "scripts/check-b.sh"), or a file in another format
//     ("configs/first_minute.yaml" / "configs/first_minute.toml");
//   - a naming pattern ("docs/<slug>" / "docs/<yyyy-mm>-<slug>",
//     "collector.py" / "<impl>.py");
//   - a locale ("en-GB" / "en-US");
//   - a version: the same name with other digits, two or more of them
//     ("ES2019" / "ES2022", "python311" / "python312"; "queue0" / "queue1"
//     number two instances).
func sameThingMoved(a, b string) bool {
	switch {
	case strings.Contains(a, "<") || strings.Contains(b, "<"):
		return pathLike(a) || pathLike(b) || strings.Contains(a, "<") && strings.Contains(b, "<")
	case locale(a) && locale(b):
		return true
	}
	if pa, va, ok := versioned(a); ok {
		if pb, vb, ok := versioned(b); ok && pa == pb && va != vb {
			return true
		}
	}
	if !pathLike(a) || !pathLike(b) {
		return false
	}
	da, la := splitLast(a)
	db, lb := splitLast(b)
	if la == lb && da != db {
		return true
	}
	if da != db || la == lb {
		return false
	}
	ia, ib := strings.LastIndexByte(la, '.'), strings.LastIndexByte(lb, '.')
	if ia > 0 && ib > 0 {
		return la[:ia] == lb[:ib] // one file in another format
	}
	return da != "" && ia < 0 && ib < 0
}

// otherFiles reports whether each side of the difference names a path or a
// file the other does not, and no two of them are one thing moved
// (sameThingMoved); the reason names the first of each.
func (d unitDiff) otherFiles(oldRaw, newRaw string) (reason string, ok bool) {
	files := func(us []unit, raw string) []string {
		var out []string
		for _, u := range us {
			if w := rawWord(raw, u.s); u.joined && pathLike(w) {
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
			if x == y || sameThingMoved(x, y) {
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

// splitLast is a path's folder and its last part, a trailing slash aside.
func splitLast(w string) (dir, last string) {
	w = strings.TrimRight(w, "/")
	i := strings.LastIndexByte(w, '/')
	if i < 0 {
		return "", w
	}
	return w[:i], w[i+1:]
}

// locale reports whether w is a language and region: "en-GB", "pt_BR".
func locale(w string) bool {
	lang, region, ok := strings.Cut(w, "-")
	if !ok {
		lang, region, ok = strings.Cut(w, "_")
	}
	return ok && len(lang) == 2 && len(region) == 2 && strings.ToUpper(region) == region &&
		strings.ToLower(lang) == lang && strings.ToUpper(lang) != lang
}

// versioned splits a name that ends in two digits or more, after letters:
// "ES2019" is "es" and "2019".
func versioned(w string) (name, digits string, ok bool) {
	i := len(w)
	for i > 0 && w[i-1] >= '0' && w[i-1] <= '9' {
		i--
	}
	if len(w)-i < 2 || i == 0 || strings.ContainsAny(w[:i], "0123456789/") {
		return "", "", false
	}
	return strings.ToLower(w[:i]), w[i:], true
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
	var b strings.Builder
	fold := vocab().accentFold
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
// "endings").
func hyphenParts(us []unit) []unit {
	var out []unit
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
