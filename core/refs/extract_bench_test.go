package refs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkExtractGenerated extracts the references of every entry of the
// generated 10,000-entry workspace (lsptest.BenchWorkspace's, made by the
// lsp benchmarks; skipped when absent): what a cold check pays per entry.
func BenchmarkExtractGenerated(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(os.TempDir(), "memory-lsp-bench", "ws10000-seed1", ".memory", "*.md"))
	if len(files) == 0 {
		b.Skip("no generated workspace: run an lsp or cmd benchmark first")
	}
	var entries []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if e, ok := strings.CutPrefix(l, "- "); ok {
				entries = append(entries, e)
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for _, e := range entries {
			Extract(e)
		}
	}
}
