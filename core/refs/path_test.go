package refs

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// sameReading reports whether parsePath's shortcut for bare words reads
// tok as the full reading does: the same verdict, the same path when it is
// one, and the same branch-prefix mark.
func sameReading(tok string, mode pathMode) bool {
	a, okA := readPath(tok, mode, true)
	b, okB := readPath(tok, mode, false)
	return okA == okB && a.branch == b.branch && (!okA || a == b)
}

// TestBareWordShortcut: the shortcut changes no reading, on the tokens of
// every entry of the shared corpus (when present) and on the edge cases of
// a bare word.
func TestBareWordShortcut(t *testing.T) {
	toks := []string{"Makefile", "Makefile:12", "Dockerfile#L3", "./gradlew", "gradlew", "docs/", "feat/", "X", "README",
		"CODEOWNERS", "makefile", "1", "42:7", "a", "Deploy", "_", "-", "@x", "+", "Jenkinsfile:", "é", "日本"}
	for _, tok := range toks {
		for _, mode := range []pathMode{inProse, inCode} {
			if !sameReading(tok, mode) {
				t.Errorf("%q (mode %d) reads differently with the shortcut", tok, mode)
			}
		}
	}
	if _, err := os.Stat(sharedCorpus); err != nil {
		t.Skipf("%s not found; the rest of this test reads the shared corpus beside the clone", sharedCorpus)
	}
	n := 0
	err := filepath.WalkDir(sharedCorpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, e := range memfile.Parse(src).Entries {
			for _, tk := range tokens(e.Content, 0, len(e.Content)) {
				tok := e.Content[tk.start:tk.end]
				n++
				for _, mode := range []pathMode{inProse, inCode} {
					if !sameReading(tok, mode) {
						t.Errorf("%s: %q (mode %d) reads differently with the shortcut", p, tok, mode)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d corpus tokens read alike", n)
}
