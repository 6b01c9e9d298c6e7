package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/cputime"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// BenchmarkCLIProcess is each CLI command a user, a hook or CI waits for, a
// whole process per run, on gen_workspace.py workspaces of the scale
// budget's sizes (lsptest.BenchSizes), beside `grep -ci`, `cat` of the same
// files and a Go hello world (issue 16, 29):
//
//   - check-text, check-json: `check` and `check --format json` with
//     HackLM's limits (a category over its limit puts a finding with fixes
//     on each entry past it, so the output grows with the workspace);
//   - check-clean: `check` of a workspace with nothing to report
//     (lsptest.CleanWorkspace, limits raised by a settings file);
//   - list-json: `list --json`;
//   - store: `store` of a new entry into a workspace whose n entries are all
//     Decisions (a copy: the runs append to it), lock, fsync and rename
//     included.
//
// Each reports the processes' CPU time too (cpu-ms/op). Reproduce with
//
//	go test ./cmd/memory-lsp -run '^$' -bench BenchmarkCLIProcess -benchtime 10x -count 5
func BenchmarkCLIProcess(b *testing.B) {
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, queries := lsptest.BenchWorkspace(b, n)
			clean, settings := lsptest.CleanWorkspace(b, n)
			runs := []struct {
				name string
				args []string
			}{
				{"check-text", []string{"check", "--root", root}},
				{"check-json", []string{"check", "--format", "json", "--root", root}},
				{"check-clean", []string{"check", "--root", clean, "--config", settings}},
				{"list-json", []string{"list", "--json", "--root", root}},
			}
			for _, r := range runs {
				b.Run(r.name, func(b *testing.B) {
					var cpu cputime.Processes
					for b.Loop() {
						runCLI(b, &cpu, r.args)
					}
					cpu.Report(b)
				})
			}
			b.Run("store", func(b *testing.B) {
				if n > 10000 {
					// 100,000 entries of one category are 9.3 MiB and 200,000
					// lines, over what a memory file may hold: store refuses them.
					b.Skip("one category of 100,000 entries is over the memory file size limit")
				}
				ws := lsptest.CopyWorkspace(b, lsptest.BenchCategoryWorkspace(b, n))
				var cpu cputime.Processes
				i := 0
				for b.Loop() {
					// a new entry each run, which the store must append: a
					// duplicate would be skipped and time no write
					runCLI(b, &cpu, []string{"store", "--root", ws, "--category", "Decision", "--", lsptest.BenchNewEntry(i)})
					i++
				}
				b.StopTimer()
				lsptest.BenchCheckStored(b, filepath.Join(ws, ".memory", "decisions.md"), i)
				cpu.Report(b)
			})
			lsptest.BenchGrepAndCat(b, root, queries)
		})
	}
}

// runCLI runs the binary with args; exit code 1 (findings of severity
// error) is an answer, not a failure.
func runCLI(b *testing.B, cpu *cputime.Processes, args []string) {
	cmd := exec.Command(binary, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cpu.Run(cmd); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitFindings {
			b.Fatalf("%v: %v\n%.2000s", args, err, out.String())
		}
	}
}
