package similar

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Polarity said in other words than the other text's (issue 27). A
// negation set against a word that means one ("prevent using X" / "do not
// use X", "keep X unchanged" / "do not modify X") may restate the rule or
// reverse it, and the words cannot tell which: it is not claimed a
// reversal; the new text replaces the old as before, and the reply,
// conflicts.log and check say nothing of reversing. A negation moved to
// another sentence of the same words is no duplicate (negationChangesClause).
// Three red teams' pairs hold the readings in place (TestPolarityReadings),
// and broke the readings withdrawn beside them: a negation in an aside
// ("(not for docs-only edits)" read as an exception let "(not any longer)"
// revoke a rule unclaimed), and negators moving with their words in free
// word order (Russian reversals said in another order lost their claim).

// affirmedOwnWords reports whether, of two texts of opposite sign, the
// affirmative one's Core holds one word the negated one's lacks (in no form
// of it), a word that says the negation in its meaning ("prevent",
// "unchanged"), and the negated one at most one of its own. Two words or
// more are a clause of their own ("… to prevent abuse").
func affirmedOwnWords(old, new *Text) bool {
	pos, neg := old, new
	if old.effectiveSign() < 0 {
		pos, neg = new, old
	}
	if !slices.ContainsFunc(pos.Core(), negativeInMeaning) {
		return false // the common case, read without comparing words
	}
	own := func(a, b []string) []string {
		var out []string
		for _, x := range a {
			if !slices.ContainsFunc(b, func(y string) bool { return x == y || variants([]unit{{s: x}}, []unit{{s: y}}) }) {
				out = append(out, x)
			}
		}
		return out
	}
	po, no := own(pos.Core(), neg.Core()), own(neg.Core(), pos.Core())
	if len(po) != 1 || len(no) > 1 || !negativeInMeaning(po[0]) {
		return false
	}
	return negatesTheMeaningWord(shapeTokens(pos.Raw), shapeTokens(neg.Raw), po[0])
}

// negatesTheMeaningWord reports whether each negator of neg governs (the
// next word: "do not modify" → "modify") a verb that restates pos's word of
// negative meaning: "do not modify / change / edit" for "unchanged", "do
// not allow / permit" for "prevent"; or, for "prevent using X", the same
// verb with the same object ("do not use X"). Any other governed word may
// reverse the rule ("Do not freeze X", "Don't ever use X", "Do not block
// force pushes", "Do not use the stable toolchain; use nightly": a red
// team's), and the reversal stays claimed.
func negatesTheMeaningWord(pt, nt []stok, meaning string) bool {
	governed := func(toks []stok, k int) int {
		for j := k + 1; j < len(toks) && toks[j].clause == toks[k].clause; j++ {
			if !governedSkips[toks[j].s] {
				return j
			}
		}
		return -1
	}
	m := slices.IndexFunc(pt, func(t stok) bool { return t.s == meaning })
	if m < 0 {
		return false
	}
	seen := false
	for k, t := range nt {
		if !negator(t) {
			continue
		}
		seen = true
		g := governed(nt, k)
		if g < 0 {
			return false
		}
		if restates[meaning][nt[g].s] {
			continue
		}
		a := governed(pt, m)
		if a < 0 || !sameWordForm(nt[g].s, pt[a].s) {
			return false
		}
		og, oa := governed(nt, g), governed(pt, a)
		if og < 0 || oa < 0 || nt[og].s != pt[oa].s {
			return false // "prevent using nightly" / "do not use the stable …"
		}
	}
	return seen
}

// restates are, for each word of negative meaning, the verbs that say it
// negated: to keep a thing unchanged is not to modify it, to prevent a
// thing is not to allow it.
var restates = func() map[string]map[string]bool {
	unchanged := text.WordSet(`modify change edit alter touch rewrite reformat tamper
		ändern bearbeiten verändern modifier changer éditer modificar cambiar editar alterar
		изменять меняй изменяй менять правь`)
	prevent := text.WordSet("allow permit autoriser permettre erlauben zulassen permitir разрешать допускать")
	out := map[string]map[string]bool{}
	for w := range text.WordSet(`unchanged untouched unmodified unaltered intact unverändert inchangé inchangée
		inchangés inchangées inalterado inalterada inalterados intacto intacta неизменным неизменной неизменными`) {
		out[w] = unchanged
	}
	for w := range text.WordSet(`prevent prevents prevented preventing verhindern verhindert verhindere empêcher
		empêche empêchez impedir impide impida evitar evita evite предотвращать предотвращай предотвращайте`) {
		out[w] = prevent
	}
	return out
}()

// negativeInMeaning reports whether a word says a negation without being
// a negator: to prevent X is to make X not happen, to keep X unchanged is
// not to change it. They are not negators (reading "to prevent abuse" as
// one lost facts: e8edf01); affirmedOwnWords reads them only to withhold
// the word "reverses".
func negativeInMeaning(w string) bool { return restates[w] != nil }

// shortVerbStem is an English verb without its ending, for the short verbs
// whose forms variants does not join ("use" / "using", "run" / "runs").
func shortVerbStem(w string) string {
	for _, end := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(end)+1 && strings.HasSuffix(w, end) {
			w = w[:len(w)-len(end)]
			break
		}
	}
	return strings.TrimSuffix(w, "e")
}

// governedSkips are the words between a negator and the word it governs:
// "do not *use*", "never to *modify*".
var governedSkips = text.WordSet("do does did to be the a an")

// negationChangesClause reports whether two texts of several sentences or
// clauses pair their content words with negations differently: each
// clause read as its words (sorted) and whether a negator flips it, the
// two lists differ although every clause's words recur. "Never deploy on
// Fridays; deploy on Mondays" / "Deploy on Mondays; never deploy on
// Fridays" pair them alike, and say the same.
func negationChangesClause(a, b string) bool {
	clauses := func(raw string) []string {
		toks := shapeTokens(raw)
		var out []string
		for i := 0; i < len(toks); {
			j, flips := i, 0
			var words []string
			for ; j < len(toks) && toks[j].clause == toks[i].clause; j++ {
				switch {
				case negator(toks[j]):
					flips++
				case toks[j].unit:
					words = append(words, toks[j].s)
				}
			}
			slices.Sort(words)
			out = append(out, strings.Join(words, " ")+"\x00"+strconv.Itoa(flips%2))
			i = j
		}
		slices.Sort(out)
		return out
	}
	ca, cb := clauses(a), clauses(b)
	if len(ca) < 2 || len(ca) != len(cb) || slices.Equal(ca, cb) {
		return false
	}
	words := func(cs []string) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i], _, _ = strings.Cut(c, "\x00")
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(words(ca), words(cb))
}

// rejectsOnlyOtherCode reports whether a's only negation is an aside that
// rejects code ("(NOT `npm run lint:fix`)", "(nicht `yarn`)") and b names
// none of that code, in code or in words: "Always run `npm run fmt:fix`
// (NOT `npm run lint:fix`) before commits" adds detail to "Always run `npm
// run fmt:fix` before commits" (a real instruction file's, issue 27).
// Where b uses the rejected code, the negation reverses it, as before. An
// aside of words keeps its reading: "(not any longer)" revokes (a red
// team's).
func rejectsOnlyOtherCode(a, b *Text) bool {
	if !strings.Contains(a.Raw, "(") {
		return false
	}
	asides := codeAside().FindAllStringIndex(a.Raw, -1)
	if asides == nil {
		return false
	}
	var rest strings.Builder
	var rejected []string
	last := 0
	for _, x := range asides {
		rest.WriteString(a.Raw[last:x[0]])
		rejected = append(rejected, codeSpans(a.Raw[x[0]:x[1]])...)
		last = x[1]
	}
	rest.WriteString(a.Raw[last:])
	if slices.ContainsFunc(shapeTokens(rest.String()), negator) {
		return false
	}
	words := strings.Fields(b.Raw)
	for _, r := range rejected {
		for _, u := range codeSpans(b.Raw) {
			if sameCommand(u, r) || sameCommand(r, u) {
				return false
			}
		}
		for _, w := range words {
			if strings.EqualFold(strings.Trim(w, ".,;:!?()`"), r) {
				return false
			}
		}
	}
	return true
}

// codeAside is an aside that rejects code and says nothing else.
var codeAside = sync.OnceValue(func() *regexp.Regexp {
	const code = "`[^`\\n]+`"
	return regexp.MustCompile(`\(\s*(?i:not|no|nicht|pas|non|не)\s+` + code + `(?:\s*(?:,|/|or|nor|oder|ou|o|или)\s*` + code + `)*\s*\)`)
})

// codeSpans are the contents of s's code spans (text.CodeSpans).
func codeSpans(s string) []string {
	var out []string
	for _, c := range text.CodeSpans(s) {
		out = append(out, strings.TrimSpace(s[c.Inner.Start:c.Inner.End]))
	}
	return out
}

// sameCommand reports whether u is the command r, or r with arguments:
// `npm` and `npm install`.
func sameCommand(u, r string) bool {
	return strings.EqualFold(u, r) || len(u) > len(r) && strings.EqualFold(u[:len(r)+1], r+" ")
}
