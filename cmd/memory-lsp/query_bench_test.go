package main

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/cputime"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// BenchmarkQueryProcess is `memory-lsp query --root <ws> <three words>`, a
// whole process as a user or a script runs it, on gen_workspace.py
// workspaces of 40 to 100,000 entries (the probe queries in turn), beside
// `grep -ci` and `cat` of the same files (issue 16); each also reports the
// processes' CPU time (cpu-ms/op), which waiting for a busy core does not
// inflate. Reproduce with
//
//	go test ./cmd/memory-lsp -run '^$' -bench BenchmarkQueryProcess -count 5
func BenchmarkQueryProcess(b *testing.B) {
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, queries := lsptest.BenchWorkspace(b, n)
			b.Run("memory-lsp", func(b *testing.B) {
				var cpu cputime.Processes
				i := 0
				for b.Loop() {
					args := append([]string{"query", "--root", root}, strings.Fields(queries[i%len(queries)])...)
					i++
					cmd := exec.Command(binary, args...)
					var out bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &out
					if err := cpu.Run(cmd); err != nil {
						b.Fatalf("%v\n%s", err, out.String())
					}
				}
				cpu.Report(b)
			})
			lsptest.BenchGrepAndCat(b, root, queries)
		})
	}
}
