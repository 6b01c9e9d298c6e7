package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/cputime"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// BenchmarkQueryProcess is `memory-lsp query --root <ws> <three words>`, a
// whole process as a user or a script runs it, on gen_workspace.py
// workspaces of the scale budget's sizes (lsptest.BenchSizes: 180, 1,000, 10,000 entries) (the probe queries in turn), beside
// `grep -ci` and `cat` of the same files (issue 16); each also reports the
// processes' CPU time (cpu-ms/op), which waiting for a busy core does not
// inflate. Three ways: "memory-lsp" with the index kept between runs
// warm (one untimed query builds it first), "memory-lsp-changed" the
// first query after a store into decisions.md (of a copy of the
// workspace; the store untimed), whose part of the index is built again,
// and "memory-lsp-no-index" with MEMORY_LSP_CACHE=off, every file read.
// The index lives in the test's temp cache folder (lsptest.RunWithBinary).
// Reproduce with
//
//	go test ./cmd/memory-lsp -run '^$' -bench BenchmarkQueryProcess -count 5
func BenchmarkQueryProcess(b *testing.B) {
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, queries := lsptest.BenchWorkspace(b, n)
			b.Run("memory-lsp", func(b *testing.B) {
				benchQueries(b, root, queries, nil, nil)
			})
			b.Run("memory-lsp-changed", func(b *testing.B) {
				ws := lsptest.CopyWorkspace(b, root)
				stored := 0
				benchQueries(b, ws, queries, nil, func() {
					// a new entry each time: a skipped duplicate would leave
					// the index warm
					store := exec.Command(binary, "store", "--root", ws, "--category", "Decision", "--", lsptest.BenchNewEntry(stored))
					stored++
					if out, err := store.CombinedOutput(); err != nil {
						b.Fatalf("store: %v\n%s", err, out)
					}
				})
			})
			b.Run("memory-lsp-no-index", func(b *testing.B) {
				benchQueries(b, root, queries, []string{"MEMORY_LSP_CACHE=off"}, nil)
			})
			lsptest.BenchGrepAndCat(b, root, queries)
		})
	}
}

// benchQueries times `memory-lsp query` over root, the queries in turn,
// with env added, after one untimed query and, before each, before()
// untimed.
func benchQueries(b *testing.B, root string, queries []string, env []string, before func()) {
	var cpu cputime.Processes
	run := func(i int, count bool) {
		args := append([]string{"query", "--root", root}, strings.Fields(queries[i%len(queries)])...)
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		run := cmd.Run
		if count {
			run = func() error { return cpu.Run(cmd) }
		}
		if err := run(); err != nil {
			b.Fatalf("%v\n%s", err, out.String())
		}
	}
	run(len(queries)-1, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if before != nil {
			b.StopTimer()
			before()
			b.StartTimer()
		}
		run(i, true)
	}
	b.StopTimer()
	cpu.Report(b)
}
