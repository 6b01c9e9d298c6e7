package rules

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestDenseNeverOnRealShapes: the dense limit of the pair search
// (similar.PairSet.Dense: past it an entry is compared with its neighbours
// only) is never reached by real memory — the shared corpus of real .memory
// folders — nor by the benchmark workspaces of 10,000 and 25,000 entries
// (../shared/bench/gen_workspace.py), whose categories hold five times more
// entries than any real file. Where it is not reached, every related pair
// is found.
func TestDenseNeverOnRealShapes(t *testing.T) {
	longtest.Skip(t)
	var folders []string
	if _, err := os.Stat(directiveCorpusDir); err == nil {
		err := filepath.WalkDir(directiveCorpusDir, func(path string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == ".memory" {
				folders = append(folders, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("../shared/corpus not found beside the clone: the real folders are not read")
	}
	gen := "../../../shared/bench/gen_workspace.py"
	if _, err := os.Stat(gen); err != nil || testing.Short() {
		t.Log("no workspace generator beside the clone (or -short): the benchmark workspaces are not read")
	} else {
		for _, n := range []int{10000, 25000} {
			dir := filepath.Join(t.TempDir(), fmt.Sprint(n))
			if out, err := exec.Command("python3", gen, fmt.Sprint(n), "1", dir).CombinedOutput(); err != nil {
				t.Fatalf("generating %d entries: %v\n%s", n, err, out)
			}
			folders = append(folders, filepath.Join(dir, ".memory"))
		}
	}
	if len(folders) == 0 {
		t.Skip("neither the shared corpus nor the workspace generator is beside the clone")
	}
	cfg := config.Default()
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	files := 0
	for _, dir := range folders {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := NewFile(".memory/"+filepath.Base(p), src)
			if !f.IsCategory || !f.parsed() {
				continue
			}
			var contents []string
			for _, e := range f.Doc.Entries {
				if e.Content != "" {
					contents = append(contents, e.Content)
				}
			}
			files++
			if ps := similar.GroupPairs(similar.AnalyzeAll(contents), th); ps.Dense {
				t.Errorf("%s (%d entries) is dense: its entries would be compared with their neighbours only", p, len(contents))
			}
		}
	}
	t.Logf("%d category files of %d folders, none dense", files, len(folders))
}
