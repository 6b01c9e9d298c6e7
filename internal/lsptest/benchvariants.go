package lsptest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchCategoryWorkspace is BenchWorkspace with every entry in the Decision
// file (gen_workspace.py --category Decision), for what users wait for when
// one category is large: a store into a 10,000-entry file.
func BenchCategoryWorkspace(tb testing.TB, n int) (root string) {
	tb.Helper()
	gen := generator(tb)
	root = filepath.Join(os.TempDir(), "memory-lsp-bench", fmt.Sprintf("ws%d-seed1-decision", n))
	if _, err := os.Stat(filepath.Join(root, "probes.json")); err != nil {
		tmp := root + ".tmp"
		_ = os.RemoveAll(tmp)
		if out, err := exec.Command("python3", gen, fmt.Sprint(n), "1", tmp, "--category", "Decision").CombinedOutput(); err != nil {
			tb.Skipf("generating the workspace: %v\n%s", err, out)
		}
		_ = os.RemoveAll(root)
		if err := os.Rename(tmp, root); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

// CopyWorkspace copies root's .memory folder into a new temporary folder
// and returns that folder: a benchmark that writes must not change the
// workspace the others read.
func CopyWorkspace(tb testing.TB, root string) string {
	tb.Helper()
	dst := tb.TempDir()
	if err := os.CopyFS(filepath.Join(dst, ".memory"), os.DirFS(filepath.Join(root, ".memory"))); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// CleanWorkspace is a workspace of n entries on which `check` finds
// nothing once the category limits are raised: sentences of pseudo-words
// drawn from a vocabulary of millions, so that no two are near each other,
// no slug repeats and no line is long. It returns the root and a settings
// file raising every limit to 100,000 (HackLM's limits would put an
// over-limit finding on most entries). Deterministic; made once per
// machine in the temporary folder.
func CleanWorkspace(tb testing.TB, n int) (root, settings string) {
	tb.Helper()
	root = filepath.Join(os.TempDir(), "memory-lsp-bench", fmt.Sprintf("clean%d", n))
	settings = root + ".settings.json"
	if _, err := os.Stat(settings); err == nil {
		return root, settings
	}
	syllables := strings.Fields("ka lo mi ne ru ta vo si de pa zu fe go hi ja xe qu bo ce wy")
	r := rand.New(rand.NewPCG(uint64(n), 7))
	files := []struct{ name, title string }{
		{"instructions.md", "Instruction"}, {"quirks.md", "Quirk"}, {"preferences.md", "Preference"},
		{"decisions.md", "Decision"}, {"security.md", "Security"},
	}
	bodies := make([]strings.Builder, len(files))
	for i := range files {
		fmt.Fprintf(&bodies[i], "# %s\n\n", files[i].title)
	}
	seen := map[string]bool{}
	for k := 0; k < n; {
		words := make([]string, 8+r.IntN(7))
		for w := range words {
			var b strings.Builder
			for range 2 + r.IntN(3) {
				b.WriteString(syllables[r.IntN(len(syllables))])
			}
			words[w] = b.String()
		}
		s := strings.Join(words, " ")
		if seen[s] {
			continue
		}
		seen[s] = true
		fmt.Fprintf(&bodies[k%len(files)], "- %s%s.\n", strings.ToUpper(s[:1]), s[1:])
		k++
	}
	tmp := root + ".tmp"
	_ = os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Join(tmp, ".memory"), 0o755); err != nil {
		tb.Fatal(err)
	}
	for i, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, ".memory", f.name), []byte(bodies[i].String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	_ = os.RemoveAll(root)
	if err := os.Rename(tmp, root); err != nil {
		tb.Fatal(err)
	}
	limits := `{"categoryLimit":{"Instruction":100000,"Quirk":100000,"Preference":100000,"Decision":100000,"Security":100000}}`
	if err := os.WriteFile(settings, []byte(limits+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root, settings
}
