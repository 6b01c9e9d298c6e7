package similar

import (
	"cmp"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Score is HackLM's pruning score: category weight + brevity + specificity.
func Score(cat category.Category, content string) int {
	w, b, s := ScoreTerms(cat, content)
	return w + b + s
}

// ScoreTerms returns the three terms of Score.
func ScoreTerms(cat category.Category, content string) (weight, brevity, specificity int) {
	weight = 10 // HackLM's weight for anything that is not a known category
	if cat.Valid() {
		weight = cat.Weight()
	}
	return weight, brevityScore(content), specificityScore(content)
}

// brevityScore measures in UTF-16 units, as JavaScript's length does, so an
// emoji counts twice.
func brevityScore(s string) int {
	switch n := utf16Len(s); {
	case n <= 50:
		return 15
	case n <= 100:
		return 12
	case n <= 150:
		return 8
	case n <= 200:
		return 5
	}
	return 2
}

// specificityScore hand-runs HackLM's six regular expressions in one pass;
// all of them look only at ASCII (JavaScript's \w and \b are ASCII without
// the u flag), so the text is read as bytes:
//
//	+4 /\.\w{1,5}(\s|$|\/)/ or /\/\w/   (paths, extensions)
//	+3 /\b(npm|pnpm|yarn|git|docker|make|cargo|pip|go)\b/i
//	+2 /["'`]/
//	+2 /\d+\.\d+/
//	+2 /\b[A-Z_]{3,}\b/
//	+2 /[a-z][A-Z]/
func specificityScore(s string) int {
	var path, command, quote, version, constant, camel bool
	for i := 0; i < len(s); {
		c := s[i]
		if isWordByte(c) {
			// \b…\b patterns match whole runs of \w, and [a-z][A-Z] lies
			// inside one
			e := wordEnd(s, i)
			w := s[i:e]
			command = command || len(w) <= 6 && isCommandWord(w)
			constant = constant || len(w) >= 3 && allCapitals(w)
			camel = camel || hasCamel(w)
			i = e
			continue
		}
		switch c {
		case '"', '\'', '`':
			quote = true
		case '/':
			path = path || i+1 < len(s) && isWordByte(s[i+1])
		case '.':
			path = path || isExtension(s, i)
			version = version || i > 0 && isDigitByte(s[i-1]) && i+1 < len(s) && isDigitByte(s[i+1])
		}
		i++
	}
	score := 0
	for _, t := range [...]struct {
		hit    bool
		points int
	}{{path, 4}, {command, 3}, {quote, 2}, {version, 2}, {constant, 2}, {camel, 2}} {
		if t.hit {
			score += t.points
		}
	}
	return min(score, 15)
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// wordEnd is the end of the run of \w bytes starting at i.
func wordEnd(s string, i int) int {
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	return i
}

// isExtension: the dot at i starts /\.\w{1,5}(\s|$|\/)/. The \w{1,5} can
// only be followed by a non-word character, so it must be the whole word run.
func isExtension(s string, i int) bool {
	e := wordEnd(s, i+1)
	if n := e - i - 1; n < 1 || n > 5 {
		return false
	}
	return e == len(s) || s[e] == '/' || text.IsJSSpace(nextRune(s, e))
}

var commandWords = []string{"npm", "pnpm", "yarn", "git", "docker", "make", "cargo", "pip", "go"}

// isCommandWord reports whether the \w run w is one of commandWords in any
// case. w is ASCII, where strings.EqualFold is ASCII case folding: w is
// lower-cased into a small array and compared, instead of being folded
// against each word in turn (pruning scores every entry of a category).
func isCommandWord(w string) bool {
	if len(w) < 2 || len(w) > 6 {
		return false
	}
	var low [6]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	for _, c := range commandWords {
		if c == string(low[:len(w)]) {
			return true
		}
	}
	return false
}

// utf16Len is text.UTF16Len, counted without decoding for ASCII text: an
// ASCII byte is one UTF-16 unit.
func utf16Len(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return text.UTF16Len(s)
		}
	}
	return len(s)
}

func allCapitals(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c != '_' && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

func hasCamel(w string) bool {
	for i := 0; i+1 < len(w); i++ {
		if 'a' <= w[i] && w[i] <= 'z' && 'A' <= w[i+1] && w[i+1] <= 'Z' {
			return true
		}
	}
	return false
}

// PruneOrder lists the indexes of contents from the strongest to the weakest
// by Score, HackLM's stable descending sort (§12, §13): pruning keeps the first
// limit and removes the rest, and eviction removes the last, so among equal
// scores the later entry goes first. scores[i] is the score of contents[i].
func PruneOrder(cat category.Category, contents []string) (order, scores []int) {
	scores = make([]int, len(contents))
	for i, c := range contents {
		scores[i] = Score(cat, c)
	}
	return OrderByScore(scores), scores
}

// OrderByScore is PruneOrder of contents whose scores are given.
func OrderByScore(scores []int) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	return order
}
