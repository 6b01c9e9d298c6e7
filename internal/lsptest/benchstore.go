package lsptest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// StoreSizes are the category sizes, in entries, of the benchmarks of a
// warm store: the scale budget's sizes (BenchSizes).
var StoreSizes = []int{180, 1000, 10000}

// BenchStoreWorkspace is a copy, to write into, of a workspace whose
// decisions.md holds n entries (every entry of BenchCategoryWorkspace; at
// 100,000, over what a file may hold to be read, the five-file
// BenchWorkspace, whose decisions.md holds about 20,000 of them), with a
// settings file (settings.json at its top) raising every category's limit
// above n so that a store appends and evicts nothing. The settings are
// also returned, for a language server's initializationOptions.
func BenchStoreWorkspace(tb testing.TB, n int) (root string, settings map[string]any) {
	tb.Helper()
	var src string
	if n >= 100000 {
		src, _ = BenchWorkspace(tb, n)
	} else {
		src = BenchCategoryWorkspace(tb, n)
	}
	root = CopyWorkspace(tb, src)
	limits := map[string]any{}
	for _, c := range category.All {
		limits[c.String()] = min(n+1000, 100000) // room for the stores; the highest the settings take
	}
	settings = map[string]any{"categoryLimit": limits}
	data, err := json.Marshal(settings)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "settings.json"), data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return root, settings
}

// BenchCatFile adds the sub-benchmarks "cat" (`cat` of path to /dev/null)
// and "grep-c" (`grep -c` of a word of a stored entry in it), the reference
// figures of the store benchmarks, taken on the file the stores wrote.
func BenchCatFile(b *testing.B, path string) {
	b.Run("grep-c", func(b *testing.B) { benchRun(b, true, "grep", "-c", "zq", path) })
	b.Run("cat", func(b *testing.B) { benchRun(b, false, "cat", path) })
}

// BenchCheckStored fails b unless the file at path holds the entries
// BenchNewEntry(0) to BenchNewEntry(n-1), each once: every store of the
// benchmark appended, none was taken for a duplicate or an update.
func BenchCheckStored(b *testing.B, path string, n int) {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if c := bytes.Count(data, []byte("- "+BenchNewEntry(i)+"\n")); c != 1 {
			b.Fatalf("%s holds entry %d %d times: %q", path, i, c, BenchNewEntry(i))
		}
	}
}
