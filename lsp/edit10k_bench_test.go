package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// binaryDebounce is how long `memory-lsp serve` waits after a didChange
// before it checks (lsp.Options.Debounce's default): a deliberate delay, not
// work, which BenchmarkEditing10kBinary reports apart.
const binaryDebounce = 100 * time.Millisecond

// BenchmarkEditing10kBinary times, through `memory-lsp serve --stdio`, what an
// editor waits for while a 10,000-entry decisions.md (benchDecisions) is
// open, with HackLM's limits (every entry beyond the 40th over the limit,
// with its fixes) and with the limit raised above 10,000 (issue 16):
//
//   - didChange: one word of the middle entry replaced, until the
//     publishDiagnostics of that version has arrived (read, not yet parsed
//     by the test's client: "ms-parsed" includes that); "ms-work" is that time less
//     the server's 100 ms debounce;
//   - codeAction-diagnostic / codeAction-clean: textDocument/codeAction (no
//     "only", as an editor asks when the cursor rests) on the first entry
//     from the middle on with a diagnostic and on a line without one, after the publish;
//   - codeAction-after-change: the same on the diagnostic's line right after
//     a didChange, before its publish (the didChange and the publish are
//     not timed);
//   - grep-c and cat of the same file, so that the figures read as ratios.
//
// MEMORY_LSP_BINARY drives another build; MEMORY_LSP_BENCH_LOG names a debug
// log for the server to write. Reproduce with
//
//	go test ./lsp -run '^$' -bench BenchmarkEditing10kBinary -benchtime 10x -count 5
func BenchmarkEditing10kBinary(b *testing.B) {
	benchEditing10k(b, binaryDebounce, func(b *testing.B, root string) *lsptest.Client {
		var args []string
		if l := os.Getenv("MEMORY_LSP_BENCH_LOG"); l != "" {
			args = []string{"--log-level", "debug", "--log-file", l}
		}
		return startBinary(b, root, args...)
	})
}

// BenchmarkEditing10kInProcess is BenchmarkEditing10kBinary with the server
// in the test's process (no debounce, under the binary's soft heap limit),
// for profiles (-cpuprofile).
func BenchmarkEditing10kInProcess(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	benchEditing10k(b, 0, func(b *testing.B, _ string) *lsptest.Client { return inProcess(b) })
}

func benchEditing10k(b *testing.B, debounce time.Duration, start func(b *testing.B, root string) *lsptest.Client) {
	const n = 10000
	for _, limits := range []string{"default-limits", "raised-limits"} {
		b.Run(limits, func(b *testing.B) {
			root := b.TempDir()
			path := filepath.Join(root, ".memory", "decisions.md")
			text := benchDecisions(n)
			writeFile(b, path, text)
			c := start(b, root)
			settings := benchSettings(n, limits == "raised-limits")
			if settings != nil {
				c.SetSettings(map[string]any{"memory": settings})
			}
			c.Initialize(lsptest.InitializeParams(root, settings))
			uri := c.Open(path, text)
			first := c.AwaitDiagnostics(uri, 1, time.Minute)
			line := 2 + n/2
			start := lsptest.PositionAt(text, strings.Index(text, fmt.Sprintf("ticket DEC-%d.", n/2)))
			if start.Line != line {
				b.Fatalf("entry %d is on line %d", n/2, start.Line)
			}
			flagged := map[int]bool{}
			for _, d := range first.Diagnostics {
				flagged[d.Range.Start.Line] = true
			}
			diag := line // the first entry from the middle on with a diagnostic
			for diag < 2+n && !flagged[diag] {
				diag++
			}
			clean := 0 // the heading, when every entry has a diagnostic
			for l := 2; l < 2+n; l++ {
				if !flagged[l] {
					clean = l
					break
				}
			}
			words := []string{"ticket", "issue "}
			i := 0
			change := func() int {
				i++
				// "ticket" and "issue " have the same length: the range stays valid.
				return c.Change(uri, lsptest.TextEdit{Range: lsptest.Range{Start: start, End: lsptest.Position{Line: line, Character: start.Character + 6}}, NewText: words[i%2]})
			}
			b.Run("didChange", func(b *testing.B) {
				var arrived time.Duration
				for b.Loop() {
					c.Forget()
					sent := time.Now()
					v := change()
					m, _ := c.Await(0, time.Minute, fmt.Sprintf("publishDiagnostics for version %d", v), publishedFor(uri, v))
					arrived += m.Arrived.Sub(sent)
				}
				reportWork(b, arrived, debounce)
			})
			codeAction := func(b *testing.B, l int) { codeActionAt(b, c, uri, l) }
			b.Run("codeAction-diagnostic", func(b *testing.B) {
				codeAction(b, diag) // the first after a publish may finish its work
				for b.Loop() {
					codeAction(b, diag)
				}
			})
			b.Run("codeAction-clean", func(b *testing.B) {
				for b.Loop() {
					codeAction(b, clean)
				}
			})
			b.Run("codeAction-after-change", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					c.Forget()
					v := change()
					b.StartTimer()
					codeAction(b, diag)
					b.StopTimer()
					c.Await(0, time.Minute, fmt.Sprintf("publishDiagnostics for version %d", v), publishedFor(uri, v))
					b.StartTimer()
				}
			})
			c.Shutdown()
			lsptest.BenchGrepAndCat(b, root, []string{"ticket"})
		})
	}
}
