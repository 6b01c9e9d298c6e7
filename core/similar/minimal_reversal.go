package similar

import "slices"

// MinimalReversal reports whether a and b, or a sentence of a and a
// sentence of b with opposite signs, say the same words but for the words
// of polarity (negators and their
// partners: "never", "always", "don't", "use", "avoid" …), modal verbs
// and one word more, less or other, with opposite signs; or the same
// words in another order around a word that orders options. That is the
// same rule with its sign flipped ("Always run the integration tests
// against a real database" / "Never run … against a real database; use the
// in-memory fake", "Avoid inline styles" / "Write inline styles") or its
// options swapped ("Prefer tabs over spaces" / "Prefer spaces over tabs").
// Case and punctuation aside.
func MinimalReversal(a, b *Text) bool {
	if !slices.Equal(a.Numbers(), b.Numbers()) || !sameMultiset(codeSpans(a.Raw), codeSpans(b.Raw)) {
		// "Port 443 is open" / "Port 22 is not open", "`{{-` removes
		// whitespace before …" / "`-}}` … after …": two subjects, each
		// with its own rule (a red team's)
		return false
	}
	ca, cb := frameClauses(a.Raw), frameClauses(b.Raw)
	if oneWordEdit(allWords(ca), allWords(cb)) && len(ca) > 0 && len(cb) > 0 {
		return true // the whole texts: the sign Classify read is theirs
	}
	for _, x := range ca {
		for _, y := range cb {
			if x.flips%2 != y.flips%2 && oneWordEdit(x.words, y.words) {
				return true
			}
			// options swapped with the same sign: with the sign flipped
			// too ("SQLite uses less memory than Postgres" / "Postgres uses
			// more memory than SQLite") it is the same fact again
			if x.orders && y.orders && x.flips%2 == y.flips%2 && len(x.words) == len(y.words) &&
				!slices.Equal(x.words, y.words) && sameMultiset(x.words, y.words) {
				return true
			}
		}
	}
	return false
}

func allWords(cs []frameClause) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.words...)
	}
	return out
}

// frameClause is one sentence of a text without its words of polarity
// and modal verbs: what the rule is about.
type frameClause struct {
	words  []string
	flips  int  // its negators and words of the other direction ("after", "less")
	orders bool // it holds a word that orders options: "over", "instead", "than", "statt", "а" …
}

// frameClauses splits raw at its sentence marks (". ; : ! ?") into frame
// clauses; a clause with no word left ("**MUST**" / "**MUST NOT**": a
// heading) has no subject to reverse a rule about, and is left out.
func frameClauses(raw string) []frameClause {
	var out []frameClause
	cur, clause := frameClause{}, -1
	flush := func() {
		if len(cur.words) > 0 {
			out = append(out, cur)
		}
		cur = frameClause{}
	}
	for _, t := range shapeTokens(raw) {
		if t.clause != clause {
			flush()
			clause = t.clause
		}
		switch {
		case t.flags&fFlip != 0:
			cur.flips++ // "after" against "before" too
		case t.flags&(fConnective|fTrigger) != 0:
			cur.orders = true
			cur.words = append(cur.words, t.s)
		case t.flags&fPartner != 0 || modals[t.s] || negationParticles[t.s] || t.s == "":
		default:
			cur.words = append(cur.words, t.s)
		}
	}
	flush()
	return out
}

// negationParticles stand beside a negator that does the flipping and say
// nothing of the subject: French "ne … jamais", "n'… pas" ("Quand la CI
// est rouge ne jamais merger" / "… merger": a red team's).
var negationParticles = map[string]bool{"ne": true, "n": true}

// modals are the verbs of obligation a rule may or may not say: "You must
// run X" and "Never run X" reverse each other.
var modals = map[string]bool{"must": true, "should": true, "shall": true, "need": true, "needs": true}

// oneWordEdit reports whether x and y are the same words but for one
// word added, dropped or changed: the verb or the verdict that carries
// the sign ("Avoid inline styles" / "Write inline styles", "… is fine" /
// "… is forbidden").
func oneWordEdit(x, y []string) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(y)-len(x) > 1 {
		return false
	}
	i := 0
	for i < len(x) && x[i] == y[i] {
		i++
	}
	if len(x) == len(y) && i >= len(x) {
		return true
	}
	// The word that carries the sign opens the rule or closes it: the
	// verb of an order, the verdict at its end. One changed inside is a
	// second subject ("… to the staging branch" / "… to the production
	// branch", "… authenticated API responses": a red team's).
	if i != 0 && i != len(y)-1 {
		return false
	}
	if len(x) == len(y) {
		return slices.Equal(x[i+1:], y[i+1:])
	}
	return slices.Equal(x[i:], y[i+1:])
}
