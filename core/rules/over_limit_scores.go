package rules

import (
	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/similar"
)

// over-limit scores every entry of a category over its limit for the
// pruning order, and an editor's keystroke changes one entry: a Checker
// keeps each file's scores with the contents they score, and the next call
// scores only the entries between those the two lists share at their start
// and at their end (BenchmarkCheckerOneChange10k). A score is
// a function of the category and the content alone (similar.Score).

// entryScores are the pruning scores of one file's entry contents.
type entryScores struct {
	cat      category.Category
	contents []string
	scores   []int
}

// scoreCache hands the previous call's scores, by file path, to this one
// and collects this call's. One rule (over-limit) uses it.
type scoreCache struct {
	old, now map[string]entryScores
}

// pruneScores is similar.Score of each of contents, the entry contents of
// category file f, from the previous call's scores of f where the Checker
// keeps them.
func (w *workspace) pruneScores(f *File, contents []string) []int {
	scores := make([]int, len(contents))
	pre, suf := 0, 0
	if w.scores != nil {
		if prev, ok := w.scores.old[f.Path]; ok && prev.cat == f.Category {
			a, b := prev.contents, contents
			for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
				pre++
			}
			for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
				suf++
			}
			copy(scores[:pre], prev.scores[:pre])
			copy(scores[len(b)-suf:], prev.scores[len(a)-suf:])
		}
		w.scores.now[f.Path] = entryScores{cat: f.Category, contents: contents, scores: scores}
	}
	for i := pre; i < len(contents)-suf; i++ {
		scores[i] = similar.Score(f.Category, contents[i])
	}
	return scores
}
