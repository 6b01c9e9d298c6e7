//go:build long

package budget

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tiktoken "github.com/tiktoken-go/tokenizer"
)

// TestTokensAgainstO200k measures EstimateTokens against o200k_base (the
// tokenizer of GPT-4o and Codex, whose tables ship in a Go module) on real
// memory files (../shared/corpus, other teams' text, read in place) and this
// repository's own docs: the relative error of the estimate per file, its
// median and 90th percentile, which docs/budgets.md states.
func TestTokensAgainstO200k(t *testing.T) {
	enc, err := tiktoken.Get(tiktoken.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Logf("%s is absent: measuring on this repository's docs alone", corpus)
	} else {
		filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && filepath.Base(p) != "SOURCES.md" {
				paths = append(paths, p)
			}
			return nil
		})
	}
	docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	paths = append(paths, docs...)
	paths = append(paths, filepath.Join("..", "..", "README.md"))
	var errs []float64
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ids, _, err := enc.Encode(string(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) < 50 {
			continue // a few words: the error of one token is a large share
		}
		e := float64(EstimateTokens(src)-len(ids)) / float64(len(ids))
		if e < 0 {
			e = -e
		}
		errs = append(errs, e)
	}
	if len(errs) < 10 {
		t.Fatalf("only %d files to measure on", len(errs))
	}
	slices.Sort(errs)
	median, p90 := errs[len(errs)/2], errs[len(errs)*9/10]
	t.Logf("%d files: relative error median %.3f, 90th percentile %.3f, largest %.3f", len(errs), median, p90, errs[len(errs)-1])
	if median > 0.08 || p90 > 0.16 {
		t.Errorf("the estimate drifted from o200k: median %.3f (at most 0.08), 90th percentile %.3f (at most 0.16)", median, p90)
	}
}
