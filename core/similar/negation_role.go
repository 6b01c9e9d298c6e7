package similar

import (
	"slices"
	"strings"
)

// Where a negation Classify counts does another job than reversing the
// other text (issue 27; files v5 and v6, read since as a tuning half, are
// where check's false reversals showed these shapes). The store keeps its
// reading, as for MayOnlyQualify: words cannot tell these jobs from a
// revocation with certainty, so check shows such a pair as information
// rather than counting it.

// OtherNegationRole says why a negation of a or b may not reverse the
// other text, or is empty:
//   - it sets a time or condition ("Work is NOT complete until `git push`
//     succeeds"): "not … until" and "not … unless" say when, not whether;
//   - a negating label and a negated rule agree ("**NO NEW MARKDOWN IN
//     ROOT**: Never create new .md files in root"): the two negators make
//     an even count, but the rule is negative;
//   - the word is the name of a state, after an article ("Show a disabled
//     state if one exists" beside "Show a loading state …").
func OtherNegationRole(a, b *Text) string {
	for _, p := range [2][2]*Text{{a, b}, {b, a}} {
		x, y := shapeTokens(p[0].Raw), shapeTokens(p[1].Raw)
		switch {
		case negatesUntil(x):
			return "its negation may say when, not whether"
		case labelAgrees(p[0].Raw):
			return "its label and its rule both negate"
		case namesState(x, y):
			return "a word of negation may name a state"
		}
	}
	return ""
}

// untilWords open a time or condition after a negation: "not … until",
// "nicht … bis", "no … hasta", "não … até", "не … пока".
var untilWords = map[string]bool{"until": true, "till": true, "unless": true, "bis": true,
	"hasta": true, "até": true, "jusquà": true, "пока": true}

// negatesUntil reports whether a negator stands before an until-word in
// the same sentence, no comma between: after one, "until" may open another
// order ("…, wait until nightly", a red team's).
func negatesUntil(toks []stok) bool {
	neg := -1
	for _, t := range toks {
		if t.comma {
			neg = -1 // "Never run it before merging, wait until nightly"
		}
		switch {
		case neg != t.clause && negator(t):
			neg = t.clause
		case neg == t.clause && untilWords[t.s]:
			return true
		}
	}
	return false
}

// labelAgrees reports whether raw is a short label before a colon and a
// space and a rule after it, each with a negator, the label saying nothing
// of time or validity.
func labelAgrees(raw string) bool {
	i, n := strings.Index(raw, ": "), 2
	if j := strings.Index(raw, "："); j >= 0 && (i < 0 || j < i) {
		i, n = j, len("：")
	}
	if i < 0 {
		return false // "16:00", "redis:7" and addresses hold colons, not labels
	}
	label, rule := shapeTokens(raw[:i]), shapeTokens(raw[i+n:])
	for _, t := range label {
		if negationTimeWords[t.s] || validityWords[t.s] {
			return false // "NOT ANYMORE: never log PII" withdraws the rule (a red team's)
		}
	}
	return len(label) > 0 && len(label) <= 8 && countNegators(label) > 0 && countNegators(rule) > 0
}

func countNegators(toks []stok) (n int) {
	for _, t := range toks {
		if negator(t) {
			n++
		}
	}
	return n
}

// namesState reports whether x holds a negating participle between an
// article and another word ("a disabled state", "the excluded paths")
// that y does not hold at all. "This", "that" and German "die" are
// pronouns and relatives as often as articles ("Keep this disabled", "a
// cache that never expires": a red team's), and are not read.
func namesState(x, y []stok) bool {
	for k := 1; k+1 < len(x); k++ {
		t := x[k]
		if negator(t) && strings.HasSuffix(t.s, "ed") && articles[x[k-1].s] && x[k-1].clause == t.clause &&
			x[k+1].clause == t.clause && !x[k+1].comma && !slices.ContainsFunc(y, func(u stok) bool { return u.s == t.s }) {
			return true
		}
	}
	return false
}

var articles = map[string]bool{"a": true, "an": true, "the": true}
