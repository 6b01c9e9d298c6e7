package mcp

import (
	"context"
	"strconv"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// BenchmarkQueryMemoryBinary is `tools/call queryMemory` through `memory-lsp
// mcp --root <ws>` over stdio, with the SDK's client, on gen_workspace.py
// workspaces of the scale budget's sizes (lsptest.BenchSizes), the probe
// queries in turn: "first"
// is the first call of a new server (one process per iteration; starting
// it and the handshake are not timed), "warm" every later call of one
// server. Beside them `grep -ci` and `cat` of the same files (issue 16).
// Reproduce with
//
//	go test ./mcp -run '^$' -bench BenchmarkQueryMemoryBinary -count 5
func BenchmarkQueryMemoryBinary(b *testing.B) {
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, queries := lsptest.BenchWorkspace(b, n)
			call := func(b *testing.B, p *serverProcess, i int) {
				res, err := p.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "queryMemory",
					Arguments: map[string]any{"query": queries[i%len(queries)]}})
				if err != nil || res.IsError {
					b.Fatalf("queryMemory: %v %+v", err, res)
				}
			}
			b.Run("first", func(b *testing.B) {
				i := 0
				for b.Loop() {
					b.StopTimer()
					p := startServer(b, root, nil, "", "--root", root)
					b.StartTimer()
					call(b, p, i)
					i++
					b.StopTimer()
					p.close(b)
					b.StartTimer()
				}
			})
			b.Run("warm", func(b *testing.B) {
				p := startServer(b, root, nil, "", "--root", root)
				call(b, p, 0)
				i := 1
				for b.Loop() {
					call(b, p, i)
					i++
				}
			})
			lsptest.BenchGrepAndCat(b, root, queries)
		})
	}
}
