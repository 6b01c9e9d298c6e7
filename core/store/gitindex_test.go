package store

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestIndexDiff holds the index reader to `git ls-files --cached` in
// each index version git writes: 2, 3 (an intent-to-add entry has extended
// flags) and 4 (names compressed against the previous one), with an
// unmerged path (one entry per stage) and names of every length around the
// padding.
func TestIndexDiff(t *testing.T) {
	g := gittest.New(t)
	files := map[string]string{"conflict.txt": "base\n", ".memory/decisions.md": "# D\n"}
	for n := 1; n <= 17; n++ {
		files["d/"+strings.Repeat("x", n)] = "x"
		files["e/"+strings.Repeat("y", n)+"/deeper/é"] = "x"
	}
	g.Write(files)
	g.Commit("2024-01-01", "start")
	g.Git("checkout", "-q", "-b", "other")
	g.Write(map[string]string{"conflict.txt": "other\n"})
	g.Commit("2024-01-02", "other")
	g.Git("checkout", "-q", "-")
	g.Write(map[string]string{"conflict.txt": "main\n"})
	g.Commit("2024-01-03", "main")
	merge := exec.Command("git", "merge", "-q", "other")
	merge.Dir, merge.Env = g.Dir, g.Env
	if out, err := merge.CombinedOutput(); err == nil {
		t.Fatalf("the merge went through, want a conflict: %s", out)
	}
	g.Write(map[string]string{"new/intent.txt": "x"})
	g.Git("add", "-N", "new/intent.txt")
	index := filepath.Join(g.Top(), ".git", "index")
	skip := func(p string) bool { return strings.HasPrefix(p, ".memory/") }
	var prev []string
	for _, version := range []string{"2", "3", "4", "2"} {
		if version != "3" {
			g.Git("update-index", "--index-version", version)
		}
		var want []string
		for f := range strings.SplitSeq(g.Git("-c", "core.quotePath=false", "ls-files", "--cached"), "\n") {
			if f != "" && !skip(f) {
				want = append(want, f)
			}
		}
		want = sortedSet(want)
		left, joined, err := indexDiff(index, 20, prev, nil, skip)
		if err != nil {
			t.Fatalf("version %s: %v", version, err)
		}
		got := applyDelta(prev, joined, left)
		if !slices.Equal(got, want) {
			t.Errorf("version %s:\n got %q\nwant %q", version, got, want)
		}
		prev = got
	}
}
