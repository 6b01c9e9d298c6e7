package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/directive"
	"github.com/memory-lsp/memory-lsp/core/memfile"
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
		// The rule is information (issue 27's files sets: on real
		// instruction files read as memory every reversal was false), so
		// every pair is shown and none counted; where the words cannot
		// tell a reversal from documented cases, a heading against its
		// content or a rule and its exception, the message says why. The
		// store still reads the pair as a reversal.
		if why := mayNotReverse(w.texts[j], w.texts[b.conflict], e, oe); why != "" {
			fd.Message += " (" + why + ")"
		}
		w.report(fd)
	}
}

// mayNotReverse says why a pair read as a reversal may be none, or is
// empty: one of them states no rule (statesNoRule, a checklist's item, a
// list's mark against its words), or one may only add an exception to the
// other (similar.MayOnlyQualify). It reads the analyses the pairs were
// found with, and the entries (ea, eb) for their slugs.
func mayNotReverse(a, b *similar.Text, ea, eb *memfile.Entry) string {
	if mapsTerms(a.Raw) && mapsTerms(b.Raw) {
		return "" // "`moment` → `date-fns`" / "`date-fns` → `moment`": a migration reversed
	}
	if statesNoRule(a.Raw) || statesNoRule(b.Raw) {
		return "a line of code, a heading or a lead-in: it may state no rule"
	}
	if checkboxSlug(ea) || checkboxSlug(eb) {
		// "- [ ] Metrics not validated" / "- [ ] Metrics validated": a
		// checklist's items name checks, and HackLM reads the box as a
		// slug (the checkbox rule says so); issue 27's tuning pool of real
		// instruction files
		return "a checklist's item: it names a check, not a rule"
	}
	if markDisagrees(a) || markDisagrees(b) {
		return "a list's mark (❌, ✅) says how to read it, not its words"
	}
	if linksTo(a.Raw, b.Raw) || linksTo(b.Raw, a.Raw) {
		return "a table of contents' line: it states no rule"
	}
	if sameWords(withoutAsides(a.Raw), withoutAsides(b.Raw)) {
		// "**Impact: LOW**" / "**Impact: LOW (avoids re-creation)**": an
		// aside adds a note or an exception to the same sentence (issue
		// 27's labelled files sets)
		return "they differ only in an aside in parentheses"
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
	if similar.OneCodeSpan(content) || mapsTerms(content) || namesPractice(withoutAsides(content)) {
		return true
	}
	c := strings.TrimSpace(content)
	if strings.HasPrefix(c, "|") && strings.HasSuffix(c, "|") {
		// a table's row: its cells are read with the table's heading
		// (issue 27's tuning pool of real instruction files)
		return true
	}
	if pointsAtExample(c) || !strings.ContainsFunc(c, unicode.IsLetter) {
		return true
	}
	c = strings.TrimRight(c, "*_ ")
	if strings.HasSuffix(c, ":") || strings.HasSuffix(c, "：") {
		return true
	}
	if r, _ := utf8.DecodeLastRuneInString(c); strings.ContainsRune(".!?。！？;", r) {
		return false
	}
	if conditionOnly(c) || namesAList(c) {
		return true
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

// checkboxSlug reports whether HackLM reads e's slug from a task list's
// box ("- [ ] …", "- [x] …").
func checkboxSlug(e *memfile.Entry) bool {
	return e.HasSlug && (e.Slug == " " || e.Slug == "x" || e.Slug == "X")
}

// markDisagrees reports whether t opens with a cross mark and its words
// negate nothing, or with a check mark and its words negate, emphasis and
// quote marks aside. In lists of do's and don'ts the mark carries the
// sign: "❌ 依赖第三方服务" says "不要依赖第三方服务" (issue 27's tuning pool
// of real instruction files). Where the mark agrees with the words ("✅ Use
// pnpm", "❌ Never push to main": a red team's) they are read as they are.
func markDisagrees(t *similar.Text) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(t.Raw, " \t*_>"))
	return listMark(r)*int(t.Sign) < 0
}

// listMark is the sign a list's mark gives what follows it: -1 for a
// cross, 1 for a check, 0 for anything else.
func listMark(r rune) int {
	switch r {
	case '❌', '🚫', '⛔', '✗', '✘', '✖', '❎', '👎':
		return -1
	case '✅', '✔', '☑', '👍':
		return 1
	}
	return 0
}

// withoutAsides is s without its parts in parentheses: "Using `x` directly
// (use `make lint` instead)" names the practice its list's heading judges;
// the aside says what to do instead.
func withoutAsides(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(' || r == '（':
			depth++
		case (r == ')' || r == '）') && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// sameWords reports whether a and b hold the same words, case, marks and
// spacing aside, and any at all.
func sameWords(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	wa, wb := split(a), split(b)
	return len(wa) > 0 && slices.Equal(wa, wb)
}

// pointsAtExample reports whether content's words only point at what
// follows it, with or without a negation: "❌ Don't Do This", "✅ Do This
// Instead", "Avoid this:". The rule is in the example, not in the words.
func pointsAtExample(content string) bool {
	words := strings.FieldsFunc(strings.ToLower(content), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	pointer := false
	for _, w := range words {
		switch {
		case examplePointers[w]:
			pointer = true
		case !exampleFrame[w]:
			return false
		}
	}
	return pointer
}

var examplePointers = text.WordSet(`this these that following here`)

var exampleFrame = text.WordSet(`do don't don’t dont not never no avoid use instead like the as an a
	bad good wrong right correct incorrect example examples pattern`)

// conditionOnly reports whether a short text without a sentence mark or a
// comma is a condition or a time and nothing else: a heading over the
// rules that follow ("When to use" / "When NOT to use", "Before Creation" /
// "After Creation"), which says no rule by itself (issue 27's tuning pool
// of real instruction files). Three words at most, polarity words aside: a
// red team's "When in doubt ask", "Before pushing run the tests" are rules.
func conditionOnly(c string) bool {
	if strings.ContainsAny(c, ",，、") {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(c), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(words) == 0 || !conditionOpeners[words[0]] {
		return false
	}
	n := 0
	for _, w := range words {
		if !ruleOpeners[w] {
			n++
		}
	}
	return n <= 3
}

// conditionOpeners open a condition, a time or a place relative to
// something else, in the languages the rules read.
var conditionOpeners = text.WordSet(`when whenever if unless before after during while until above below once why how where
	wenn falls bevor nachdem während warum wann quand lorsque si avant après pendant pourquoi
	cuando antes después durante mientras quando depois enquanto когда если перед после пока почему`)

// namesAList reports whether a text without a sentence mark is a list's
// heading rather than a rule (issue 27's tuning pool of real instruction
// files): things to do something with ("Words and phrases TO use" / "… to
// AVOID", "Commands to run"), a lead-in that lost its colon ("Use Context
// For"), or in Chinese a thing that a word of permission qualifies
// ("允许的目录操作" / "禁止的目录操作"). A few words with no verb of a rule
// ("Squash commits", "Semicolons required", "pnpm verwenden") are rules: a
// red team's.
func namesAList(c string) bool {
	if permittedThing(strings.TrimLeftFunc(c, func(r rune) bool { return unicode.IsSpace(r) || listMark(r) != 0 })) {
		return true
	}
	if strings.ContainsFunc(c, func(r rune) bool { return r >= 0x1100 && unicode.IsLetter(r) }) {
		return false // words are not spaced: "使用 pnpm" is a rule
	}
	words := strings.FieldsFunc(strings.ToLower(c), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	n := len(words)
	if n < 2 || n > 6 {
		return false
	}
	if leadInEnds[words[n-1]] {
		return true
	}
	if words[n-2] != "to" || !handlingVerbs[words[n-1]] || startsRule(words[0]) {
		return false
	}
	for _, w := range words[:n-2] {
		if sentenceVerbs[w] {
			return false // "Agents are allowed to use …", "Be sure to check"
		}
	}
	return true
}

// startsRule: w, in lower case, opens a rule: an imperative verb or a word
// of polarity or obligation.
func startsRule(w string) bool {
	return directive.ImperativeVerb(w) || ruleVerbs[w] || ruleOpeners[w]
}

var ruleOpeners = text.WordSet(`no not never always only don't don’t dont do must should shall cannot can't
	nie niemals immer kein keine nicht jamais toujours ne pas nunca siempre sempre não никогда всегда не нельзя`)

// leadInEnds close a lead-in whose colon was left out.
var leadInEnds = text.WordSet(`for with about of by from into`)

// handlingVerbs end a list's heading after "to": "Words to avoid".
var handlingVerbs = text.WordSet(`use avoid do run know check follow watch consider prefer include exclude read remember skip try`)

// sentenceVerbs make the words before "to" a sentence, not a heading.
var sentenceVerbs = text.WordSet(`is are was were be been am it's that's need needs want wants have has had sure able
	allowed okay ok fine going supposed ought`)

// permittedThing reports whether a short Chinese text is a word of
// permission or advice, what it qualifies, 的 and a thing: the headings
// "允许的目录操作", "不推荐存放的内容". A rule that opens with its verb
// ("修改生成的代码": a red team's) is read as words.
func permittedThing(c string) bool {
	i := strings.LastIndex(c, "的")
	if i <= 0 || utf8.RuneCountInString(c[:i]) > 5 || utf8.RuneCountInString(c[i:]) > 7 {
		return false
	}
	opens := false
	for _, p := range permissionWords {
		opens = opens || strings.HasPrefix(c, p)
	}
	tail := c[i+len("的"):]
	if !opens || tail == "" {
		return false
	}
	for _, r := range tail {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return true
}

// permissionWords open a Chinese heading of what is allowed or advised.
var permissionWords = []string{"允许", "不允许", "禁止", "推荐", "不推荐", "建议", "不建议", "应该", "不应该", "可以", "不可以"}

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
	if !unicode.IsUpper(r) || len(first) < 5 || !strings.HasSuffix(first, "ing") || notVerbsInIng[strings.ToLower(first)] {
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
