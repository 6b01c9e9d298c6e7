package similar

import (
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Where a negation stands, when one text holds all of the other's words and
// more and Classify reads a reversal (issue 27). On real instruction files
// such claims were false (files v1's tuning half): the negation was about
// words only the longer text has ("… without importing the task"). Words
// cannot tell such an exception from a revocation ("… — not mandatory": a
// red team's, against a version that withdrew the store's claim), so the
// store keeps reading a reversal and check shows the pair as information
// (MayOnlyQualify).

// MayOnlyQualify reports whether a pair that Classify reads as a reversal
// may instead be one text adding an exception to the other: one text's
// Core holds all of the other's, and its negators govern only words it
// adds (negatesOnlyOwnWords). A negating verb set against another verb
// ("removed" / "filtered", "Avoid inline styles" / "Write inline styles")
// is not read: without a list of every verb's opposite, a second red team
// found everyday reversals that reading hid.
func MayOnlyQualify(a, b *Text) bool {
	short, long := a, b
	if !subset(a.Core(), b.Core()) {
		short, long = b, a
	}
	if !subset(short.Core(), long.Core()) {
		return false
	}
	return negatesOnlyOwnWords(short, long)
}

// negatesOnlyOwnWords reports whether long's sign differs from short's
// only through negators inserted with words short does not hold:
// "Triggers multiple runs … with different payloads without importing the
// task" adds how to the shorter text, "Refresh token não expirado (30
// dias)" and Portuguese "no banco" ("in the bank") say nothing against a
// text without "expirado" or "banco". A negator still flips where it
// governs a word both hold ("Never use npm in CI" / "Use npm"), an action
// word ("no uses"), nothing but words of time or validity ("no longer
// needed"), where short says something else in its place, or inside an
// aside ("(not any longer)", "(obsolete, do not call it)": a red team's
// revocations).
func negatesOnlyOwnWords(short, long *Text) bool {
	st := shapeTokens(short.Raw)
	lt, aside := asideTokens(long.Raw)
	flips, own := 0, 0
	for k, t := range lt {
		if !negator(t) {
			continue
		}
		flips++
		if g := governedUnit(lt, k); !aside[k] && !t.cjk && g >= 0 && !heldIn(st, lt[g].s) && insertedAgainst(st, lt, k, g) {
			own++
		}
	}
	if own == 0 {
		return false
	}
	shortFlips := 0
	for _, t := range st {
		if negator(t) {
			shortFlips++
		}
	}
	return (flips-own)%2 == shortFlips%2
}

// insertedAgainst reports whether the negator at lt[k] and the word it
// governs at lt[g] stand where short says nothing: between the nearest
// words around them that short holds too, short has no word of its own.
func insertedAgainst(st, lt []stok, k, g int) bool {
	a, b := -1, len(st)
	for p := k - 1; p >= 0; p-- {
		if lt[p].unit {
			if i := slices.IndexFunc(st, func(u stok) bool { return u.unit && sameWordForm(u.s, lt[p].s) }); i >= 0 {
				a = i
				break
			}
		}
	}
	for n := g + 1; n < len(lt); n++ {
		if lt[n].unit {
			if i := slices.IndexFunc(st[a+1:], func(u stok) bool { return u.unit && sameWordForm(u.s, lt[n].s) }); i >= 0 {
				b = a + 1 + i
				break
			}
		}
	}
	for _, t := range st[a+1 : b] {
		if t.flags&fStop == 0 && !vocab().shapeStop[t.s] && !governedSkips[t.s] {
			return false
		}
	}
	return true
}

// asideTokens are shapeTokens of raw with each parenthesised aside a
// clause of its own, and which tokens stand in one.
func asideTokens(raw string) (toks []stok, aside []bool) {
	if !strings.Contains(raw, "(") {
		toks = shapeTokens(raw)
		return toks, make([]bool, len(toks))
	}
	base, depth, start := 0, 0, 0
	add := func(seg string, in bool) {
		last := base
		for _, t := range shapeTokens(seg) {
			t.clause += base
			last = t.clause
			toks = append(toks, t)
			aside = append(aside, in)
		}
		base = last + 1
	}
	for i, r := range raw {
		switch {
		case r == '(':
			if depth == 0 {
				add(raw[start:i], false)
				start = i + 1
			}
			depth++
		case r == ')' && depth > 0:
			depth--
			if depth == 0 {
				add(raw[start:i], true)
				start = i + 1
			}
		}
	}
	add(raw[start:], depth > 0)
	return toks, aside
}

// heldIn reports whether a word of st is w, or a form of it.
func heldIn(st []stok, w string) bool {
	return slices.ContainsFunc(st, func(t stok) bool { return t.unit && sameWordForm(t.s, w) })
}

// governedUnit is the content word a negator at toks[k] governs: the first
// unit after it in its clause, past words and values of time ("not any
// longer", "not since v3"); -1 where that is an action word of the
// polarity vocabulary ("no uses", "not allowed") or a word of validity
// ("no longer needed"), which negate the whole text, or where there is none.
func governedUnit(toks []stok, k int) int {
	for j := k + 1; j < len(toks) && toks[j].clause == toks[k].clause; j++ {
		switch {
		case toks[j].flags&fFlip != 0 || toks[j].flags&fPartner != 0 && !relationWords[toks[j].s] || validityWords[toks[j].s]:
			return -1
		case toks[j].unit && !toks[j].value && !negationTimeWords[toks[j].s]:
			return j
		}
	}
	return -1
}

// negationTimeWords say when a negation holds, not what it is about: "not
// any longer", "no more", "never again", "not since v3".
var negationTimeWords = text.WordSet("longer anymore more again since yet ever until mehr länger plus más")

// relationWords are the partners of the polarity vocabulary that relate
// words rather than act on them: "never on Fridays" is about Fridays.
var relationWords = text.WordSet("with on before above greater higher more mit avec")

// validityWords, negated, revoke the text they stand in: "no longer
// needed", "nicht mehr gültig", "not the case".
var validityWords = text.WordSet(`needed necessary required applies apply valid true accurate correct current
	recommended desired wanted permitted possible supported enforced relevant case effect policy rule
	nötig notwendig gültig erforderlich zulässig aktuell nécessaire valable valide requis
	necesario necesaria válido válida vigente necessário necessária válido obrigatório
	нужно нужен нужна необходимо актуально действует`)

// sameWordForm reports whether two words are one, or forms of one word.
func sameWordForm(a, b string) bool {
	return a == b || variants([]unit{{s: a}}, []unit{{s: b}}) || shortVerbStem(a) == shortVerbStem(b)
}
