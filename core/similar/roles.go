package similar

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// HackLM's keywords leave out words under three letters and stop words,
// so "Use Go for the CLI, not Python" and "Use Python for the CLI, not
// Go" hold the same keywords, and the new text, read as a duplicate, was
// dropped: the reversal was lost (issue 27's fourth blind set: "Use `uv`
// …, not pip" / "Use pip …, not `uv`"). The same holds for two phrases
// trading roles around a verb ("Copilot handles precision fixes, and you
// take scaffolding" / "Copilot handles scaffolding, and you take
// precision fixes"). A skip drops what the agent was asked to keep, so
// before one is made the texts' whole words are compared.

// coordinators are the words that join the items of a list: two items
// that trade places ("Run lint and test" / "Run test and lint") trade no
// role.
var coordinators = text.WordSet("and or nor plus und oder sowie et ou ni y e o u ni и или либо та і або 和 或 与 及 以及 と や か")

// preferenceWords are the words that rank two options ("Prefer Go over
// Rust", "Use uv, not pip", "X rather than Y", "X > Y"): options that trade
// places around one reverse the rule. Around any other middle the texts
// may say one thing in another order ("Run tests in Docker in CI" / "… in
// CI in Docker") or two facts ("Alice reviews Bob's code" / "Bob reviews
// Alice's code"), so the new text is stored beside the old as a pair.
// "Over" is not among them: it ranks only as a joiner (joinsAlone), since
// it is as often a preposition ("The frontend calls the backend over
// gRPC") or a particle ("Replica db2 takes over after db1 fails").
// "Que" is not either: "Alice sait que Bob est d'astreinte" (a red team's).
var preferenceWords = text.WordSet("not instead rather than vs versus place favor favour beats wins > < → ← nicht statt anstatt anstelle lieber als gegenüber pas plutôt lieu no não vez lugar más не вместо чем 而不是 不是 而非 其次 より ではなく")

// orderWords order two steps ("Update tasks.md before progress.md", "lint,
// then tests"); they reverse a rule only when they alone join the two
// terms: in "If the primary region fails, then traffic moves to eu-west"
// "then" opens a consequence, and the swap is a second rule (a red team's
// failover pairs, both true).
var orderWords = text.WordSet("before after then avant après puis vor nach dann antes después luego перед после потом")

// fromWords open a span that an order word closes as a direction ("von
// GitLab nach GitHub": "nach" says where to, not what comes after).
var fromWords = text.WordSet("from von de desde из от")

// joinsAlone reports whether the words m between two terms that traded
// places rank them: one order word, or "over" after one of overRankers
// (before: the words before the first term), with nothing else but stop
// words and the head the two terms share ("Run unit tests before
// integration tests": "tests"), and no direction opened right before the
// first term ("von GitLab nach GitHub"). A verb or any other word between
// them makes the order part of a longer statement, which may be a second
// fact ("Replica db2 takes over after db1 fails" / "Replica db1 takes over
// after db2 fails": two failover rules, both true).
func joinsAlone(m, before, shared []stok) bool {
	joiners := 0
	for _, w := range m {
		switch {
		case orderWords[w.s] && w.s != "nach" || w.s == "over" && ranksOver(before):
			// "nach" says where to as often as what after: "Kopiere die
			// Backups Berlin nach Frankfurt" (a red team's)
			joiners++
		case w.flags&fStop != 0:
		case slices.ContainsFunc(shared, func(t stok) bool { return t.s == w.s }):
		default:
			return false
		}
	}
	return joiners == 1 && (len(before) == 0 || !fromWords[before[len(before)-1].s])
}

// determiners are skipped when parallelSlots reads the word beside a term:
// they stand before subjects and objects alike ("The frontend calls the
// backend").
var determiners = text.WordSet("the a an this that le la les un une ce cette der die das den dem des ein eine einen el los las lo un una il gli uno")

// conditionSplits reports whether raw, whose words are toks, states a rule
// under a condition and a comma, a sentence mark or a word of consequence
// parts toks[from:to], the words between two terms: one term is in the
// condition and the other in what follows it ("When db1 is down, db2 is
// primary", "If db1 is not reachable, use db2", "db1が落ちたら、db2が…").
// Swapped, such terms state a second rule as often as a reversal (a red
// team's failover and escalation pairs, both true), whatever else ranks
// them.
func conditionSplits(raw string, toks []stok, from, to int) bool {
	if !conditional(raw) {
		return false
	}
	for k := from; k <= to && k < len(toks); k++ {
		if k > from && toks[k].clause != toks[k-1].clause || toks[k].comma || consequenceWords[toks[k].s] {
			return true
		}
	}
	return false
}

// consequenceWords open what follows a condition.
var consequenceWords = text.WordSet("then dann alors puis entonces luego то тогда 就 则 なら")

// conditional reports whether s states a rule under a condition: "if",
// "when" and their like in the languages memory is written in.
func conditional(s string) bool { return conditionWords().MatchString(s) }

var conditionWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:if|when|whenever|unless|once|assuming|provided|as long as|in case|wenn|falls|sobald|solange|sofern|si|quand|lorsqu\w*|pourvu|cuando|mientras|siempre que|a menos que|quando|caso|enquanto|desde que)\b|a não ser|(?:^|[^\p{L}])(?:если|когда|пока|при условии)(?:$|[^\p{L}])|如果|若是|要是|一旦|只要|たら|なら|場合|限り`)
})

// parallelSlots reports whether the terms toks[x0:x1] and toks[y0:y1] (x
// first) fill a slot each: they stand in different sentences, or in two
// parts joined by a comma or a coordinator with the same word (a
// determiner aside) right before both or right after both ("Staging uses
// the EU bucket and prod uses the US bucket", "Go for the server, Rust for
// the CLI"). Swapping them reassigns both. The two ends of one relation do
// not ("db2 takes over after db1 fails", "from GitLab to GitHub", "Le
// service A appelle le service B", "Run tests in Docker in CI"): swapped,
// they may state a second fact as true as the first, or the same.
func parallelSlots(toks []stok, x0, x1, y0, y1 int) bool {
	if toks[x0].clause != toks[y0].clause {
		return true
	}
	joined := false
	for _, t := range toks[x1 : y0+1] {
		joined = joined || t.comma || coordinators[t.s]
	}
	if !joined {
		return false
	}
	beside := func(k, step int) string {
		for k += step; k >= 0 && k < len(toks); k += step {
			if !determiners[toks[k].s] {
				return toks[k].s
			}
		}
		return ""
	}
	before, after := beside(x0, -1), beside(x1-1, 1)
	return before != "" && before == beside(y0, -1) || after != "" && after == beside(y1-1, 1)
}

// maxRoleWords bounds the words compared between the texts' common start
// and end: each split is tried, which costs the cube of their number. An
// entry is at most 1,000 characters by default; a longer middle is read
// as before (a duplicate).
const maxRoleWords = 100

// rolesSwapped reports whether texts a and b hold the same words in an
// order that may change what they say: two spans of them, x in a and y
// after it, trading places around a middle that is more than the rest of
// a list, or (x and y empty) any other reordering. A block of words moved
// whole ("On Windows runners, CRLF breaks shellcheck" / "CRLF breaks
// shellcheck on Windows runners") and a list's items reordered change
// nothing. reverses says the swap reverses a: the middle ranks the two
// spans (preferenceWords, joinsAlone) or each fills a slot of its own
// (parallelSlots).
func rolesSwapped(a, b string) (x, y []stok, reverses, ok bool) {
	ta, tb := roleWords(a), roleWords(b)
	if len(ta) != len(tb) {
		return nil, nil, false, false
	}
	wa, wb := make([]string, len(ta)), make([]string, len(tb))
	for i := range ta {
		wa[i], wb[i] = ta[i].s, tb[i].s
	}
	sa, sb := slices.Clone(wa), slices.Clone(wb)
	slices.Sort(sa)
	slices.Sort(sb)
	if !slices.Equal(sa, sb) {
		return nil, nil, false, false
	}
	p := 0
	for p < len(wa) && wa[p] == wb[p] {
		p++
	}
	s := 0
	for s < len(wa)-p && wa[len(wa)-1-s] == wb[len(wb)-1-s] {
		s++
	}
	ma, mb, tm := wa[p:len(wa)-s], wb[p:len(wb)-s], ta[p:len(ta)-s]
	n := len(ma)
	if n == 0 || n > maxRoleWords {
		return nil, nil, false, false
	}
	// a block exchange (ma = X Y, mb = Y X) explains the difference: no
	// role changed
	for lx := 1; lx < n; lx++ {
		if slices.Equal(mb[:n-lx], ma[lx:]) && slices.Equal(mb[n-lx:], ma[:lx]) {
			return nil, nil, false, false
		}
	}
	for lx := 1; lx < n-1; lx++ {
		if mb[n-1] != ma[lx-1] {
			continue // x must end b
		}
		for ly := 1; lx+ly < n; ly++ {
			if mb[0] != ma[n-ly] {
				continue // y must start b
			}
			x, m, y := ma[:lx], ma[lx:n-ly], ma[n-ly:]
			if !slices.Equal(mb[:ly], y) || !slices.Equal(mb[ly:n-lx], m) || !slices.Equal(mb[n-lx:], x) {
				continue
			}
			if listMiddle(tm[lx:n-ly], tm[n-ly]) {
				return nil, nil, false, false // items of a list reordered
			}
			reverses := !conditionSplits(a, ta, p+lx, p+n-ly) && (anyIn(m, preferenceWords) ||
				joinsAlone(tm[lx:n-ly], ta[:p], ta[len(ta)-s:]) || parallelSlots(ta, p, p+lx, p+n-ly, p+n))
			return tm[:lx], tm[n-ly:], reverses, true
		}
	}
	// Reordered otherwise within one sentence (three terms rotated: "Go
	// for the server, Rust for the CLI, Python for scripts" / "Rust for
	// the server, Python for the CLI, Go for scripts"): no two spans to
	// name, but no duplicate either. Sentences moved with their words
	// ("Show the banner in de; hide it in fr" / "Hide the banner in fr;
	// show it in de") are left to the classifier, which reads clauses.
	return nil, nil, false, ta[len(ta)-1].clause == 0 && tb[len(tb)-1].clause == 0
}

// rankingSigns are the symbols that rank two options, read as "rather
// than" (which ranks wherever it stands, as "over" does not): the words of
// a text are the shape's (shapeTokens), which reads no symbol.
var rankingSigns = strings.NewReplacer("->", " rather than ", "=>", " rather than ", ">", " rather than ", "<-", " rather than ", "<", " rather than ", "→", " rather than ", "←", " rather than ")

// roleWords are the words of s as the word-by-word reading splits them
// (shapeTokens: lower case, a CJK character or known word each, format
// characters dropped inside a word), each with whether a comma stands
// before it.
func roleWords(s string) []stok {
	return shapeTokens(rankingSigns.Replace(s))
}

// listMiddle reports whether m, the words between two terms that traded
// places, and next, the word after it, make those terms items of one list:
// m is joined to both by a comma or a coordinator, and the items inside
// it are short ("lint, test and build" / "build, test and lint").
func listMiddle(m []stok, next stok) bool {
	joined := func(w stok) bool { return w.comma || coordinators[w.s] }
	if !joined(m[0]) || !(next.comma || coordinators[m[len(m)-1].s]) {
		return false
	}
	item := 0
	for _, w := range m {
		switch {
		case coordinators[w.s]:
			item = 0
		case w.comma:
			item = 1
		default:
			item++
		}
		if item > 3 {
			return false
		}
	}
	return true
}

func anyIn(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if set[w] {
			return true
		}
	}
	return false
}
