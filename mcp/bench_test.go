package mcp

import (
	"context"
	"os"
	"path/filepath"
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
// "clone" is first and warm in the clone of a repository with its history
// that scripts/gen-memory-in-clone writes, named by MEMORY_LSP_BENCH_REPO
// (its settings.json passed with --config): there the hits cite the
// project's files, commands and versions, and every call judges them
// against the repository. Reproduce with
//
//	go test ./mcp -run '^$' -bench BenchmarkQueryMemoryBinary -count 5
//	MEMORY_LSP_BENCH_REPO=$TMPDIR/real-1k go test ./mcp -run '^$' -bench 'BenchmarkQueryMemoryBinary/clone' -count 5
func BenchmarkQueryMemoryBinary(b *testing.B) {
	if root := os.Getenv("MEMORY_LSP_BENCH_REPO"); root != "" {
		b.Run("clone", func(b *testing.B) {
			benchQueryMemory(b, root, cloneQueries, "--config", filepath.Join(root, "settings.json"))
		})
	}
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, queries := lsptest.BenchWorkspace(b, n)
			benchQueryMemory(b, root, queries)
			lsptest.BenchGrepAndCat(b, root, queries)
		})
	}
}

// cloneQueries are words of scripts/gen-memory-in-clone's entries, each
// beside one of its templates' words, so that most hits cite something.
var cloneQueries = []string{
	"cache code", "session rules", "token handlers", "schema path",
	"ledger tests", "worker service", "invoice code", "tenant part",
}

// benchQueryMemory is the first and warm calls of queryMemory on root,
// the queries in turn; args are the server's beyond --root.
func benchQueryMemory(b *testing.B, root string, queries []string, args ...string) {
	args = append([]string{"--root", root}, args...)
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
			p := startServer(b, root, nil, "", args...)
			b.StartTimer()
			call(b, p, i)
			i++
			b.StopTimer()
			p.close(b)
			b.StartTimer()
		}
	})
	b.Run("warm", func(b *testing.B) {
		p := startServer(b, root, nil, "", args...)
		call(b, p, 0)
		i := 1
		for b.Loop() {
			call(b, p, i)
			i++
		}
	})
}
