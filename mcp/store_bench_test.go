package mcp

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// BenchmarkStoreMemoryBinary is `tools/call storeMemory` through `memory-lsp
// mcp --root <ws>` over stdio, with the SDK's client, into a decisions.md of
// the scale budget's sizes (lsptest.BenchStoreWorkspace: limits raised, so each
// store appends a new entry and evicts nothing), each call a distinct new
// entry, timed from request to response (lock, read, decide, temp file,
// fsync, rename, folder fsync, unlock). The server is warm: one untimed
// query and one untimed store came first; server-cpu-ms/op is the server
// process's CPU time per store (what runs in the background after the
// reply included), which a busy machine does not inflate. Beside it `grep -c` and `cat` of
// the file the stores wrote; store-then-query is a store and a query after
// it (what the query pays to read a file a store just wrote). Reproduce with
//
//	go test ./mcp -run '^$' -bench BenchmarkStoreMemoryBinary -count 5
func BenchmarkStoreMemoryBinary(b *testing.B) {
	for _, n := range lsptest.StoreSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, _ := lsptest.BenchStoreWorkspace(b, n)
			p := startServer(b, root, nil, "", "--root", root, "--config", filepath.Join(root, "settings.json"))
			call := func(name string, args map[string]any) {
				res, err := p.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %+v", name, err, res)
				}
			}
			store := func(i int) {
				call("storeMemory", map[string]any{"category": "decision", "content": lsptest.BenchNewEntry(i)})
			}
			call("queryMemory", map[string]any{"query": "cache"})
			store(0)
			stored := 1
			b.Run("warm", func(b *testing.B) {
				cpu := lsptest.ProcCPU(b, p.pid)
				for b.Loop() {
					store(stored)
					stored++
				}
				lsptest.ReportProcCPU(b, p.pid, cpu)
			})
			// an agent's usual order: a store, then a query that must
			// read what it stored (each op is both; "warm" above is the
			// store alone)
			b.Run("store-then-query", func(b *testing.B) {
				for b.Loop() {
					store(stored)
					stored++
					call("queryMemory", map[string]any{"query": "cache"})
				}
			})
			lsptest.BenchCheckStored(b, filepath.Join(root, ".memory", "decisions.md"), stored)
			lsptest.BenchCatFile(b, filepath.Join(root, ".memory", "decisions.md"))
		})
	}
}
