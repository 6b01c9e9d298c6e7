package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// BenchmarkEditedMemoryInProcess reports the live heap (MB-live-heap) of a
// server in the test's process after an editing session: a 10,000-entry
// file opened, then 60 entries edited one after another, each on its own
// line, each published before the next. What a server keeps per version of
// an edited file (strings of old parses kept by its caches, which may hold
// a whole version's bytes) shows here, not in
// BenchmarkServerMemoryInProcess's session without edits. With
// MEMORY_LSP_HEAP_PROFILE=dir it writes dir/heap-edited.pprof.
//
//	go test ./lsp -run '^$' -bench BenchmarkEditedMemoryInProcess -benchtime 1x -count 3
func BenchmarkEditedMemoryInProcess(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	if os.Getenv("MEMORY_LSP_HEAP_PROFILE") != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 4096
	}
	const n, edits = 10000, 60
	var live float64
	for b.Loop() {
		root := b.TempDir()
		path := filepath.Join(root, ".memory", "decisions.md")
		text := benchDecisions(n)
		writeFile(b, path, text)
		c := inProcess(b)
		c.SetSettings(map[string]any{"memory": benchSettings(n, true)})
		c.Initialize(lsptest.InitializeParams(root, benchSettings(n, true)))
		uri := c.Open(path, text)
		c.AwaitDiagnostics(uri, 1, time.Minute)
		for k := range edits {
			c.Forget()
			at := lsptest.Position{Line: 2 + k*(n/edits), Character: 2}
			v := c.Change(uri, lsptest.TextEdit{Range: lsptest.Range{Start: at, End: at}, NewText: fmt.Sprintf("edit %d ", k)})
			c.Await(0, time.Minute, fmt.Sprintf("publishDiagnostics for version %d", v), publishedFor(uri, v))
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = float64(ms.HeapAlloc) / (1 << 20)
		if dir := os.Getenv("MEMORY_LSP_HEAP_PROFILE"); dir != "" {
			writeHeapProfile(b, filepath.Join(dir, "heap-edited.pprof"))
		}
		c.Shutdown()
	}
	b.ReportMetric(live, "MB-live-heap")
}
