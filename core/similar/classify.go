package similar

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// reversalMin is how alike two Cores must be before a flipped sign or order
// is read as a reversal of the same rule. It is fixed rather than tied to the
// skip threshold: "Remote push notifications never arrive in the iOS
// simulator" shares 5 of 7 core words (0.71) with "The iOS simulator ignores
// remote push notifications", and its "never" reverses nothing.
const reversalMin = 0.8

// coreCandidateMin is the least Core similarity at which Classify can call a
// pair more than Store for its polarity or order alone: a reversal that adds
// words ("Run tests with -race" / "Never run tests with -race on CI") or a
// preference against a plain rule ("Use chi" / "Prefer gorilla/mux over
// chi"). Pairs filters Cores at this value, so it finds every such pair.
const coreCandidateMin = 0.6

// Classify compares an existing entry (old) with a new text.
//
// The checks run from the most to the least certain. Equal normalised text is
// a duplicate only if nothing that normalising hides differs: the values
// ("> 1000" vs "< 1000" normalise alike) and the sign. A reversal is tested
// before similarity because a rule and its negation are, to HackLM's Jaccard,
// the same text. Only then does HackLM's similarity decide, corrected by
// reading the two texts word by word: a changed value is an update, one
// substituted term is a second fact (a sibling), and a text that adds or drops
// words is told apart from a true duplicate.
func Classify(old, new *Text, th Thresholds) Verdict {
	v := classify(old, new, th)
	if v.Action == Conflict && (asks(old.Raw) || asks(new.Raw)) {
		// "Is the CORS policy permissive?", "Could we use MySQL instead of
		// PostgreSQL?" state nothing to reverse: replacing the fact with
		// the question lost it (a red team's); stored beside, and named
		return Verdict{Action: Store, Similarity: v.Similarity}
	}
	if v.Action == Conflict && codeLine(old.Raw) && codeLine(new.Raw) {
		// "`console.log(\"Task succeeded\")`" / "`… failed`": two calls are
		// two things the project writes, whatever words they hold (a real
		// instruction file's, issue 27). A setting ("`tls_verify: on`" /
		// "`… off`") or a comment ("`# always …`" / "`# never …`")
		// reverses as words do (red teams').
		return Verdict{Action: Store, Similarity: v.Similarity, Kind: KindSibling, Reason: "two lines of code"}
	}
	if v.Action == Update && v.Kind == KindValue {
		if reason, ok := namesAnotherSubject(old, new); ok {
			return Verdict{Action: Store, Similarity: v.Similarity, Kind: KindSibling, Reason: "sibling: " + reason}
		}
	}
	if v.Action == Skip && !v.Exact && negationChangesClause(old.Raw, new.Raw) {
		// "Build on Linux runners; never build on macOS runners" / "Never
		// build on Linux runners; build on macOS runners": the same words,
		// the negation in the other sentence. A skip dropped the reversal
		// (a red team's); it replaces the old text and is logged. Under a
		// condition ("If CI is red: do not merge" / "If CI is not red:
		// merge") or in a question, the two may both hold: stored beside.
		if conditional(old.Raw) || conditional(new.Raw) || asks(old.Raw) || asks(new.Raw) {
			return Verdict{Action: Store, Similarity: v.Similarity, Kind: KindSibling, Reason: "a negation in another sentence"}
		}
		return Verdict{Action: Conflict, Similarity: v.Similarity, Kind: KindReversal, Reason: "moves a negation to another sentence"}
	}
	if v.Action == Skip && !v.Exact && (choiceLacking(new, old) || choiceLacking(old, new)) {
		// "Format with `black instructor examples tests`" / "Format with
		// `ruff format instructor examples tests`, not Black": nearly the
		// same words, but one text rejects what the other uses and names
		// an option the other lacks. A skip dropped the new text (issue
		// 27's fifteenth set); it replaces the old one, as "Use
		// PowerShell" / "Use bash … instead of PowerShell" does, with no
		// reversal claimed.
		return Verdict{Action: Update, Similarity: v.Similarity}
	}
	if v.Action == Skip && !v.Exact && sameWordsOtherCounts(old.shapeOf().units, new.shapeOf().units) {
		// "The staging bucket mirrors the prod bucket, and the prod
		// bucket is read-only" / the same with staging and prod swapped:
		// HackLM's keywords are a set, and the two hold the same one; but
		// a word said more often in one says something of another term.
		// A skip would drop the new fact (a red team's), so it is stored
		// beside the old and the pair reported.
		return Verdict{Action: Store, Similarity: v.Similarity, Kind: KindSibling, Reason: "terms trade places"}
	}
	if v.Action == Skip && !v.Exact {
		// a skip drops the new text: not when its words trade roles
		// (roles.go)
		if x, y, reverses, ok := rolesSwapped(old.Raw, new.Raw); ok {
			switch {
			case len(x) > 0 && !slices.ContainsFunc(slices.Concat(x, y), func(t stok) bool { return !t.value }):
				return Verdict{Action: Update, Similarity: v.Similarity, Kind: KindValue, Reason: "values differ"}
			case reverses:
				return Verdict{Action: Conflict, Similarity: v.Similarity, Kind: KindReversal, Reason: "swaps two terms"}
			}
			// the same words in another order, which may say the same or
			// a second fact ("Alice reviews Bob's code" / "Bob reviews
			// Alice's code"): stored beside the old and reported as a
			// pair, so that neither is lost and nothing claims a reversal
			return Verdict{Action: Store, Similarity: v.Similarity, Kind: KindSibling, Reason: "terms trade places"}
		}
	}
	if v.Action == Skip || v.Action == Conflict && v.Reason == "reversal" && oneWordApartOnly(old, new) {
		// The words the comparison leaves out for their length ("es",
		// "fr", "qa") may be the whole difference (issue 27): one the new
		// text adds to all the old one has ("Idiomas activos: es y en" /
		// "… es, en, de y fr") is added detail; others changed make a
		// second fact ("Translations exist for fr and de" / "… fr and
		// es"), stored beside the old one, since a skip or a replacement
		// would lose one of them.
		os, ns := old.shapeOf().shortWords(), new.shapeOf().shortWords()
		if v.Action == Skip {
			// a skip drops the new text: the locales that are stop words
			// too ("Translations exist for fr and de" / "… fr and es")
			// count, lest the new fact be lost
			os, ns = old.shapeOf().shortAll(), new.shapeOf().shortAll()
		}
		switch {
		case sameMultiset(os, ns):
		case subsetMultiset(os, ns) && v.Action == Skip && subsetMultiset(unitWords(old), unitWords(new)):
			return Verdict{Action: Update, Similarity: v.Similarity, Kind: KindAddsDetail, Reason: "adds detail"}
		default:
			return Verdict{Action: Store, Similarity: v.Similarity, Kind: KindSibling, Reason: "sibling: " + quoteWords(os) + " vs " + quoteWords(ns)}
		}
	}
	return v
}

// codeLine reports whether raw is one code span and nothing else, holding
// a call.
func codeLine(raw string) bool { return OneCodeSpan(raw) && strings.Contains(raw, "(") }

// OneCodeSpan reports whether raw is one code span and nothing else: a
// line of code, which states no rule in words.
func OneCodeSpan(raw string) bool {
	r := strings.TrimSpace(raw)
	return len(r) > 2 && r[0] == '`' && r[len(r)-1] == '`' && strings.Count(r, "`") == 2
}

// oneWordApartOnly reports whether a reversal was read from one word of
// the Cores apart, the case a changed short word can make wrong.
func oneWordApartOnly(old, new *Text) bool {
	_, _, ok := oneWordApart(old.Core(), new.Core())
	return ok
}

// sameWordsOtherCounts reports whether a and b hold the same words, some
// of them a different number of times. It allocates nothing for texts of
// an entry's length (it runs on every skip a check's pairs decide), and
// counts by map beyond.
func sameWordsOtherCounts(a, b []unit) bool {
	if len(a)+len(b) > 128 {
		return sameWordsOtherCountsLong(a, b)
	}
	count := func(us []unit, w string) (n int) {
		for _, u := range us {
			if u.s == w {
				n++
			}
		}
		return n
	}
	differ := false
	for _, u := range a {
		nb := count(b, u.s)
		if nb == 0 {
			return false
		}
		differ = differ || nb != count(a, u.s)
	}
	for _, u := range b {
		if count(a, u.s) == 0 {
			return false
		}
	}
	return differ
}

func sameWordsOtherCountsLong(a, b []unit) bool {
	ca, cb := map[string]int{}, map[string]int{}
	for _, u := range a {
		ca[u.s]++
	}
	for _, u := range b {
		cb[u.s]++
	}
	if len(ca) != len(cb) {
		return false
	}
	differ := false
	for w, n := range ca {
		m, ok := cb[w]
		if !ok {
			return false
		}
		differ = differ || m != n
	}
	return differ
}

func sameMultiset(a, b []string) bool {
	return len(a) == len(b) && subsetMultiset(a, b)
}

// subsetMultiset reports whether every word of a is in b, as often.
func subsetMultiset(a, b []string) bool {
	used := make([]bool, len(b))
next:
	for _, w := range a {
		for j, x := range b {
			if !used[j] && x == w {
				used[j] = true
				continue next
			}
		}
		return false
	}
	return true
}

func quoteWords(ws []string) string { return `"` + strings.Join(ws, " ") + `"` }

// oneClause reports whether t's content words stand in one sentence.
func oneClause(t *Text) bool {
	us := t.shapeOf().units
	return len(us) == 0 || us[0].clause == us[len(us)-1].clause
}

// unitWords are the content words of t, in order.
func unitWords(t *Text) []string {
	us := t.shapeOf().units
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.s
	}
	return out
}

func classify(old, new *Text, th Thresholds) Verdict {
	// The pair code (exact.go) takes this test for an equivalence: one
	// function keeps the two in step.
	if Exact(old, new) {
		return exactVerdict
	}
	sim := Jaccard(old.Keys(), new.Keys())
	if samePunctuatedAside(old.Raw, new.Raw) {
		// "Wrap at eighty columns, not one hundred" without its comma:
		// punctuation, spacing and hyphens never make a reversal (issue
		// 27), though a comma changes how an order phrase is read
		return Verdict{Action: Skip, Similarity: sim, Kind: KindDuplicate}
	}
	flipped := old.effectiveSign() != new.effectiveSign()
	if v, ok := reversal(old, new, flipped, sim); ok {
		return v
	}
	if a, b, ok := oneWordApart(old.Core(), new.Core()); ok && antonyms(a, b) && slices.Equal(old.Numbers(), new.Numbers()) &&
		unitsOneWordApart(old, new) && !underCondition(old.Raw, a) && !underCondition(new.Raw, b) {
		// only where nothing else differs: "The build works on Node 18" /
		// "… breaks on Node 20" are two facts (a red team's pair)
		// "case-sensitive" / "case-insensitive", "Activer" / "Désactiver"
		// (issue 27): a word and its negation by prefix flip the rule,
		// unless a negator flips it back.
		if !flipped {
			return Verdict{Action: Conflict, Similarity: sim, Kind: KindReversal, Reason: "reversal"}
		}
		if old.shapeOf().negations%2 == new.shapeOf().negations%2 || directionsDiffer(old, new) {
			// the other flip is a direction ("below 100 rps" / "above",
			// "during startup" / "after"), or the two stand at other
			// times: they hold under different conditions, both true
			// (red teams')
			return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "sibling: " + quoteWords([]string{a}) + " vs " + quoteWords([]string{b})}
		}
		return Verdict{Action: Update, Similarity: sim, Kind: KindReworded}
	}
	// A value changed when both texts state one: a name that carries a
	// digit where the other text has a word ("Windows" / "WSL2") is a
	// swapped term, read below, not a changed value.
	valuesDiffer := len(old.Numbers()) > 0 && len(new.Numbers()) > 0 && !slices.Equal(old.Numbers(), new.Numbers())
	if valuesDiffer && len(old.Core()) >= 1 && slices.Equal(old.Core(), new.Core()) && !flipped &&
		(len(old.Core()) >= 2 || sameButValues(old.Raw, new.Raw)) {
		// Only values differ, however few words are left to compare:
		// "Pin Terraform to 1.5.7" / "… to 1.9.0" is 0.5 to HackLM.
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	}
	if !valuesDiffer && !flipped && len(old.Core()) >= 2 && sim < th.Update && sim < th.Skip &&
		slices.Equal(old.Core(), new.Core()) && !directionsDiffer(old, new) && (oneClause(old) && oneClause(new) || slices.Equal(unitWords(old), unitWords(new))) {
		// The same words said with other polarity vocabulary in the same
		// direction: "Keep secrets out of the repository" / "Remove
		// secrets from the repository" (issue 27). One fact, reworded;
		// in several sentences, words in another order may have traded
		// places ("Use pnpm; nunca use npm" / "Use npm; não use pnpm"),
		// read below.
		return Verdict{Action: Update, Similarity: sim, Kind: KindReworded}
	}
	if !flipped && !valuesDiffer && !old.hasOrder && !new.hasOrder && sim < th.Skip && sim < th.Update {
		if cs := Jaccard(old.Core(), new.Core()); cs >= max(th.Update, coreCandidateMin) && !directionsDiffer(old, new) {
			// The content words agree and only the polarity words are
			// spelled otherwise, in the same direction: "Don't create
			// docs unless asked" / "Do not create docs unless asked",
			// "Never …" / "… must not" (issue 27). The Core is judged in
			// place of the keywords; Pairs offers the pair by its Core.
			sim = cs
		}
	}
	if sim < th.Skip && sim < th.Update {
		if v, ok := swapVerdict(old, new, sim); ok {
			return v
		}
		return Verdict{Action: Store, Similarity: sim}
	}
	if valuesDiffer && ownValues(old.Numbers(), new.Numbers()) && ownValues(new.Numbers(), old.Numbers()) {
		// A value that only one text states stands where the other has a
		// word: "`SUSISlaveTest.ReadSpecialCVs_Banked` covers RCN-602" /
		// "`LegacySusiE2ETest.readSpecialCVs` covers RCN-602" name two
		// tests (issue 27's seventh set), which the readings below tell
		// from a changed value.
		if a, b, ok := otherFileValues(old.Numbers(), new.Numbers()); ok && !placesAFile(old.Raw, a) && !placesAFile(new.Raw, b) {
			// "Read agent-rules/00-core-principles.md first" / "… 07-git-
			// branch-strategy.md …": another file of a numbered series is
			// a second fact (issue 27's twelfth set)
			return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "sibling: " + quoteWords([]string{a}) + " vs " + quoteWords([]string{b})}
		}
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	}
	ou, nu := old.shapeOf().units, new.shapeOf().units
	if i, j, ok := transposed(old.shapeOf().short, new.shapeOf().short, ou, nu); !flipped && ok {
		// the old text's words, read once for the readings below
		toks, at := unitTokens(old.Raw, j)
		if at == nil {
			return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "terms trade places"}
		}
		if conditionSplits(old.Raw, toks, at[i]+1, at[j]) {
			// values too: "Replica 1 takes over when replica 2 is down"
			// and its mirror are both true (a red team's)
			return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "terms trade places"}
		}
		if ou[i].value && ou[j].value && valuesNameEnds(old.Raw, new.Raw) {
			// "Port 8080 forwards to port 9090", "from us-east-1 to
			// eu-west-1": values that name the two ends of one relation
			// trade places, as names do (a red team's)
			return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "terms trade places"}
		}
		if ou[i].value && ou[j].value {
			// "Retry 2 times, then wait 10 seconds" / "Retry 10 times, then
			// wait 2 seconds": the values changed places
			return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
		}
		if negatorsBefore(toks, at[i])%2 != negatorsBefore(toks, at[j])%2 {
			// "Use yarn; never use npm" / "Use npm; never use yarn": the
			// two terms trade polarity
			return Verdict{Action: Conflict, Similarity: sim, Kind: KindReversal, Reason: "swaps two terms"}
		}
		if _, _, reverses, ok := rolesSwapped(old.Raw, new.Raw); ok && reverses || !ok && parallelSlots(toks, at[i], at[i]+1, at[j], at[j]+1) {
			// "Use uv for tooling, not pip", "Update tasks.md before
			// progress.md": something between the terms ranks them;
			// "Answer in German; commits in English": each fills a slot
			// of its own, and the swap reassigns both
			return Verdict{Action: Conflict, Similarity: sim, Kind: KindReversal, Reason: "swaps two terms"}
		}
		// Otherwise the terms are the two ends of one relation, and the
		// swap may state a second fact as true as the first ("Replica
		// db2 takes over when db1 fails" / "Replica db1 takes over when
		// db2 fails", "If Alice is away, ask Bob" / "If Bob is away, ask
		// Alice", "Mirror from GitLab to GitHub": a red team's failover
		// and escalation pairs). A replacement would lose the first, so
		// the new text is stored beside the old and the pair reported for
		// the caller to settle (issue 27).
		return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "terms trade places"}
	}
	moved := directionsDiffer(old, new)
	if !flipped && !moved && !old.hasOrder && !new.hasOrder && sameWords(ou, nu) {
		// The same words in another order, hyphenation or form: "CRLF
		// line endings break shellcheck on Windows runners" / "On Windows
		// runners, CRLF line-endings break `shellcheck`" (issue 27).
		return Verdict{Action: Skip, Similarity: sim, Kind: KindDuplicate}
	}
	if x, y, ok := oneTermEverywhere(ou, nu); ok && !flipped {
		// "Load the VAN mode map before starting VAN mode" / "Load the
		// PLAN mode map before starting PLAN mode": one term swapped in
		// each place it stands is a second fact, as a swap in one place
		// is; an update would replace the first (issue 27's sixth set)
		return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: "sibling: " + quoteUnits([]unit{x}) + " vs " + quoteUnits([]unit{y})}
	}
	d := compareUnits(ou, nu)
	if reason, ok := d.otherFiles(old.Raw, new.Raw); ok && !d.sibling && !d.adds && !d.drops {
		// "单聊 … session.stream.friend.ts" / "群聊 … session.stream.group.ts",
		// "… README.md" / "… docs/ 下的文档": the same frame about another
		// file is a second fact, however alike the rest reads (issue 27's
		// sixth set); a rewording keeps its files
		return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: reason}
	}
	if moved && !d.sibling && !d.adds {
		// "Before the cache warms up the proxy is enabled" / "After … it
		// is disabled", "vor dem Login aktiv" / "nach dem Login
		// deaktiviert": the same words under another time or threshold
		// are a second fact, never a rewording (a red team's)
		return Verdict{Action: Store, Similarity: sim}
	}
	switch {
	case d.sibling && sameQuantity(d.old, d.new):
		// "about twenty builds" / "about 20 builds"
		return Verdict{Action: Skip, Similarity: sim, Kind: KindDuplicate}
	case d.sibling && quantityUnits(d.old) && quantityUnits(d.new):
		// "thirty minutes" / "sixty minutes": a value in words
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	case d.sibling:
		return Verdict{Action: Store, Similarity: sim, Kind: KindSibling, Reason: d.reason()}
	case valuesDiffer:
		// a value more or less in a list ("Python 3.9, 3.10 and 3.11" /
		// "… now 3.10 and 3.11"): the same fact with other values, never
		// a duplicate (a red team's)
		return Verdict{Action: Update, Similarity: sim, Kind: KindValue, Reason: "values differ"}
	case d.adds:
		// The new text is the old one and more ("Supported platforms:
		// macOS, Linux, Windows and FreeBSD"): replacing the old loses
		// nothing, where HackLM's skip at its threshold drops the detail
		// the agent was asked to keep (issue 27).
		return Verdict{Action: Update, Similarity: sim, Kind: KindAddsDetail, Reason: "adds detail"}
	case d.drops:
		// HackLM's call stands (a skip at the skip threshold, else an
		// update), but the kind tells cleanup this is no true duplicate:
		// "Run tests with -race on CI" and "Run tests with -race" are two
		// rules.
		v := Verdict{Action: Update, Similarity: sim, Kind: KindLessDetail, Reason: "says less"}
		if sim >= th.Skip {
			v.Action = Skip
		}
		return v
	case sim >= th.Skip:
		return Verdict{Action: Skip, Similarity: sim, Kind: KindDuplicate}
	}
	return Verdict{Action: Update, Similarity: sim, Kind: KindReworded}
}

// ownValues reports whether a, sorted, holds a value b does not.
func ownValues(a, b []string) bool { return len(valuesOnlyIn(a, b)) > 0 }

// valuesOnlyIn are the values of a, sorted, that b, sorted, lacks.
func valuesOnlyIn(a, b []string) []string {
	var out []string
	for _, v := range a {
		if _, found := slices.BinarySearch(b, v); !found {
			out = append(out, v)
		}
	}
	return out
}

// flipsUnderCondition reports whether every negator of raw (direction
// words aside) stands in a condition, after a word of condition in its
// clause: "Deploy on Fridays as long as QA signs off", "… unless the build
// is not green". The words added to a rule then say when it holds, which
// narrows it and reverses nothing (a red team's: each was a reversal
// with extra words, the old entry replaced).
func flipsUnderCondition(raw string) bool {
	if !conditional(raw) {
		return false // no condition: the words need no reading
	}
	clause, under, flips := -1, false, 0
	toks := shapeTokens(raw)
	for k, t := range toks {
		if t.clause != clause {
			clause, under = t.clause, false
		}
		under = under || opensCondition(toks, k)
		if negator(t) {
			if !under {
				return false
			}
			flips++
		}
	}
	return flips > 0
}

// directionsDiffer reports whether the two texts place what they say at
// other times or thresholds: the words of timeWords each holds differ.
func directionsDiffer(a, b *Text) bool {
	return !slices.Equal(a.shapeOf().times, b.shapeOf().times)
}

// timeWords place a fact in time or against a threshold, in the six
// languages ("over" ranks options, "under" places files: neither counts).
var timeWords = text.WordSet(`after before below above during until prior
	après avant pendant jusqu nach vor während bis oberhalb unterhalb
	después antes durante hasta после до во время пока ниже выше`)

// directionWords are the polarity words that say a direction ("after",
// "below") rather than negate: a term after one of them is no more denied
// than a term before it ("Replica db2 takes over after db1 fails").
var directionWords = text.WordSet("after below less lower fewer out")

// negator reports whether t negates: a polarity word that is no
// direction.
func negator(t stok) bool { return t.flags&fFlip != 0 && !directionWords[t.s] }

// negatorsBefore counts the negators before toks[k] in its clause,
// directionWords aside.
func negatorsBefore(toks []stok, k int) int {
	n := 0
	for i := k - 1; i >= 0 && toks[i].clause == toks[k].clause; i-- {
		if negator(toks[i]) {
			n++
		}
	}
	return n
}

// StoreVerdict is the verdict of storing new beside old: Classify's, but a
// new text that adds detail whose added words limit what old says
// (narrows) does not replace it. A rule that a store decides, not a
// relation of the pair: check still reports the two as near-duplicates.
func StoreVerdict(old, new *Text, th Thresholds) Verdict {
	v := Classify(old, new, th)
	if v.Action == Update && v.Kind == KindAddsDetail && narrows(old, new) {
		// "Deploy on Fridays" / "… except in December": the more limits
		// what the old text said, and replacing it would lose the rule
		// where the limit does not hold (a red team's); stored beside,
		// and the reply names the old entry
		return Verdict{Action: Store, Similarity: v.Similarity}
	}
	return v
}

// narrows reports whether the words new adds to old may limit or overturn
// what old says, so that replacing old would lose it where the limit does
// not hold: a sentence or a clause more ("Tests run in Docker on Linux; on
// macOS they run natively"), a word of exception, limit, contrast, change
// or condition ("only", "unless", "if", "until", "but", "elsewhere",
// "was", "sauf", "nur", "solo", "только", "除外", "のみ"), or a value where
// old states one ("Keep two replicas …, five in production"). A red
// team's list, in the six languages.
func narrows(old, new *Text) bool {
	ot, nt := shapeTokens(old.Raw), shapeTokens(new.Raw)
	oldValue := slices.ContainsFunc(ot, isValueToken)
	if tail, ok := reasonAdded(old.Raw, new.Raw, ot); ok {
		// "…, because the embedder is capped at 256 tokens" explains and
		// limits nothing, unless what follows the reason limits: a limit
		// word, a condition, a clause more or a value beside the old one
		// ("…, because of deps; macOS runs natively", a red team's)
		return conditional(tail) || cjkLimitAdded(old.Raw, tail) || slices.ContainsFunc(shapeTokens(tail), func(t stok) bool {
			return limitWords[t.s] || t.clause > 0 || oldValue && isValueToken(t)
		})
	}
	if len(nt) > 0 && len(ot) > 0 && nt[len(nt)-1].clause > ot[len(ot)-1].clause {
		return true
	}
	if conditional(new.Raw) && !conditional(old.Raw) {
		return true // a condition added (conditionWords, in every language)
	}
	have := map[string]int{}
	for _, t := range ot {
		have[t.s]++
	}
	for _, t := range nt {
		if have[t.s] > 0 {
			have[t.s]--
			continue
		}
		if limitWords[t.s] || oldValue && isValueToken(t) {
			return true
		}
	}
	return cjkLimitAdded(old.Raw, new.Raw)
}

// isValueToken reports whether a shape token states a value: "256",
// "v2", "five".
func isValueToken(t stok) bool { return t.value || numberValues[t.s] > 0 }

// cjkLimitAdded reports whether new holds a CJK limit ("仅", "のみ") old
// does not.
func cjkLimitAdded(old, new string) bool {
	for _, w := range cjkLimits {
		if strings.Contains(new, w) && !strings.Contains(old, w) {
			return true
		}
	}
	return false
}

// reasonWord opens a clause that says why: "…, because the embedder is
// capped at 256 tokens".
var reasonWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:because|weil|parce que|porque|ya que)\b|(?:^|[^\p{L}])(?:потому что|так как)(?:$|[^\p{L}])|因为|由于`)
})

// reasonAdded reports whether new is old, whose tokens are ot, and then a
// clause that says why; tail is that clause, from its reason word.
func reasonAdded(old, new string, ot []stok) (tail string, ok bool) {
	loc := reasonWord().FindStringIndex(new)
	if loc == nil || reasonWord().MatchString(old) {
		return "", false
	}
	pt := shapeTokens(new[:loc[0]])
	return new[loc[0]:], slices.EqualFunc(ot, pt, func(a, b stok) bool { return a.s == b.s })
}

// limitWords limit, except, contrast or date what they are added to (a
// condition is read by conditional).
var limitWords = text.WordSet(`only except excepting excluding unless until till but however instead elsewhere
	otherwise was were used old previously formerly now anymore longer moved replaced deprecated obsolete banned
	prohibited forbidden wrong mistake outdated bad discouraged provided
	sauf excepté hormis uniquement seulement seul seule mais sinon ailleurs jusqu autrefois désormais remplacé obsolète interdit
	außer ausser nur aber sonst bis jedoch früher jetzt ersetzt veraltet verboten
	excepto salvo solo sólo únicamente pero sino hasta antes ahora reemplazado obsoleto prohibido
	кроме только лишь но однако иначе до раньше теперь заменён устарело запрещено`)

// cjkLimits are limit words of Chinese and Japanese, found in the raw text
// (their words are characters to the shape).
var cjkLimits = []string{"除外", "除了", "仅限", "仅", "只", "但", "以前", "现在", "改为", "禁止", "のみ", "だけ", "ただし", "以外", "除く", "除いて", "まで", "今は"}

// valuesNameEnds reports whether b is a with its two values trading places
// (the same values, the rest alike) where they name the two ends of one
// relation rather than fill a slot each: across a condition, after a word
// that opens a direction ("from us-east-1 to eu-west-1"), or each after
// the same word ("port 8080 … port 9090"), with no slot of their own
// (parallelSlots). "Retry 2 times, then wait 10 seconds" / "Retry 10
// times, then wait 2 seconds" changes two values: an update.
func valuesNameEnds(a, b string) bool {
	ta, tb := shapeTokens(a), shapeTokens(b)
	if len(ta) != len(tb) {
		return false
	}
	var at []int
	for k := range ta {
		if ta[k].s != tb[k].s {
			if !ta[k].value || !tb[k].value {
				return false
			}
			at = append(at, k)
		}
	}
	if len(at) != 2 {
		return false
	}
	x, y := at[0], at[1]
	if ta[x].s != tb[y].s || ta[y].s != tb[x].s {
		return false
	}
	if conditionSplits(a, ta, x+1, y) {
		return true
	}
	if x > 0 && fromWords[ta[x-1].s] {
		return true
	}
	return x > 0 && y > 0 && ta[x-1].s == ta[y-1].s && !ta[x-1].value && !parallelSlots(ta, x, x+1, y, y+1)
}

// unitTokens are the words of raw and the index among them of each of its
// shape's units up to unit j (nil when it has fewer).
func unitTokens(raw string, j int) ([]stok, []int) {
	toks := shapeTokens(raw)
	at := make([]int, 0, j+1)
	for k, t := range toks {
		if t.unit {
			at = append(at, k)
		}
	}
	if j >= len(at) {
		return toks, nil
	}
	return toks, at
}

// oneTermEverywhere reports whether b is a with one word, x, replaced by
// another, y, in two places or more and nowhere else: not a value, not
// another form of the same word, not a CJK character (a CJK term is
// several units, which compareUnits reads). A place may be a word that
// holds x whole, as a path's does: "`docs/` … `docs/AGENTS.md`" /
// "`samples/` … `samples/AGENTS.md`" (issue 27's seventh set).
func oneTermEverywhere(a, b []unit) (x, y unit, ok bool) {
	if len(a) != len(b) {
		return unit{}, unit{}, false
	}
	var differ []int
	for k := range a {
		if a[k].s != b[k].s {
			differ = append(differ, k)
		}
	}
	if len(differ) == 0 {
		return unit{}, unit{}, false
	}
	first := differ[0]
	for _, k := range differ {
		if len(a[k].s) < len(a[first].s) {
			first = k
		}
	}
	x, y = a[first], b[first]
	n := 0
	for _, k := range differ {
		if a[k].s == x.s && b[k].s == y.s || len(x.s) >= 3 && len(y.s) >= 3 && strings.Contains(a[k].s, x.s) &&
			strings.ReplaceAll(a[k].s, x.s, y.s) == b[k].s {
			n++
			continue
		}
		return unit{}, unit{}, false
	}
	if n < 2 || x.value || y.value || x.cjk || y.cjk || variants([]unit{x}, []unit{y}) {
		return unit{}, unit{}, false
	}
	for k := range a {
		if a[k].s == y.s || b[k].s == x.s {
			return unit{}, unit{}, false // the terms trade places: transposed's
		}
	}
	return x, y, true
}

// transposed reports whether b is a with two units, i and j, trading
// roles: the same units, two of them in each other's places, each now
// beside other words or under another polarity. Two terms side by side
// ("Run lint and test" / "Run test and lint") and clauses that moved whole
// ("Use yarn; never use npm" / "Never use npm; use yarn") trade no role.
func transposed(sa0, sb0 []unit, a, b []unit) (i, j int, ok bool) {
	if len(a) != len(b) {
		return 0, 0, false
	}
	i, j = -1, -1
	for k := range a {
		if a[k].s == b[k].s {
			continue
		}
		switch {
		case i < 0:
			i = k
		case j < 0:
			j = k
		default:
			return 0, 0, false
		}
	}
	if j < 0 || a[i].s != b[j].s || a[j].s != b[i].s || j == i+1 && a[i].clause == a[j].clause {
		return 0, 0, false
	}
	moved := func(from, to int) bool {
		if a[from].flips%2 != b[to].flips%2 {
			return true // under another polarity
		}
		if slices.Equal(clauseWords(a, from), clauseWords(b, to)) {
			return false
		}
		// beside other words, unless the clause's short words came along
		// ("Show the banner in de; hide it in fr" / "Hide the banner in
		// fr; show it in de": the verbs moved with their locales)
		sa, sb := clauseShort(sa0, a[from].clause), clauseShort(sb0, b[to].clause)
		return len(sa) == 0 || !slices.Equal(sa, sb)
	}
	return i, j, moved(i, j) || moved(j, i)
}

// clauseShort are the short words of clause c.
func clauseShort(short []unit, c int) []string {
	var out []string
	for _, u := range short {
		if u.clause == c {
			out = append(out, u.s)
		}
	}
	return out
}

// clauseWords are the units of us in the clause of unit k, k aside.
func clauseWords(us []unit, k int) []string {
	var out []string
	for n, u := range us {
		if n != k && u.clause == us[k].clause {
			out = append(out, u.s)
		}
	}
	return out
}

// reversal decides whether new reverses old: a flipped sign or a reversed
// order over the same Core, the same with words added on one side, or a
// preference for something else over what the other text plainly states.
func reversal(old, new *Text, flipped bool, sim float64) (Verdict, bool) {
	conflict := func(reason string) (Verdict, bool) {
		return Verdict{Action: Conflict, Similarity: sim, Kind: KindReversal, Reason: reason}, true
	}
	if len(old.Core()) == 0 && len(new.Core()) == 0 {
		if flipped && old.normCore() != "" && old.normCore() == new.normCore() {
			return conflict("reversal")
		}
		return Verdict{}, false
	}
	coreSim := Jaccard(old.Core(), new.Core())
	if coreSim < coreCandidateMin {
		return Verdict{}, false
	}
	reversed := ordersReversed(old, new)
	if flipped && !reversed && affirmedOwnWords(old, new) {
		// The text without the negation holds content words the negated
		// one lacks, and one of them may say the negation itself: "Use the
		// stable toolchain, prevent using nightly toolchains" / "…; do not
		// use nightly toolchains", "Keep the golden tests unchanged" / "Do
		// not modify the golden tests" (issue 27's ninth and thirteenth
		// sets). Whether it reverses the rule or restates it, the words
		// cannot tell, so the new text replaces the old as a reversal
		// would, with nothing claimed: no reversal in the reply,
		// conflicts.log or check, and the old text in the provenance log.
		// Reading such words as negators lost facts ("… to prevent
		// abuse": e8edf01).
		if max(coreSim, looseJaccard(old.Core(), new.Core())) >= reversalMin || subset(old.Core(), new.Core()) || subset(new.Core(), old.Core()) {
			return Verdict{Action: Update, Similarity: sim, Reason: "polarity in other words"}, true
		}
	}
	if flipped && !reversed && (rejectsOnlyOtherCode(old, new) || rejectsOnlyOtherCode(new, old)) {
		return Verdict{}, false
	}
	if flipped != reversed {
		// Forms of one word count as one ("before you commit" / "before
		// committing"): such a pair is already a candidate of Pairs, whose
		// filter reads the Cores as they are.
		if max(coreSim, looseJaccard(old.Core(), new.Core())) >= reversalMin {
			return conflict("reversal")
		}
		if subset(old.Core(), new.Core()) && !flipsUnderCondition(new.Raw) || subset(new.Core(), old.Core()) && !flipsUnderCondition(old.Raw) {
			return conflict("reversal with extra words")
		}
	}
	if !flipped && !reversed && (orderAgainst(old, new) || orderAgainst(new, old)) &&
		(subset(old.Core(), new.Core()) || subset(new.Core(), old.Core())) {
		return conflict("prefers another option")
	}
	return Verdict{}, false
}

// opensCondition reports whether toks[k] opens a word of condition, or a
// phrase of up to three ("as long as").
func opensCondition(toks []stok, k int) bool {
	for n := 1; n <= 3 && k+n <= len(toks); n++ {
		words := make([]string, n)
		for i := range n {
			words[i] = toks[k+i].s
		}
		if conditional(strings.Join(words, " ")) {
			return true
		}
	}
	return false
}

// underCondition reports whether the word w of raw stands in a condition
// ("Notify Slack when a feature is enabled", "…, wenn ein Feature
// aktiviert wird"): the opposite there names a second event, whose rule
// is a second fact, not the reversal of the first (a red team's). A
// condition that opens the sentence ends at its comma ("If the build
// fails, enable debug logging" orders the opposite in the main clause).
func underCondition(raw, w string) bool {
	clause, under := -1, false
	toks := shapeTokens(raw)
	for k, t := range toks {
		if t.clause != clause || t.comma && under {
			clause, under = t.clause, false
		}
		under = under || opensCondition(toks, k)
		if t.s == w {
			return under
		}
	}
	return false
}

// unitsOneWordApart reports whether the two texts' units, the short words
// the Core leaves out included, differ in one word: "Das Caching ist in
// CI deaktiviert" holds a scope "aktiviert" lacks, and is an exception
// stored beside the rule, not its reversal (a red team's).
func unitsOneWordApart(old, new *Text) bool {
	a, b := unitWords(old), unitWords(new)
	return len(only(a, b)) <= 1 && len(only(b, a)) <= 1
}

// asks reports whether a text is a question: a question mark ends it.
// One inside it asks nothing of the rule ("Direct pushes are allowed. Why?
// Speed.", "Use the ? operator": a red team's). Emphasis may close after
// it ("**Why enable SSR?**").
func asks(raw string) bool {
	t := strings.TrimRight(raw, " \t*_")
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
}

// subset: every element of the sorted slice a is in the sorted slice b.
func subset(a, b []string) bool {
	j := 0
	for _, s := range a {
		for j < len(b) && b[j] < s {
			j++
		}
		if j == len(b) || b[j] != s {
			return false
		}
	}
	return true
}

// Jaccard of two sorted unique slices; 0 if either is empty (HackLM's rule).
func Jaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := intersection(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// intersection counts the elements two sorted unique slices share.
func intersection[T cmp.Ordered](a, b []T) int {
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return inter
}

// Decide is storeMemory's dedup over the entries of one category, in file
// order: the first exact duplicate wins at once; otherwise the strongest
// action (conflict > skip > update > store), then the highest similarity,
// then the earliest entry. match is -1 when the verdict is Store with no entry.
func Decide(new *Text, existing []*Text, th Thresholds) (match int, v Verdict) {
	match, v = -1, Verdict{Action: Store}
	for i, old := range existing {
		c := StoreVerdict(old, new, th)
		if c.Exact {
			return i, c
		}
		if stronger(c, v) {
			match, v = i, c
		}
	}
	return match, v
}

// rank orders the actions by how much they override the others.
var rank = [...]int{Store: 0, Update: 1, Skip: 2, Conflict: 3}

// stronger: strict comparisons keep the earliest entry on ties. A Store with
// similarity 0 never wins, so match stays -1 when nothing is related at all,
// as in HackLM.
func stronger(c, best Verdict) bool {
	if rank[c.Action] != rank[best.Action] {
		return rank[c.Action] > rank[best.Action]
	}
	return c.Similarity > best.Similarity
}

// samePunctuatedAside reports whether two texts hold the same letters,
// digits and comparison signs in the same order, letter case, punctuation,
// spacing and hyphens aside ("hard-code" / "hardcode", "client-side" /
// "client side"). The signs stay: "< 1000" and "> 1000" differ, and "!" is
// one only before "=" ("!=", not an exclamation). Classify asks
// it of every pair it judges, so the two texts are read side by side and
// left at the first difference, with nothing allocated.
func samePunctuatedAside(a, b string) bool {
	if a == b {
		return false
	}
	x, y := signReader{s: a}, signReader{s: b}
	for {
		r, ok := x.next()
		q, ok2 := y.next()
		if ok != ok2 || r != q {
			return false
		}
		if !ok {
			return x.any
		}
	}
}

// signReader reads a text as samePunctuatedAside compares it: its letters,
// digits, marks and comparison signs, lower-cased, with nothing between
// them ("RFC-7807" / "RFC 7807", "snake_case" / "snake case").
type signReader struct {
	s         string
	i         int
	any       bool // a rune was read
	sep       bool // a separator came since the last rune read
	lastDigit bool // the last rune read was a digit
	pending   rune // the digit after a space given out
}

func (sr *signReader) next() (rune, bool) {
	if r := sr.pending; r != 0 {
		sr.pending = 0
		return r, true
	}
	for sr.i < len(sr.s) {
		var r rune
		if c := sr.s[sr.i]; c < utf8.RuneSelf {
			sr.i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '<' || c == '>' || c == '=' ||
				c == '!' && sr.i < len(sr.s) && sr.s[sr.i] == '=':
				r = rune(c)
			case 'A' <= c && c <= 'Z':
				r = rune(c + 'a' - 'A')
			default:
				sr.sep = true
				continue
			}
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(sr.s[sr.i:])
			sr.i += n
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("≤≥≠", r)) {
				sr.sep = true
				continue
			}
			r = unicode.ToLower(r)
		}
		digit := '0' <= r && r <= '9' || r >= utf8.RuneSelf && unicode.IsDigit(r)
		space := sr.sep && sr.lastDigit && digit
		sr.any, sr.sep, sr.lastDigit = true, false, digit
		if space {
			sr.pending = r
			return ' ', true
		}
		return r, true
	}
	return 0, false
}

// oneWordApart returns the one word of sorted Core a that b lacks and the
// one of b that a lacks, when the two differ by exactly that, sharing at
// least two words (so that Pairs offers the pair: swapCandidate).
func oneWordApart(a, b []string) (x, y string, ok bool) {
	if len(a) != len(b) || len(a) < 3 {
		return "", "", false
	}
	i, j, nx, ny := 0, 0, 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			x, nx, i = a[i], nx+1, i+1
		case i == len(a) || b[j] < a[i]:
			y, ny, j = b[j], ny+1, j+1
		default:
			i, j = i+1, j+1
		}
		if nx > 1 || ny > 1 {
			return "", "", false
		}
	}
	return x, y, nx == 1 && ny == 1
}

// antonymPrefixes negate the word they open, with the least length of the
// rest: "dis" only before five letters or more, so that "play" / "display"
// is no pair.
var antonymPrefixes = []struct {
	p   string
	min int
}{{"non-", 3}, {"non", 4}, {"un", 4}, {"in", 4}, {"im", 4}, {"il", 4}, {"ir", 4}, {"dis", 5}, {"dés", 5}, {"des", 5}}

// antonymPairs are words whose opposites are not spelled with a prefix, in
// the memory of software teams: a word maps to +n and its opposites to -n.
// Only words with no second sense are listed ("public" / "private" name two
// things as often as they oppose them: a swap there is a sibling).
var antonymPairs = func() map[string]int {
	m := map[string]int{}
	for g, pair := range antonymGroups {
		for _, w := range strings.Fields(pair[0]) {
			m[w] = g + 1
		}
		for _, w := range strings.Fields(pair[1]) {
			m[w] = -(g + 1)
		}
	}
	return m
}()

// antonymGroups are the words of antonymPairs: each a word of one side and
// the other; no word is in two groups (TestAntonymPairsAreOpposites).
var antonymGroups = [][2]string{
	{"works work worked working succeeds succeed succeeded passes passed", "breaks break broke broken fails fail failed failing"},
	{"optimistic", "pessimistic"},
	{"allow allows allowed permit permitted", "forbid forbids forbidden deny denies denied prohibit prohibited"},
	{"include includes included", "exclude excludes excluded"},
	{"show shows shown", "hide hides hidden"},
	{"mandatory required", "optional"},
	{"eager eagerly", "lazy lazily"},
	{"synchronous synchronously sync", "asynchronous asynchronously async"},
	{"increase increases increased", "decrease decreases decreased"},
	{"accept accepts accepted", "reject rejects rejected"},
	{"autoriser autorisé autorisée autorisés", "interdire interdit interdite interdits"},
	{"inclure inclus", "exclure exclus"},
	{"afficher affiché", "masquer masqué cacher caché"},
	{"obligatoire", "facultatif facultative optionnel optionnelle"},
	{"erlauben erlaubt", "verbieten verboten"},
	{"einschließen", "ausschließen"},
	{"anzeigen", "ausblenden verbergen"},
	{"pflicht verpflichtend", "freiwillig"},
	{"permitir permitido permitida", "prohibir prohibido prohibida"},
	{"incluir incluido", "excluir excluido"},
	{"mostrar", "ocultar"},
	{"obligatorio obligatoria", "opcional"},
	// issue 27's eighth set: "eslint ist aktiv" / "… deaktiviert", a
	// security service "fail-open" / "fail-closed"
	{"aktiv aktiviert", "deaktiviert inaktiv"},
	{"fail-open", "fail-closed"},
	{"разрешить разрешено разрешён", "запретить запрещено запрещён"},
	{"показывать показать", "скрывать скрыть"},
	{"обязательно обязательный", "необязательно необязательный опционально"},
	// issue 27's eleventh set: "Prefer verbose variable names" / "… terse
	// …", "Сервис включён по умолчанию" / "… выключен …"
	{"verbose", "terse"},
	{"включён включен включено включена", "выключен выключено выключена отключён отключен отключено отключена"},
}

// antonyms reports whether one word is the other's opposite: listed in
// antonymPairs, or negated by a prefix, as a whole or after a shared
// hyphenated head ("case-sensitive" / "case-insensitive").
func antonyms(a, b string) bool {
	if g := antonymPairs[a]; g != 0 && antonymPairs[b] == -g {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if i, j := strings.LastIndexByte(a, '-'), strings.LastIndexByte(b, '-'); i > 0 && j > 0 && a[:i] == b[:j] {
		a, b = a[i+1:], b[j+1:]
	}
	for _, ap := range antonymPrefixes {
		if rest, ok := strings.CutPrefix(b, ap.p); ok && rest == a && utf8.RuneCountInString(a) >= ap.min {
			return true
		}
	}
	return false
}

// looseJaccard is Jaccard where two words that are forms of one (variants)
// count as shared.
func looseJaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	used := make([]bool, len(b))
	shared := 0
	for _, x := range a {
		for j, y := range b {
			if !used[j] && (x == y || variants([]unit{{s: x}}, []unit{{s: y}})) {
				used[j] = true
				shared++
				break
			}
		}
	}
	return float64(shared) / float64(len(a)+len(b)-shared)
}

// sameButValues reports whether two texts are the same words, stop words
// included, once their values are set aside: "Use Go 1.22 for builds" /
// "Use Go 1.23 for builds", whose Core ("builds") is too short to say so.
func sameButValues(a, b string) bool {
	x, y := shapeTokens(a), shapeTokens(b)
	i, j := 0, 0
	for {
		for i < len(x) && x[i].value {
			i++
		}
		for j < len(y) && y[j].value {
			j++
		}
		if i == len(x) || j == len(y) {
			return i == len(x) && j == len(y)
		}
		if x[i].s != y[j].s {
			return false
		}
		i, j = i+1, j+1
	}
}
