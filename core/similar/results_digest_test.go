package similar

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// digestTexts are entries of every shape the analysis treats apart: the
// generator's (rewordings, reversals, copies, CJK and Cyrillic) and texts
// built from the ASCII characters the tokenizer treats apart (hyphens,
// digit-dot-digit, names, comparators).
func digestTexts() []string {
	g := newEntryGen(11, 400)
	var out []string
	for range 2500 {
		out = append(out, g.next())
	}
	pieces := []string{"Don't", "never", "NOT", "over", "rather", "than", "instead", "of", "YAML", "Postgres",
		"v1.2", "(V2),", "1,000", "eu-west-1", "a", "-", "--x", "x86_64", "<", "<=", "<5", ">", "->", "=>",
		"Vec<u8>", "depth", "x<5", ".", "!", "?", ":", "Use", "the", "cache", "on-call", "\t",
		"1.8", "1..2", "but", "ABC", "Ab", "caching-layer", "cache-layer", "Redis", "redis", "#", "`go`", "не", "日志"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2500 {
		var b strings.Builder
		for range 2 + r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			b.WriteString([]string{" ", " ", ", ", ". ", "-"}[r.IntN(5)])
		}
		out = append(out, b.String())
	}
	return out
}

func writeVerdict(h hash.Hash, v Verdict) {
	fmt.Fprintf(h, "%d %.12g %v %q %q;", v.Action, v.Similarity, v.Exact, v.Kind, v.Reason)
}

// resultsDigest hashes what the analyses decide on digestTexts: every
// text's analysis, the pairs, the exact stars, each text's Decide, Decide
// over contents (twice: the second once read over a Keyed index), and the pairs involving a sample.
func resultsDigest(facts func(*Text) string) string {
	ss := digestTexts()
	texts := make([]*Text, len(ss))
	h := sha256.New()
	for i, s := range ss {
		texts[i] = Analyze(s)
		fmt.Fprintf(h, "%s|%s|%q|%d\n", facts(texts[i]), texts[i].exactKey(), texts[i].normCore(), texts[i].effectiveSign())
	}
	groups := make([]int, len(ss))
	for i := range groups {
		groups[i] = i % 3
	}
	for _, p := range Pairs(texts, groups, defaultTh) {
		fmt.Fprintf(h, "p%d,%d:", p.I, p.J)
		writeVerdict(h, p.Verdict)
	}
	for _, p := range ExactStars(texts) {
		fmt.Fprintf(h, "e%d,%d:", p.I, p.J)
		writeVerdict(h, p.Verdict)
	}
	var changed []int
	for i := 0; i < len(texts); i += 37 {
		changed = append(changed, i)
	}
	for _, p := range PairsInvolving(texts, changed, defaultTh) {
		fmt.Fprintf(h, "i%d,%d:", p.I, p.J)
		writeVerdict(h, p.Verdict)
	}
	for i := 1000; i < len(ss); i += 7 {
		m, v := Decide(texts[i], texts[i-200:i], defaultTh)
		fmt.Fprintf(h, "d%d:", m)
		writeVerdict(h, v)
		m, v = DecideContents(texts[i], ss[i-200:i], defaultTh)
		fmt.Fprintf(h, "c%d:", m)
		writeVerdict(h, v)
		// once the decision over a Keyed index of the first 1,000 (retired
		// by issue 29: it decided as DecideContents does)
		m, v = DecideContents(texts[i], ss[:1000], defaultTh)
		fmt.Fprintf(h, "k%d:", m)
		writeVerdict(h, v)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestResultsUnchangedByRepresentation: the digest of resultsDigest as the
// Text with its own slice per list and its keywords in a string of their own
// (main at 690d383) computed it, where the analysis was printed from the
// fields Keys, Core, Numbers and Named, which are now methods. A change of
// representation must not move it; a change of what the analysis decides
// will, and then this test is rewritten with that change's reasons.
// Rewritten for issue 27: a substituted term that is a quantity word on
// both sides is a changed value (number_words.go), and two texts that differ
// only in punctuation, spacing and hyphens are duplicates, never a reversal
// (samePunctuatedAside). Rewritten again for issue 27's second round: a
// one-term swap is a sibling or a changed value at any similarity
// (swap.go), a word and its negation by prefix are a reversal, the Cores
// are compared where only polarity words differ in spelling, a text that
// adds detail is an update, hyphens and spaces are read alike, and the
// same words in another order or form are a duplicate; a value changes
// only where both texts state one; forms of one word count as shared in a
// reversal, and a short sentence that differs only in its values is an
// update; a name that carries a digit (queue0) states no value. Rewritten
// for issue 27's third round: two terms trading roles reverse a rule and two
// values trading places change it, a short word ("es", "qa") the comparison
// leaves out makes a duplicate an update or a second fact, a quantity in
// words equals its digits, "X=no" reads its "no", "A et non B" is an order,
// opposites without a prefix reverse, and a prefix's opposite only where
// the values agree; a skip counts the locales that are stop words too.
// Issue 27's fourth round (roles.go: the same words with two terms trading
// places are no duplicate) decides none of these texts otherwise. Rewritten
// for its fifth: a number written inside CJK text ("30秒") is a value, so
// CJK texts that differ only in their numbers are updates, no duplicates.
// Rewritten for its seventh: two terms that trade places reverse a rule
// only when something ranks them or each fills a slot of its own, never
// across a condition ("over" ranks only after a word of choice), nor do
// two values that name the two ends of one relation; the same set of words
// said a different number of times is no duplicate. Rewritten for its
// eighth: a value only one text states is a swapped term, not a changed
// value; one term swapped everywhere counts the words that hold it
// (`docs/AGENTS.md`); a word joined at a slash or a dot is no form of
// another, and two sides naming other files are a sibling (otherFiles);
// values that differ on one side only update, never skip; the same words
// at another time or threshold (timeWords) are a second fact. Rewritten for
// its twelfth: ", not only X" neither orders nor negates; a text that ends
// in a question mark is never a reversal; opposites reverse only where the
// short words agree too and neither stands in a condition. Rewritten for
// its fourteenth: a negation moved to another sentence of the same words
// is no duplicate; the same words with other polarity vocabulary are a
// rewording only in the same order when they span several sentences; the
// negators of negative concord ("não … nunca", "no … nunca") negate once a
// sentence.
func TestResultsUnchangedByRepresentation(t *testing.T) {
	longtest.Skip(t)
	const want = "bcbb88d0afdd2262d8a1b7ddc5e9030b83c8670ffe85a6339c9fabc20b253835"
	got := resultsDigest(func(x *Text) string {
		return fmt.Sprintf("%q %q %q %q %q %d %v", x.Norm, x.Keys(), x.Core(), x.Numbers(), x.Named(), x.Sign, x.hasOrder)
	})
	if got != want {
		t.Errorf("the analyses decide differently: digest %s, want %s", got, want)
	}
}
