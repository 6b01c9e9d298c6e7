package lsp_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// BenchmarkWarmQueryBinary times, in `memory-lsp serve --stdio` started in a
// gen_workspace.py workspace of the scale budget's sizes (lsptest.BenchSizes) (five category files,
// none open, the limits raised above n (at most 100,000, the highest the
// settings take: 20,000 entries per file) so that the first check does not
// publish n over-limit warnings), the requests an agent or a symbol picker
// sends once the server is warm: `workspace/executeCommand
// memory.queryMemory` and `workspace/symbol`, the probe queries in turn,
// after the folder's first diagnostics and one untimed query of each. Beside
// them `grep -ci` and `cat` of the same files (issue 16). Reproduce with
//
//	go test ./lsp -run '^$' -bench BenchmarkWarmQueryBinary -count 5
func BenchmarkWarmQueryBinary(b *testing.B) {
	benchWarmQuery(b, func(b *testing.B, root string) *lsptest.Client { return startBinary(b, root) })
}

// BenchmarkWarmQueryInProcess is BenchmarkWarmQueryBinary with the server
// in the test's process (under the binary's soft heap limit), for profiles
// (-cpuprofile): the same requests over a pipe.
func BenchmarkWarmQueryInProcess(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	benchWarmQuery(b, func(b *testing.B, _ string) *lsptest.Client { return inProcess(b) })
}

func benchWarmQuery(b *testing.B, start func(b *testing.B, root string) *lsptest.Client) {
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, queries := lsptest.BenchWorkspace(b, n)
			c := start(b, root)
			limits := map[string]any{}
			for _, cat := range category.All {
				limits[cat.String()] = min(max(40, n+1), 100000) // the highest limit the settings take
			}
			settings := map[string]any{"categoryLimit": limits}
			c.SetSettings(map[string]any{"memory": settings})
			c.Initialize(lsptest.InitializeParams(root, settings))
			for _, cat := range category.All {
				u, _ := json.Marshal(lsptest.URI(filepath.Join(root, ".memory", cat.File())))
				c.Await(0, 5*time.Minute, "the first diagnostics of "+cat.File(), func(m *lsptest.Message) bool {
					return m.Method == "textDocument/publishDiagnostics" && bytes.Contains(m.Params, u)
				})
			}
			c.Forget()
			requests := map[string]func(q string) (string, any){
				"queryMemory": func(q string) (string, any) {
					return "workspace/executeCommand", map[string]any{"command": "memory.queryMemory",
						"arguments": []any{map[string]any{"query": q}}}
				},
				"workspaceSymbol": func(q string) (string, any) { return "workspace/symbol", map[string]any{"query": q} },
			}
			for _, name := range []string{"queryMemory", "workspaceSymbol"} {
				b.Run(name, func(b *testing.B) {
					req := requests[name]
					// The first request builds the catalog: at 100,000
					// entries on a busy machine, longer than a request's 10 s.
					call, err := c.Go(req(queries[0]))
					if err == nil {
						_, err = call.Wait(5 * time.Minute)
					}
					if err != nil {
						b.Fatal(err)
					}
					i := 1
					for b.Loop() {
						if _, err := c.Request(req(queries[i%len(queries)])); err != nil {
							b.Fatal(err)
						}
						if i++; i%100 == 0 {
							c.Forget()
						}
					}
				})
			}
			c.Shutdown()
			lsptest.BenchGrepAndCat(b, root, queries)
		})
	}
}
