// Package hacklm holds HackLM's own text functions, bug for bug: its stop
// words, which core/similar uses as they are, and its keyword extraction and
// normalisation, the reference that the tests hold core/similar's extended
// versions to on ASCII text (and that the stress test uses to see text as
// HackLM sees it). Nothing but tests calls Keywords and Normalize: the
// product uses similar's, which correct HackLM beyond ASCII.
package hacklm

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// stopWords is HackLM's list, verbatim (behaviour spec §6). The entries of
// two letters or fewer can never matter because of the length filter, but are
// kept so the list can be compared with the source at a glance.
//
// Built on first use: at package initialisation it cost every run of the
// binary, most of which never compare texts.
var stopWords = sync.OnceValue(func() map[string]bool {
	stop := map[string]bool{}
	for _, w := range strings.Fields(`a above after all always an and any are as at be because
		been before being below both but by can could dare did do does during each either
		every few for from had has have how i if in into is it its just may me might more
		most must my need neither never no nor not of on only or other our own same shall
		should so some such than that the their them these they this those through to too
		used use using very was we were what when where which while who whom will with would
		yet you your`) {
		stop[w] = true
	}
	return stop
})

// StopWords is HackLM's stop word list, sorted.
func StopWords() []string { return slices.Sorted(maps.Keys(stopWords())) }

// lower is one rune of JavaScript's toLowerCase as far as the result can
// survive HackLM's a–z filter: the only non-ASCII letters that lowercase into
// ASCII are U+0130 (to "i" plus a combining dot the filter deletes) and the
// Kelvin sign, and Go's simple mapping agrees on both.
func lower(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// Keywords is HackLM's keyword extraction, bug for bug: non-ASCII letters
// vanish, so "café" is "caf" and Chinese text has no keywords. Sorted and
// unique. similar.Keywords equals it on ASCII text.
func Keywords(s string) []string {
	var keys []string
	var b strings.Builder
	stop := stopWords()
	flush := func() {
		if b.Len() > 2 && !stop[b.String()] {
			keys = append(keys, b.String())
		}
		b.Reset()
	}
	for _, r := range s {
		r = lower(r)
		switch {
		case text.IsJSSpace(r):
			flush()
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9', r == '-':
			b.WriteRune(r)
		}
	}
	flush()
	slices.Sort(keys)
	return slices.Compact(keys)
}

// Normalize is HackLM's form for the exact-match shortcut: only a–z, 0–9 and
// single spaces survive (hyphens too are deleted here, unlike in keywords).
func Normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		r = lower(r)
		switch {
		case text.IsJSSpace(r):
			space = b.Len() > 0
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
