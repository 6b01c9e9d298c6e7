package similar

import (
	"slices"
	"strings"

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
var preferenceWords = text.WordSet("over not instead rather than vs versus > < → ← nicht statt anstatt anstelle lieber als pas plutôt lieu que no vez lugar más не вместо чем 而不是 不是 而非 より ではなく")

// orderWords order two steps ("Update tasks.md before progress.md", "lint,
// then tests"); they reverse a rule only when they alone join the two
// terms: in "If the primary region fails, then traffic moves to eu-west"
// "then" opens a consequence, and the swap is a second rule (a red team's
// failover pairs, both true).
var orderWords = text.WordSet("before after then avant après puis vor nach dann antes después luego перед после потом")

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
// nothing.
func rolesSwapped(a, b string) (x, y []stok, ranked, ok bool) {
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
			return tm[:lx], tm[n-ly:], anyIn(m, preferenceWords) || len(m) == 1 && orderWords[m[0]], true
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

// rankingSigns are the symbols that rank two options, read as the word
// "over": the words of a text are the shape's (shapeTokens), which reads
// no symbol.
var rankingSigns = strings.NewReplacer("->", " over ", "=>", " over ", ">", " over ", "<-", " over ", "<", " over ", "→", " over ", "←", " over ")

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
