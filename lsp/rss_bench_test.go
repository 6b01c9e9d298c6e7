package lsp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// memorySizes are the workspaces of the resident-memory benchmarks: at
// 1,000 and 10,000 entries one file holding them all, open (the scale
// budget's worst case: every entry in the file the editor shows).
var memorySizes = []struct {
	n      int
	single bool
}{{1000, true}, {10000, true}}

func memoryWorkspace(b *testing.B, n int, single bool) (root string, queries []string) {
	if single {
		root = lsptest.BenchCategoryWorkspace(b, n)
		return root, lsptest.BenchQueries(b, root)
	}
	return lsptest.BenchWorkspace(b, n)
}

// openAndAsk is the session the resident-memory benchmarks measure after:
// initialize with the limits raised above n (so the check publishes no
// over-limit warnings), open decisions.md, await its diagnostics, then one
// memory.queryMemory and one workspace/symbol.
func openAndAsk(b *testing.B, c *lsptest.Client, root string, n int, query string) {
	limits := map[string]any{}
	for _, cat := range category.All {
		limits[cat.String()] = min(max(40, n+1), 100000)
	}
	settings := map[string]any{"categoryLimit": limits}
	c.SetSettings(map[string]any{"memory": settings})
	c.Initialize(lsptest.InitializeParams(root, settings))
	path := filepath.Join(root, ".memory", category.Decision.File())
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	uri := c.Open(path, string(text))
	c.AwaitDiagnostics(uri, 1, 5*time.Minute)
	c.Forget()
	for _, req := range []struct {
		method string
		params any
	}{
		{"workspace/executeCommand", map[string]any{"command": "memory.queryMemory", "arguments": []any{map[string]any{"query": query}}}},
		{"workspace/symbol", map[string]any{"query": query}},
	} {
		call, err := c.Go(req.method, req.params)
		if err == nil {
			_, err = call.Wait(5 * time.Minute)
		}
		if err != nil {
			b.Fatalf("%s: %v", req.method, err)
		}
	}
}

// BenchmarkServerMemoryBinary reports the resident memory (VmRSS) and its
// peak (VmHWM) of `memory-lsp serve --stdio` once a large file is open,
// checked, queried and searched by symbol (openAndAsk): with the server's
// soft heap limit ("limit") and without it ("nolimit", GOMEMLIMIT=off), so
// that the limit is seen to be a guard and not what keeps the server small;
// and settled, three seconds after the last answer (MB-rss-settled), when
// the binary has given its free heap back (cmd/memory-lsp/idlememory.go).
// One iteration is one whole session. Reproduce with
//
//	go test ./lsp -run '^$' -bench BenchmarkServerMemoryBinary -benchtime 1x -count 5
func BenchmarkServerMemoryBinary(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("no /proc on this system")
	}
	for _, size := range memorySizes {
		for _, limit := range []string{"limit", "nolimit"} {
			b.Run(strconv.Itoa(size.n)+"/"+limit, func(b *testing.B) {
				root, queries := memoryWorkspace(b, size.n, size.single)
				var rss, hwm, settled float64
				for b.Loop() {
					cmd := exec.Command(binary, "serve", "--stdio")
					cmd.Dir = root
					cmd.Env = os.Environ()
					if limit == "nolimit" {
						cmd.Env = append(cmd.Env, "GOMEMLIMIT=off")
					}
					rss, hwm, settled = lsptest.ResidentMemory(b, cmd, func(c *lsptest.Client) { openAndAsk(b, c, root, size.n, queries[0]) })
				}
				b.ReportMetric(rss, "MB-rss")
				b.ReportMetric(hwm, "MB-peak-rss")
				b.ReportMetric(settled, "MB-rss-settled")
			})
		}
	}
}

// BenchmarkServerMemoryInProcess is BenchmarkServerMemoryBinary's session
// with the server in the test's process, under the binary's soft heap limit,
// for a profile of what the server keeps: with MEMORY_LSP_HEAP_PROFILE=dir
// it writes dir/heap-<n>.pprof after a collection, while the session is
// still open (go tool pprof -sample_index=inuse_space). It reports the live
// heap then (MB-live-heap).
func BenchmarkServerMemoryInProcess(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	profile := os.Getenv("MEMORY_LSP_HEAP_PROFILE")
	if profile != "" {
		// The default rate samples one allocation per 512 KB: too coarse
		// for what one entry costs.
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 4096
	}
	for _, size := range memorySizes {
		b.Run(strconv.Itoa(size.n), func(b *testing.B) {
			root, queries := memoryWorkspace(b, size.n, size.single)
			var live float64
			for b.Loop() {
				c := inProcess(b)
				openAndAsk(b, c, root, size.n, queries[0])
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				live = float64(ms.HeapAlloc) / (1 << 20)
				if profile != "" {
					writeHeapProfile(b, filepath.Join(profile, "heap-"+strconv.Itoa(size.n)+".pprof"))
				}
				c.Shutdown()
			}
			b.ReportMetric(live, "MB-live-heap")
		})
	}
}

// writeHeapProfile writes the heap profile to path.
func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}
