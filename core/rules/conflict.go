package rules

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/directive"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkConflict flags an entry that reverses an earlier one ("Always X" /
// "Never X"): HackLM sees the two as duplicates (B3); both are read by
// agents. Two texts under one slug that do not reverse each other are
// duplicate-slug's (versions of one entry), not a conflict (issue 27).
func checkConflict(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.conflict < 0 || b.exact >= 0 {
			continue
		}
		r, o := refs[j], refs[b.conflict]
		e, oe := w.entry(r), w.entry(o)
		line := w.entryLineNo(o)
		v := w.pairs[b.conflictP].Verdict
		msg := fmt.Sprintf("reverses line %d: %s", line, quote(oe.Content, 60))
		if v.Reason != "" && v.Reason != "reversal" {
			msg = fmt.Sprintf("reverses line %d (%s): %s", line, v.Reason, quote(oe.Content, 60))
		}
		fd := Finding{File: r.file, Span: entrySpan(e),
			Message: msg,
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the entry it reverses"}}}
		w.pairFixes(&fd, o, r)
		// On real instruction files read as memory every reversal was
		// false (issue 27's files sets): documented cases, headings
		// against their content, code comments, a rule and its exception.
		// Where the words cannot tell, the pair is shown, not counted;
		// the store still reads it as a reversal.
		if why := mayNotReverse(w.texts[j], w.texts[b.conflict]); why != "" {
			fd.Message += " (" + why + ")"
			w.reportAs(max(w.rule.Severity, Information), fd)
			continue
		}
		w.report(fd)
	}
}

// mayNotReverse says why a pair read as a reversal may be none, or is
// empty: one of them states no rule (statesNoRule), or one may only add an
// exception to the other (similar.MayOnlyQualify). It reads the analyses
// the pairs were found with.
func mayNotReverse(a, b *similar.Text) string {
	if statesNoRule(a.Raw) || statesNoRule(b.Raw) {
		return "a line of code, a heading or a lead-in: it may state no rule"
	}
	if similar.MayOnlyQualify(a, b) {
		return "it may add an exception rather than reverse"
	}
	return ""
}

// statesNoRule reports whether an entry's text is a form that states no
// rule by itself: one code span and nothing else, a lead-in ending in a
// colon ("**Do not log:**"), or a title: three capitalised words or more,
// the small ones aside, no sentence mark, and no verb of a rule first
// ("Things NOT to Do", "Response (200 OK) - Tem Permissão"; not "Use
// Tailwind CSS" nor "Always Use Yarn", a red team's).
func statesNoRule(content string) bool {
	if similar.OneCodeSpan(content) {
		return true
	}
	c := strings.TrimSpace(content)
	c = strings.TrimRight(c, "*_ ")
	if strings.HasSuffix(c, ":") || strings.HasSuffix(c, "：") {
		return true
	}
	if r, _ := utf8.DecodeLastRuneInString(c); strings.ContainsRune(".!?。！？;", r) {
		return false
	}
	capitals, first := 0, true
	for _, f := range strings.Fields(c) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case w == "" || !unicode.IsLetter(r) || strings.HasPrefix(f, "`"):
			continue
		case first && (directive.ImperativeVerb(strings.ToLower(w)) || ruleVerbs[strings.ToLower(w)]):
			return false
		case unicode.IsUpper(r):
			capitals++
		case !unicode.IsLower(r) || !titleSmallWords[strings.ToLower(w)]:
			return false
		}
		first = false
	}
	return capitals >= 3
}

// ruleVerbs open a rule in a few capitalised words ("Prefer Tabs Over
// Spaces", "Avoid Lodash"), beside directive's imperative verbs.
var ruleVerbs = text.WordSet(`avoid prefer keep require ensure allow deny forbid permit ship put leave grant
	make let stop start build deploy test check store log write read call treat mark support`)

// titleSmallWords are the words a title leaves in lower case.
var titleSmallWords = text.WordSet(`a an the and or nor but of to in on at by for from with as vs via into per
	de da do das dos la le les el los del des du en et y e o para por com sem em no na und der die von zu mit für`)
