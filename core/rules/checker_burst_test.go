package rules

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestCheckerFollowsStoresAndEdits holds a warm Checker to a fresh Check
// through what a language server sees during a burst of stores: entries
// appended to any file, a line of one file replaced (an edit of its
// buffer), in files that hold an exact duplicate, two entries under one
// slug and near-duplicates of one text.
func TestCheckerFollowsStoresAndEdits(t *testing.T) {
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(16, seed))
		var srcs []string
		var paths []string
		for _, cat := range category.All {
			srcs = append(srcs, lsptest.PairedFile(r, cat))
			paths = append(paths, ".memory/"+cat.File())
		}
		cfg := config.Default()
		var c Checker
		for step := range 40 {
			f := r.IntN(len(srcs))
			what := "append to " + paths[f]
			if r.IntN(3) == 0 {
				lines := strings.Split(srcs[f], "\n")
				k := 2 + r.IntN(len(lines)-2)
				lines[k] = "- " + lsptest.Sentence(r, true)
				srcs[f] = strings.Join(lines, "\n")
				what = fmt.Sprintf("replace line %d of %s", k+1, paths[f])
			} else {
				srcs[f] += "- " + lsptest.Sentence(r, false) + "\n"
			}
			files := make([]File, len(srcs))
			for i := range srcs {
				files[i] = newFile(paths[i], []byte(srcs[i]))
			}
			got, want := c.Check(files, cfg), Check(files, cfg)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%s): Checker found\n%s\nCheck\n%s", seed, step, what, render(files, got, nil), render(files, want, nil))
			}
		}
	}
}
