package lsp_test

// Speed and memory of the language server. The figures and the commands
// that produced them are in BENCHMARKS.md ("Language server").

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// benchDecisions is lsp.BenchDecisions (benchdata_test.go), which the
// server's internal benchmarks share.
func benchDecisions(n int) string { return lsp.BenchDecisions(n) }

// benchSettings raise the Decision limit above n, so that the benchmark
// measures checking rather than publishing n-40 over-limit warnings; the
// -default-limits variants keep HackLM's limit of 40.
func benchSettings(n int, raised bool) map[string]any {
	if !raised {
		return nil
	}
	return map[string]any{"categoryLimit": map[string]any{"Decision": max(40, n+1)}}
}

// openBench starts a session on a workspace holding benchDecisions(n) and
// opens the file.
func openBench(b *testing.B, c *lsptest.Client, n int, raised bool) (uri, text string) {
	b.Helper()
	root := b.TempDir()
	path := filepath.Join(root, ".memory", "decisions.md")
	text = benchDecisions(n)
	writeFile(b, path, text)
	settings := benchSettings(n, raised)
	if settings != nil {
		c.SetSettings(map[string]any{"memory": settings})
	}
	c.Initialize(lsptest.InitializeParams(root, settings))
	uri = c.Open(path, text)
	c.AwaitDiagnostics(uri, 1, wait)
	return uri, text
}

// publishedFor matches the publishDiagnostics of uri at version without
// decoding it: the client's own decoding is not the server's time.
func publishedFor(uri string, version int) func(*lsptest.Message) bool {
	u, _ := json.Marshal(uri)
	v := `"version":` + strconv.Itoa(version)
	comma, brace := []byte(v+","), []byte(v+"}")
	return func(m *lsptest.Message) bool {
		return m.Method == "textDocument/publishDiagnostics" && bytes.Contains(m.Params, u) &&
			(bytes.Contains(m.Params, comma) || bytes.Contains(m.Params, brace))
	}
}

// BenchmarkDidChangeToPublish is the time from sending a didChange (one
// word of the middle entry replaced) to receiving publishDiagnostics for
// that version, in process, with no debounce.
func BenchmarkDidChangeToPublish(b *testing.B) {
	// The binary runs under this soft heap limit; measure what users get.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	for _, bc := range []struct {
		name   string
		n      int
		raised bool
	}{{"40", 40, true}, {"10000", 10000, true}, {"10000-default-limits", 10000, false}} {
		b.Run(bc.name, func(b *testing.B) {
			c := inProcess(b)
			uri, text := openBench(b, c, bc.n, bc.raised)
			line := 2 + bc.n/2
			start := lsptest.PositionAt(text, strings.Index(text, fmt.Sprintf("ticket DEC-%d.", bc.n/2)))
			if start.Line != line {
				b.Fatalf("entry %d is on line %d", bc.n/2, start.Line)
			}
			words := []string{"ticket", "issue "}
			diagnostics := 0
			i := 0
			for b.Loop() {
				c.Forget()
				// "ticket" and "issue " have the same length: the range stays valid.
				v := c.Change(uri, lsptest.TextEdit{Range: lsptest.Range{Start: start, End: lsptest.Position{Line: line, Character: start.Character + 6}}, NewText: words[i%2]})
				m, _ := c.Await(0, wait, fmt.Sprintf("publishDiagnostics for version %d", v), publishedFor(uri, v))
				diagnostics = bytes.Count(m.Params, []byte(`"range"`))
				i++
			}
			b.ReportMetric(float64(diagnostics), "diagnostics")
			c.Shutdown()
		})
	}
}

// BenchmarkInitialize spawns the binary and times it until the initialize
// response arrives; the shutdown after it is not timed.
func BenchmarkInitialize(b *testing.B) {
	root := b.TempDir()
	writeFile(b, filepath.Join(root, ".memory", "decisions.md"), benchDecisions(40))
	for b.Loop() {
		cmd := exec.Command(binary, "serve", "--stdio")
		cmd.Dir = root
		c := lsptest.Start(b, cmd)
		if _, err := c.Request("initialize", lsptest.InitializeParams(root, nil)); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c.Notify("initialized", map[string]any{})
		c.Shutdown()
		if code := c.ExitCode(); code != 0 {
			b.Fatalf("exit code %d", code)
		}
		b.StartTimer()
	}
}

// BenchmarkResidentMemory reports the binary's resident memory (VmRSS) and
// its peak (VmHWM) from /proc, with a 10,000-entry file open, after the
// first diagnostics and after ten edits. One iteration is one whole session.
func BenchmarkResidentMemory(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("no /proc on this system")
	}
	for _, bc := range []struct {
		name   string
		raised bool
	}{{"10000", true}, {"10000-default-limits", false}} {
		b.Run(bc.name, func(b *testing.B) {
			var rss, hwm, settled float64
			for b.Loop() {
				rss, hwm, settled = lsptest.ResidentMemory(b, exec.Command(binary, "serve", "--stdio"), func(c *lsptest.Client) {
					uri, text := openBench(b, c, 10000, bc.raised)
					start := lsptest.PositionAt(text, strings.Index(text, "ticket DEC-5000."))
					for i := range 10 {
						v := c.Change(uri, lsptest.TextEdit{Range: lsptest.Range{Start: start, End: lsptest.Position{Line: start.Line, Character: start.Character + 6}}, NewText: []string{"issue ", "ticket"}[i%2]})
						c.Await(0, wait, "publishDiagnostics", publishedFor(uri, v))
						c.Forget()
					}
				})
			}
			b.ReportMetric(rss, "MB-rss")
			b.ReportMetric(hwm, "MB-peak-rss")
			b.ReportMetric(settled, "MB-rss-settled")
		})
	}
}

// BenchmarkCodeActionAfterPublish is the time of a code action request on
// the middle entry of a file whose diagnostics were published, through the
// binary, as an editor asks for one when the cursor rests on a line: the
// answer comes from the folder's last check when nothing changed.
func BenchmarkCodeActionAfterPublish(b *testing.B) {
	for _, n := range []int{40, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root := b.TempDir()
			path := filepath.Join(root, ".memory", "decisions.md")
			text := benchDecisions(n)
			writeFile(b, path, text)
			c := startBinary(b, root)
			settings := benchSettings(n, true)
			c.SetSettings(map[string]any{"memory": settings})
			c.Initialize(lsptest.InitializeParams(root, settings))
			uri := c.Open(path, text)
			c.AwaitDiagnostics(uri, 1, wait)
			at := lsptest.Position{Line: 2 + n/2}
			params := map[string]any{"textDocument": map[string]any{"uri": uri},
				"range": lsptest.Range{Start: at, End: at}, "context": map[string]any{"diagnostics": []any{}}}
			for b.Loop() {
				if _, err := c.Request("textDocument/codeAction", params); err != nil {
					b.Fatal(err)
				}
			}
			c.Shutdown()
		})
	}
}
