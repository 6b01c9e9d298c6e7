package similar

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// shape is the part of a text's reading that only a few comparisons need:
// its content words in order and the sides of its "A over B" phrases. It is
// built on first use (see Text.shape), so checking a workspace of thousands
// of unrelated entries never pays for it, and kept while pairs are found
// (a text is compared with each of its candidates); after that only its
// sign is kept (trimShapes), since a shape weighs more than the rest of the
// analysis and a Checker holds an analysis of every entry.
type shape struct {
	// units are the content words in text order: no stop words, no polarity
	// or ordering vocabulary. A CJK character is a unit of its own, as the
	// script has no spaces to find words by.
	units []unit
	// short are the words of two letters or fewer the units leave out,
	// with their clause: those left out for their length alone ("fr",
	// "qa"; "UI" is a unit), whose change makes a text no duplicate
	// (shortWords), and the stop words of one language that are locales
	// of all ("de", "es", marked stop), which tell, with the others, what
	// moved with a term (transposed).
	short []unit
	// orders are the (preferred, other) sides of every order phrase.
	orders []orderSides
	// consumed counts the negators that belong to an order phrase ("not X but
	// Y", "X, not Y", "а не"): they say which side is preferred, not that
	// the rule is negated, so they do not count towards the sign.
	consumed int
	// signOnly: units and orders were dropped (trimShapes); consumed stays.
	signOnly bool
	// times are the words of timeWords the text holds, sorted: what it
	// places in time or against a threshold (directionsDiffer).
	times []string
	// negations counts the text's negators, directionWords aside.
	negations int
}

// signOnlyShapes are the trimmed shapes, by consumed%2.
var signOnlyShapes = [2]*shape{{signOnly: true}, {consumed: 1, signOnly: true}}

type unit struct {
	s     string
	cjk   bool
	value bool
	// joined: written with slashes between parts (stok.joined)
	joined bool
	// clause counts the sentence marks before the unit, flips the
	// polarity words before it in its clause: a term moved to another
	// clause or across a "never" changes role ("Use yarn; never use npm").
	clause, flips int
	// stop: a short word that is a stop word of one language (shape.short)
	stop bool
}

// shortWords are the short words of sh that are no stop word.
func (sh *shape) shortWords() []string {
	var out []string
	for _, u := range sh.short {
		if !u.stop {
			out = append(out, u.s)
		}
	}
	return out
}

// shortAll are all the short words of sh, the stop words marked too.
func (sh *shape) shortAll() []string {
	out := make([]string, len(sh.short))
	for i, u := range sh.short {
		out[i] = u.s
	}
	return out
}

// orderSides are the content units on either side of an order phrase.
type orderSides struct{ pref, other []string }

// shapeOf returns t's shape, building it once; concurrent first calls may
// both build it, and either result is the same.
func (t *Text) shapeOf() *shape {
	old := t.shapeCache.Load()
	if old != nil && !old.signOnly {
		return old
	}
	s := buildShape(t.Raw)
	t.shapeCache.CompareAndSwap(old, s)
	return s
}

// trimShapes drops the shapes of texts but their signs, once their pairs
// are found (see shape).
func trimShapes(texts []*Text) {
	for _, t := range texts {
		if s := t.shapeCache.Load(); s != nil && !s.signOnly {
			t.shapeCache.CompareAndSwap(s, signOnlyShapes[s.consumed%2])
		}
	}
}

// effectiveSign is Sign without the negators that an order phrase uses.
func (t *Text) effectiveSign() int {
	if !t.hasOrder {
		return int(t.Sign)
	}
	s := t.shapeCache.Load()
	if s == nil {
		s = t.shapeOf()
	}
	if s.consumed%2 == 1 {
		return -int(t.Sign)
	}
	return int(t.Sign)
}

// stok is one token of the shape scan.
type stok struct {
	s     string
	flags wordFlags
	cjk   bool
	unit  bool
	value bool
	// joined: the word joined parts at a slash or a dot ("feat/fix/docs",
	// "crush.sh"): one part more is another list, path or file, not
	// another form of a word
	joined bool
	comma  bool // a comma comes right before this token
	clause int  // sentence-like segment: . ; : ! ? end one
}

func buildShape(raw string) *shape {
	toks := shapeTokens(raw)
	sh := &shape{}
	v := vocab()
	clause, flips := 0, 0
	for _, t := range toks {
		if t.clause != clause {
			clause, flips = t.clause, 0
		}
		if t.flags&fFlip != 0 {
			flips++
		}
		switch {
		case t.unit:
			sh.units = append(sh.units, unit{s: t.s, cjk: t.cjk, value: t.value, joined: t.joined, clause: clause, flips: flips})
		case !t.cjk && t.flags&(fStop|fFlip|fPartner|fConnective) == 0 && !v.shapeStop[t.s] && t.s != "":
			sh.short = append(sh.short, unit{s: t.s, clause: clause})
		case !t.cjk && len(t.s) <= 2 && t.s != "" && t.flags&(fStop|fFlip) == 0:
			sh.short = append(sh.short, unit{s: t.s, clause: clause, stop: true})
		}
	}
	sh.orders, sh.consumed = findOrders(toks)
	for _, t := range toks {
		if timeWords[t.s] {
			sh.times = append(sh.times, t.s)
		}
		if negator(t) {
			sh.negations++
		}
	}
	slices.Sort(sh.times)
	return sh
}

// shapeTokens splits raw into words and CJK characters. Punctuation inside a
// word is deleted as the tokenizer deletes it ("gorilla/mux" is one word), but
// a comma or a sentence mark at a word's end is remembered: "X, not Y" needs
// the comma, and an order phrase ends with its clause.
func shapeTokens(raw string) []stok {
	var toks []stok
	var w strings.Builder
	v := vocab()
	clause, comma := 0, false
	runes, letters, uppers, nonASCII, digits, signed := 0, 0, 0, false, false, false
	joined := false
	endWord := func() {
		if w.Len() == 0 {
			return
		}
		s := stripElision(w.String())
		w.Reset()
		f := v.words[s]
		// a value as the keywords read one (isValueWord: 1.8, v2,
		// eu-west-1), not a name that carries a digit (queue0, WSL2)
		t := stok{s: s, flags: f, comma: comma, clause: clause, value: digits && isValueWord([]byte(s)), joined: joined}
		vocab := f&(fStop|fFlip|fPartner|fConnective) != 0 || v.shapeStop[s]
		long := runes > 2 || nonASCII && runes == 2
		allCaps := letters >= 2 && uppers == letters
		t.unit = !vocab && (long || allCaps || digits || signed)
		toks = append(toks, t)
		comma = false
		runes, letters, uppers, nonASCII, digits, signed = 0, 0, 0, false, false, false
		joined = false
	}
	b := []byte(raw)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		next := rune(' ')
		if i+size < len(b) {
			next, _ = utf8.DecodeRune(b[i+size:])
		}
		switch {
		case text.IsJSSpace(r):
			endWord()
		case isCJK(r):
			endWord()
			n, f, ok := cjkMatch(b[i:])
			if ok {
				toks = append(toks, stok{s: string(b[i : i+n]), flags: f, cjk: true, comma: comma, clause: clause})
				comma = false
				i += n
				continue
			}
			hira := unicode.Is(unicode.Hiragana, r)
			toks = append(toks, stok{s: string(r), cjk: true, unit: !hira, comma: comma, clause: clause})
			comma = false
		case r == ',' && text.IsJSSpace(next) || r == '，' || r == '、':
			endWord()
			comma = true
		case strings.ContainsRune(".;:!?", r) && text.IsJSSpace(next) || strings.ContainsRune("。；！？", r):
			endWord()
			clause++
			comma = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '-' || r == '.' && digits:
			lr := unicode.ToLower(r)
			if unicode.IsLetter(r) {
				letters++
				if lr != r {
					uppers++
				}
			}
			if unicode.IsDigit(r) {
				digits = true
			}
			if !unicode.IsMark(r) {
				runes++
			}
			nonASCII = nonASCII || r >= utf8.RuneSelf
			w.WriteRune(lr)
		case (r == '#' || r == '+') && w.Len() > 0:
			// "C#", "F#", "C++": a language is a name, however short
			w.WriteRune(r)
			signed = true
		case r == '\'' || r == '’':
			w.WriteRune('\'') // kept until the word ends, for elisions
		case (r == '/' || r == '.' && unicode.IsLetter(next)) && w.Len() > 0:
			joined = true // "feat/fix", "crush.sh"
		}
		i += size
	}
	endWord()
	return toks
}

// stripElision drops a French or Italian elided article ("l'utilisateur" is
// "utilisateur") and deletes the remaining apostrophes ("don't" is "dont").
func stripElision(s string) string {
	if i := strings.IndexByte(s, '\''); i > 0 && i <= 3 {
		switch s[:i] {
		case "l", "d", "qu", "j", "n", "s", "c", "m", "t", "dell", "all", "nell", "sull":
			s = s[i+1:]
		}
	}
	return strings.ReplaceAll(strings.TrimRight(s, "-."), "'", "")
}

// shapeStopWords are function words of the other languages memory files are
// written in. They never count as content when facts are compared word by
// word; keyword similarity (HackLM's) does not use this list.
func shapeStopWords() map[string]bool {
	stop := map[string]bool{}
	for _, w := range strings.Fields(`le la les un une des du de au aux et ou en pour par sur avec dans que qui
		est sont ce cette ces son sa ses leur leurs où
		der die das den dem des ein eine einen einem einer und oder für von zu zum zur im auf bei ist
		sind wird werden als auch nur
		и в во на с со по для к от из что это как или у же ли при
		các những của và cho khi là được có trong với để một này đó thì
		el los las del y para con por una uno es son al lo
		il gli della di da per con una sono`) {
		stop[w] = true
	}
	return stop
}

// Order phrases. The infix ones read "A <phrase> B" with A preferred; the
// postfix ones (Japanese, Korean) read "B <phrase> A"; the paired ones read
// "<not> B <but> A". Multi-word phrases are written with spaces.
var (
	infixPhrases = []string{"over", "rather than", "instead of", "in place of",
		"plutôt que", "plutôt", "au lieu de", "au lieu du", "au lieu des", "au lieu",
		"statt", "anstatt", "anstelle von", "anstelle", "en lugar de", "en vez de", "em vez de", "вместо", "thay vì", "thay cho",
		"chứ không phải", "chứ không", "而不是", "而非", "代替", "而不用"}
	// commaNegators make "A, not B" an order when the comma precedes them,
	// and "A and not B" with the conjunctions listed.
	commaNegators = map[string]bool{"not": true, "pas": true, "non": true, "nicht": true, "не": true, "không": true, "no": true}
	andWords      = map[string]bool{"and": true, "et": true, "und": true, "а": true, "và": true, "y": true}
	// alsoWords after a comma's negator add, not reject: "Use bash, not
	// only PowerShell" keeps PowerShell (a red team's)
	alsoWords = map[string]bool{"only": true, "just": true, "merely": true, "solely": true, "seulement": true,
		"uniquement": true, "nur": true, "solo": true, "sólo": true, "только": true}
	postfixPhrases = []string{"ではなく", "じゃなく", "の代わりに", "代わりに", "대신", "아니라"}
	// pairs: the opening negator and the word that opens the preferred side.
	pairedPhrases = [][2]string{{"not", "but"}, {"pas", "mais"}, {"non", "mais"}, {"nicht", "sondern"},
		{"kein", "sondern"}, {"keine", "sondern"}, {"не", "а"}, {"không phải", "mà"}, {"不是", "而是"}}
)

// matchAt reports how many tokens starting at i spell phrase.
func matchAt(toks []stok, i int, phrase string) int {
	// the phrase's words are read in place: a shape tries every phrase at
	// every token
	n := 0
	for rest := phrase; ; n++ {
		p, more, found := strings.Cut(rest, " ")
		if i+n >= len(toks) {
			return 0
		}
		if t := toks[i+n]; t.s != p || t.clause != toks[i].clause || n > 0 && t.comma {
			return 0
		}
		if !found {
			return n + 1
		}
		rest = more
	}
}

// findOrders lists the order phrases of a text with their sides, and how
// many negators they use.
func findOrders(toks []stok) (out []orderSides, consumed int) {
	sides := func(from, to int) []string {
		var s []string
		for k := from; k < to; k++ {
			if toks[k].unit {
				s = append(s, toks[k].s)
			}
		}
		return s
	}
	clauseStart := func(i int) int {
		for i > 0 && toks[i-1].clause == toks[i].clause {
			i--
		}
		return i
	}
	clauseEnd := func(i int) int {
		for i < len(toks) && toks[i].clause == toks[i-1].clause {
			i++
		}
		return i
	}
	negators := func(from, to int) int {
		n := 0
		for k := from; k < to; k++ {
			if toks[k].flags&fFlip != 0 {
				n++
			}
		}
		return n
	}
	for i := 0; i < len(toks); i++ {
		if n := longestMatch(toks, i, pairedOpeners); n > 0 {
			if j, m := pairedClose(toks, i, n); j > 0 {
				out = append(out, orderSides{pref: sides(j+m, clauseEnd(j+m)), other: sides(i+n, j)})
				consumed += negators(i, i+n)
				i = j + m - 1
				continue
			}
		}
		if n := longestMatch(toks, i, infixPhrases); n > 0 && (toks[i].s != "over" || ranksOver(toks[clauseStart(i):i])) {
			out = append(out, orderSides{pref: sides(clauseStart(i), i), other: sides(i+n, clauseEnd(i+n))})
			consumed += negators(i, i+n)
			i += n - 1
			continue
		}
		if n := longestMatch(toks, i, postfixPhrases); n > 0 {
			out = append(out, orderSides{pref: sides(i+n, clauseEnd(i+n)), other: sides(clauseStart(i), i)})
			i += n - 1
			continue
		}
		// "A, not B", "A and not B", "A, а не B"
		t := toks[i]
		if commaNegators[t.s] && i+1 < len(toks) && alsoWords[toks[i+1].s] {
			consumed += negators(i, i+1) // "not only" adds: no order, no negation
			continue
		}
		if commaNegators[t.s] && i > clauseStart(i) {
			from := i
			if andWords[toks[i-1].s] && toks[i-1].clause == t.clause {
				from = i - 1
			}
			if toks[from].comma || from < i {
				out = append(out, orderSides{pref: sides(clauseStart(i), from), other: sides(i+1, clauseEnd(i+1))})
				consumed += negators(i, i+1)
			}
		}
	}
	kept := out[:0]
	for _, o := range out {
		if len(o.pref) > 0 && len(o.other) > 0 {
			kept = append(kept, o)
		}
	}
	return kept, consumed
}

// overRankers are the words that make a later "over" rank two options
// ("Prefer Go over Rust", "Use Redis over Memcached", "a preference for
// tabs over spaces"). Without one, "over" is a preposition or a particle
// ("talks to the backend over gRPC", "db2 takes over after db1 fails").
var overRankers = text.WordSet(`prefer prefers preferred preferring preference preferable favor favors
	favored favour favours favoured choose chooses chose pick picks prioritize prioritizes prioritise
	prioritises use uses using recommend recommends recommended select selects default defaults wins win beats`)

// ranksOver reports whether the words before an "over" in its clause hold
// one of overRankers, or are one term alone ("Composition over
// inheritance", "Tabs over spaces in Makefiles").
func ranksOver(before []stok) bool {
	return slices.ContainsFunc(before, func(t stok) bool { return overRankers[t.s] }) ||
		len(before) == 1 || len(before) == 2 && determiners[before[0].s]
}

// pairedOpeners are pairedPhrases' first words, listed once: built per
// token, the list was a large share of what a check allocated.
var pairedOpeners = func() []string {
	out := make([]string, len(pairedPhrases))
	for i, p := range pairedPhrases {
		out[i] = p[0]
	}
	return out
}()

// pairedClose finds the closing word of the paired phrase opened at i (n
// tokens long) in the same clause, after at least one content unit.
func pairedClose(toks []stok, i, n int) (j, m int) {
	var closers []string
	for _, p := range pairedPhrases {
		if matchAt(toks, i, p[0]) == n {
			closers = append(closers, p[1])
		}
	}
	seen := false
	for k := i + n; k < len(toks) && toks[k].clause == toks[i].clause; k++ {
		if seen {
			if m := longestMatch(toks, k, closers); m > 0 {
				return k, m
			}
		}
		seen = seen || toks[k].unit
	}
	return 0, 0
}

func longestMatch(toks []stok, i int, phrases []string) int {
	best := 0
	for _, p := range phrases {
		best = max(best, matchAt(toks, i, p))
	}
	return best
}

// ordersReversed: some order phrase of a and some of b prefer each other's
// other side ("mocks instead of real services" / "real services instead of
// mocks").
func ordersReversed(a, b *Text) bool {
	if !a.hasOrder || !b.hasOrder {
		return false
	}
	for _, p := range a.shapeOf().orders {
		for _, q := range b.shapeOf().orders {
			// a word on both sides of one phrase tells no side ("vont vers
			// X, pas vers Y": "vers")
			if intersects(only(p.pref, p.other), only(q.other, q.pref)) && intersects(only(p.other, p.pref), only(q.pref, q.other)) {
				return true
			}
		}
	}
	return false
}

// only returns the words of a that b does not have.
func only(a, b []string) []string {
	var out []string
	for _, w := range a {
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

// orderAgainst: a prefers something over what b plainly states ("Prefer
// gorilla/mux over chi" / "Use chi"): b names a's other side and none of a's
// preferred side.
func orderAgainst(a, b *Text) bool {
	return rejectsNamed(a, b, func(pref, bs []string) bool { return !intersects(pref, bs) })
}

// choiceLacking: an order phrase of a rejects what b names, and its
// preferred side holds a word b lacks (`ruff`), whatever frame words the
// two share.
func choiceLacking(a, b *Text) bool {
	return rejectsNamed(a, b, func(pref, bs []string) bool { return len(only(pref, bs)) > 0 })
}

// rejectsNamed reports whether some order phrase of a rejects a word b
// names, with its preferred side standing to b as apart says.
func rejectsNamed(a, b *Text, apart func(pref, bs []string) bool) bool {
	if !a.hasOrder {
		return false
	}
	var bs []string
	for _, u := range b.shapeOf().units {
		bs = append(bs, u.s)
	}
	for _, p := range a.shapeOf().orders {
		if intersects(p.other, bs) && apart(p.pref, bs) {
			return true
		}
	}
	return false
}

func intersects(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// hasOrderMark: the text has a comma or a conjunction before a negator,
// which with it may make an order ("A, not B", "A et non B": findOrders
// reads both).
func hasOrderMark(s string) bool {
	if strings.ContainsRune(s, ',') || strings.ContainsRune(s, '，') || strings.ContainsRune(s, '、') {
		return true
	}
	for and := range andWords {
		for i := strings.Index(s, " "+and+" "); i >= 0; {
			rest := s[i+len(and)+2:]
			w, _, _ := strings.Cut(rest, " ")
			if commaNegators[strings.ToLower(w)] {
				return true
			}
			j := strings.Index(rest, " "+and+" ")
			if j < 0 {
				break
			}
			i += len(and) + 2 + j
		}
	}
	return false
}
