package rules

import (
	"fmt"
	"regexp"
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
	if mapsTerms(a.Raw) && mapsTerms(b.Raw) {
		return "" // "`moment` → `date-fns`" / "`date-fns` → `moment`": a migration reversed
	}
	if statesNoRule(a.Raw) || statesNoRule(b.Raw) {
		return "a line of code, a heading or a lead-in: it may state no rule"
	}
	if linksTo(a.Raw, b.Raw) || linksTo(b.Raw, a.Raw) {
		return "a table of contents' line: it states no rule"
	}
	if similar.MayOnlyQualify(a, b) {
		return "it may add an exception rather than reverse"
	}
	if why := similar.OtherNegationRole(a, b); why != "" {
		return why
	}
	if !similar.MinimalReversal(a, b) {
		return "other words differ too: it may not be the same rule"
	}
	return ""
}

// statesNoRule reports whether an entry's text is a form that states no
// rule by itself: one code span and nothing else, a mapping of code
// ("`ComObjCreate()` → `ComObject()`"), a practice named by a verb in -ing with no verb of a
// rule in its sentence (a list of anti-patterns: "Mocking the database in
// integration tests."), a lead-in ending in a colon ("**Do not log:**"),
// or a title: three capitalised words or more, the small ones aside, no
// sentence mark, and no verb of a rule first ("Things NOT to Do",
// "Response (200 OK) - Tem Permissão"; not "Use Tailwind CSS" nor "Always
// Use Yarn", a red team's).
func statesNoRule(content string) bool {
	if similar.OneCodeSpan(content) || mapsTerms(content) || namesPractice(content) {
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

// linksTo reports whether link is a link and nothing else whose words are
// all of text's: a table of contents' line beside its heading
// ("[禁止行為](#禁止行為)" / "禁止行為"). A link whose words state a rule
// the other text does not ("[Never run migrations in CI](#ci)" beside
// "Always run migrations in CI.") is read as words (a red team's).
func linksTo(link, text string) bool {
	m := linkOnly.FindStringSubmatch(link)
	return m != nil && strings.EqualFold(strings.TrimSpace(m[1]), strings.Trim(strings.TrimSpace(text), "*_#: "))
}

var linkOnly = regexp.MustCompile(`^\s*[*_]*\[([^\]]+)\]\([^)\s]*\)[*_]*\s*$`)

// mapsTerms reports whether content is code mapped to code by an arrow
// and nothing else ("`ComObjCreate()` → `ComObject()`"): a word outside
// the code spans may be a verdict ("`npm install` → never", a red
// team's).
func mapsTerms(content string) bool {
	m := codeArrow.FindStringSubmatch(strings.TrimSpace(content))
	return m != nil
}

var codeArrow = regexp.MustCompile("^`[^`]+`\\s*(?:→|->|=>)\\s*`[^`]+`$")

// namesPractice reports whether content opens with a verb in -ing and
// holds no word that would make it a rule ("is", "must", "never", "only",
// "do" …), in any of its sentences: "Writing multiple tests before making
// any pass. **One per cycle.**" names a practice a list's heading judges;
// "Force-pushing to `main` is allowed" and "Caching API responses in
// Redis: do it." (a red team's) state rules.
func namesPractice(content string) bool {
	c := strings.TrimLeft(content, "*_ ")
	words := strings.FieldsFunc(c, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
	if len(words) < 2 {
		return false
	}
	first := words[0]
	r, _ := utf8.DecodeRuneInString(first)
	if !unicode.IsUpper(r) || len(first) < 6 || !strings.HasSuffix(first, "ing") || notVerbsInIng[strings.ToLower(first)] {
		return false
	}
	for _, w := range words[1:] {
		if practiceRuleWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// notVerbsInIng end in -ing and name no practice.
var notVerbsInIng = text.WordSet(`nothing everything something anything string strings during morning evening spring
	thing things bring ring king wing ping pudding ceiling`)

// practiceRuleWords make a sentence opening with -ing a rule.
var practiceRuleWords = text.WordSet(`is are was were be been must should shall will would can could may might need needs
	always never not no don't dont only required requires forbidden allowed mandatory prohibited banned
	ok okay fine preferred discouraged encouraged recommended do does yes nope nein nicht avoid prefer bad good wrong right`)

// ruleVerbs open a rule in a few capitalised words ("Prefer Tabs Over
// Spaces", "Avoid Lodash"), beside directive's imperative verbs.
var ruleVerbs = text.WordSet(`avoid prefer keep require ensure allow deny forbid permit ship put leave grant
	make let stop start build deploy test check store log write read call treat mark support`)

// titleSmallWords are the words a title leaves in lower case.
var titleSmallWords = text.WordSet(`a an the and or nor but of to in on at by for from with as vs via into per
	de da do das dos la le les el los del des du en et y e o para por com sem em no na und der die von zu mit für`)
