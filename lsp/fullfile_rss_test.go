package lsp_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// A memory file at the limit (issue 26): the most the server ever reads,
// parses and analyses, open in the editor and on disk.

// fullFile is one decisions.md at or just past memfile.MaxBytes.
type fullFile struct {
	name string
	text string
}

// fullFiles are the shapes of a file at the limit: "entries", the shared
// generator's entries as repeated stores lay them out (a blank line between
// them, about 100 bytes each: 85,844 of them); "short", the same words in
// entries of at most 78 bytes, one per line (112,726); "long", 64 lines of
// 128 KiB of the same words; and "over", "entries" grown past the limit by
// the lines that follow, which is only stat-ed and reported.
func fullFiles(tb testing.TB) []fullFile {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(lsptest.BenchCategoryWorkspace(tb, 100000), ".memory", "decisions.md"))
	if err != nil {
		tb.Fatal(err)
	}
	var entries, short, long bytes.Buffer
	var words []string
	lines := bytes.SplitAfter(src, []byte{'\n'})
	next := 0 // the first line not in entries
	for k, l := range lines {
		if next == k && entries.Len()+len(l) <= memfile.MaxBytes {
			entries.Write(l)
			next++
		}
		content, ok := bytes.CutPrefix(bytes.TrimSuffix(l, []byte{'\n'}), []byte("- "))
		if !ok {
			continue
		}
		if bytes.HasPrefix(content, []byte("[")) {
			content = content[bytes.IndexByte(content, ']')+2:]
		}
		words = append(words, strings.Fields(string(content))...)
	}
	over := bytes.Clone(entries.Bytes())
	for i := next; len(over) <= memfile.MaxBytes; i++ {
		over = append(over, lines[i]...)
	}
	short.WriteString("# Decision\n\n")
	// line is an entry of the words from the i-th on, at most n bytes.
	i := 0
	line := func(n int) []byte {
		l := []byte("- Keep")
		for len(l)+1+len(words[i%len(words)])+2 <= n {
			l = append(append(l, ' '), words[i%len(words)]...)
			i++
		}
		return append(l, ".\n"...)
	}
	for {
		l := line(78)
		if short.Len()+len(l) > memfile.MaxBytes {
			break
		}
		short.Write(l)
	}
	long.WriteString("# Decision\n\n")
	per := (memfile.MaxBytes - long.Len()) / 64
	for range 64 {
		long.Write(line(per))
	}
	return []fullFile{
		{"entries", entries.String()},
		{"short", short.String()},
		{"long", long.String()},
		{"over", string(over)},
	}
}

// openFull initializes c with HackLM's default settings, opens decisions.md
// of root, whose text is f.text, with its full text as an editor does, and
// waits for its diagnostics.
func openFull(tb testing.TB, c *lsptest.Client, root string, f fullFile) {
	tb.Helper()
	c.Initialize(lsptest.InitializeParams(root, nil))
	uri := c.Open(filepath.Join(root, ".memory", "decisions.md"), f.text)
	c.AwaitDiagnostics(uri, 1, 5*time.Minute)
}

// fullWorkspace is a git repository whose .memory/decisions.md is f.
func fullWorkspace(tb testing.TB, f fullFile) string {
	tb.Helper()
	root := tb.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		tb.Skipf("git init: %v %s", err, out)
	}
	writeFile(tb, filepath.Join(root, ".memory", "decisions.md"), f.text)
	return root
}

// BenchmarkServerMemoryFullFile reports the resident memory of `memory-lsp
// serve --stdio` with a decisions.md at the limit (fullFiles) on disk and
// open in the editor, with HackLM's default settings, once its diagnostics
// are published: MB-rss then, MB-peak-rss (VmHWM) and MB-rss-settled three
// seconds later. Reproduce with
//
//	go test ./lsp -run '^$' -bench BenchmarkServerMemoryFullFile -benchtime 1x -count 3
func BenchmarkServerMemoryFullFile(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("no /proc on this system")
	}
	for _, f := range fullFiles(b) {
		b.Run(f.name, func(b *testing.B) {
			root := fullWorkspace(b, f)
			var rss, hwm, settled float64
			for b.Loop() {
				cmd := exec.Command(binary, "serve", "--stdio")
				cmd.Dir = root
				rss, hwm, settled = lsptest.ResidentMemory(b, cmd, func(c *lsptest.Client) { openFull(b, c, root, f) })
			}
			b.ReportMetric(float64(len(f.text))/(1<<20), "MiB-file")
			b.ReportMetric(rss, "MB-rss")
			b.ReportMetric(hwm, "MB-peak-rss")
			b.ReportMetric(settled, "MB-rss-settled")
		})
	}
}

// BenchmarkServerMemoryFullFileInProcess is BenchmarkServerMemoryFullFile's
// session with the server in the test's process, for a profile of what it
// keeps and allocates: with MEMORY_LSP_HEAP_PROFILE=dir it writes
// dir/heap-full-<shape>.pprof after a collection, with the session still
// open (go tool pprof -sample_index=inuse_space, or alloc_space for what
// the session allocated). It reports the live heap then (MB-live-heap) and
// the bytes allocated by the session (MB-allocated).
func BenchmarkServerMemoryFullFileInProcess(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	profile := os.Getenv("MEMORY_LSP_HEAP_PROFILE")
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 4096
	}
	for _, f := range fullFiles(b) {
		b.Run(f.name, func(b *testing.B) {
			root := fullWorkspace(b, f)
			var live, allocated float64
			for b.Loop() {
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				c := inProcessWith(b, lsp.Options{Version: "test"})
				openFull(b, c, root, f)
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				live = float64(ms.HeapAlloc) / (1 << 20)
				allocated = float64(ms.TotalAlloc-before.TotalAlloc) / (1 << 20)
				if profile != "" {
					writeHeapProfile(b, filepath.Join(profile, "heap-full-"+f.name+".pprof"))
				}
				c.Shutdown()
			}
			b.ReportMetric(live, "MB-live-heap")
			b.ReportMetric(allocated, "MB-allocated")
		})
	}
}

// TestE2EFullFileMemory: the server with decisions.md at the limit
// ("entries": 85,844 entries, on disk and open) under HackLM's
// default settings publishes its diagnostics and stays within a bound on
// its peak resident memory. The bound is a guard against the growth issue
// 26 measured (522 MiB with 107,000 short entries), not the 100 MB target,
// which the server does not meet yet: BENCHMARKS.md has the figures
// (BenchmarkServerMemoryFullFile) and where the memory goes.
func TestE2EFullFileMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: the peak memory cannot be read")
	}
	if testing.Short() {
		t.Skip("checks an 8 MiB file")
	}
	f := fullFiles(t)[0]
	root := fullWorkspace(t, f)
	cmd := exec.Command(binary, "serve", "--stdio")
	cmd.Dir = root
	c := lsptest.Start(t, cmd)
	openFull(t, c, root, f)
	peak := vmHWM(t, cmd.Process.Pid)
	t.Logf("peak resident memory with %s at %d bytes open: %d MiB", "decisions.md", len(f.text), peak>>20)
	if limit := 320 << 20; peak > limit {
		t.Errorf("peak resident memory %d MiB, over the %d MiB bound", peak>>20, limit>>20)
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
