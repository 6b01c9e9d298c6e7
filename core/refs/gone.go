package refs

import "strings"

// An entry that says a path was removed, renamed or replaced agrees with
// the repository when the path is missing: "No more `index.html`: the site
// is built by Vite", "`lib/old.ts` was replaced by `lib/new.ts`". The
// words are read for the whole entry, which is one sentence, except that a
// path written right after "to", "into", "by" or "with" is where something
// went (`lib/new.ts` above), which must exist. A stale path of an entry
// that speaks of another's removal may so stay silent: the cheaper mistake,
// since a warning on a true entry teaches users to switch the rule off.
//
// Only words of removal count, not adjectives of age: "the legacy SSE
// transport (`src/server/sse.ts`)" and "deprecated helpers in `lib/`" speak
// of code that is still meant to be there.

// removalWords are the words and two-word phrases, lower-case, that speak
// of something as gone.
var removalWords = set(
	"removed", "deleted", "dropped", "gone", "replaced", "renamed", "moved", "migrated",
	"formerly", "previously", "retired", "superseded", "abandoned", "eliminated", "scrapped",
	"no longer", "no more", "used to", "instead of", "anymore", "any more",
)

// destinationWords, right before a path, make it where something went.
var destinationWords = set("to", "into", "by", "with", "onto", "->", "→")

// markGone sets Gone on the path references of an entry whose prose words
// (proseWords, lowered) hold one of removalWords.
func markGone(text string, lower []string, found []Ref) {
	if !removalDone(lower) {
		return
	}
	for i := range found {
		if r := &found[i]; r.Kind == Path && !destinationWords[lastWordBefore(text, r.Start)] {
			r.Gone = true
		}
	}
}

// removalDone reports whether lower (an entry's prose words, lowered)
// holds a removal word of one done, not to come: "being replaced by
// redis-worker", "will be removed", "to be dropped" speak of code that is
// there while the entry is true.
func removalDone(lower []string) bool {
	for i := range lower {
		toCome := i > 0 && (lower[i-1] == "being" || lower[i-1] == "be")
		if !toCome && phraseAt(lower, i, removalWords) {
			return true
		}
	}
	return false
}

// proseWords are the words of text outside its code spans and the
// references found in it (`src/legacy/x.ts` names a folder, it says nothing
// of it), as written: Extract lowers them for the phrase tests, an HTTP method counts only
// in capitals (GET, not "get").
func proseWords(text string, codes []codeSpan, found []Ref) []string {
	b := []byte(text)
	blank := func(start, end int) {
		for i := max(start, 0); i < end && i < len(b); i++ {
			b[i] = ' '
		}
	}
	for _, c := range codes {
		blank(c.outer.start, c.outer.end)
	}
	for _, r := range found {
		blank(r.Start, r.End)
	}
	return strings.FieldsFunc(string(b), func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '\'')
	})
}

// holdsPhrase reports whether lower (words in lower case) holds one of
// phrases, of one or two words.
func holdsPhrase(lower []string, phrases map[string]bool) bool {
	for i := range lower {
		if phraseAt(lower, i, phrases) {
			return true
		}
	}
	return false
}

// phraseAt reports whether one of phrases starts at lower[i].
func phraseAt(lower []string, i int, phrases map[string]bool) bool {
	w := lower[i]
	return phrases[w] || i+1 < len(lower) && pairFirsts[w] && phrases[w+" "+lower[i+1]]
}

// pairFirsts are the first words of the two-word phrases ("no longer",
// "instead of"): only after one is a pair worth making.
var pairFirsts = firstWords(removalWords, routeWords, nameNouns)

func firstWords(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for p := range s {
			if first, _, ok := strings.Cut(p, " "); ok {
				out[first] = true
			}
		}
	}
	return out
}

// lowered is words in lower case; a word already so is shared.
func lowered(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.ToLower(w)
	}
	return out
}

// lastWordBefore is the word (or arrow) that ends before s[i], past the
// spaces, backticks and quotes that open a citation, lower-case.
func lastWordBefore(s string, i int) string {
	j := i
	for j > 0 && strings.IndexByte(" \t`'\"(", s[j-1]) >= 0 {
		j--
	}
	k := j
	for k > 0 && strings.IndexByte(" \t`'\"(", s[k-1]) < 0 {
		k--
	}
	return strings.ToLower(s[k:j])
}
