package lsptest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/cputime"
)

// BenchSizes are the workspace sizes, in entries, of the benchmarks of
// what users wait for: HackLM's default limits (180), the size memory-lsp
// is built to be fast at (1,000) and the size every interface must answer
// within a second at (10,000): ARCHITECTURE.md's scale budget (issue 29).
var BenchSizes = []int{180, 1000, 10000}

// BenchWorkspace is a workspace of n entries in the five category files,
// written by the shared generator ../shared/bench/gen_workspace.py (seed 1;
// MEMORY_LSP_GEN_WORKSPACE names it elsewhere), and the generator's probe
// queries (three mid-frequency words each, found in the workspace). The
// generator is deterministic, so the workspace is made once per machine, in
// the temporary folder, and reused by later runs; benchmarks only read it.
// Skips when python3 or the generator is missing.
func BenchWorkspace(tb testing.TB, n int) (root string, queries []string) {
	tb.Helper()
	gen := generator(tb)
	root = filepath.Join(os.TempDir(), "memory-lsp-bench", fmt.Sprintf("ws%d-seed1", n))
	probes := filepath.Join(root, "probes.json")
	if _, err := os.Stat(probes); err != nil {
		tmp := root + ".tmp"
		_ = os.RemoveAll(tmp)
		if out, err := exec.Command("python3", gen, fmt.Sprint(n), "1", tmp).CombinedOutput(); err != nil {
			tb.Skipf("generating the workspace: %v\n%s", err, out)
		}
		_ = os.RemoveAll(root)
		if err := os.Rename(tmp, root); err != nil {
			tb.Fatal(err)
		}
	}
	return root, BenchQueries(tb, root)
}

// BenchQueries are the generator's probe queries of the workspace at root
// (BenchWorkspace, BenchCategoryWorkspace).
func BenchQueries(tb testing.TB, root string) []string {
	tb.Helper()
	probes := filepath.Join(root, "probes.json")
	data, err := os.ReadFile(probes)
	if err != nil {
		tb.Fatal(err)
	}
	var p struct {
		Queries []string `json:"queries"`
	}
	if err := json.Unmarshal(data, &p); err != nil || len(p.Queries) == 0 {
		tb.Fatalf("reading %s: %v", probes, err)
	}
	return p.Queries
}

// generator is the path of gen_workspace.py; skips when it is missing.
func generator(tb testing.TB) string {
	tb.Helper()
	gen := os.Getenv("MEMORY_LSP_GEN_WORKSPACE")
	if gen == "" {
		top, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
		if err != nil {
			tb.Skipf("finding the module's folder: %v", err)
		}
		gen = filepath.Join(string(top[:len(top)-1]), "..", "shared", "bench", "gen_workspace.py")
	}
	if _, err := os.Stat(gen); err != nil {
		tb.Skipf("no workspace generator: %v", err)
	}
	return gen
}

// BenchFiles are the memory files of a BenchWorkspace, for `grep` and `cat`
// of the same bytes beside the benchmarks.
func BenchFiles(tb testing.TB, root string) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(root, ".memory", "*.md"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no memory files in %s: %v", root, err)
	}
	return files
}

// BenchGrepAndCat adds the sub-benchmarks "grep-ci" (`grep -ci -e w …` of
// a query's words, the queries in turn) and "cat" (`cat` to /dev/null) over
// the memory files of root, so that the figures of a benchmark read as
// ratios to them, taken in the same run on the same bytes.
func BenchGrepAndCat(b *testing.B, root string, queries []string) {
	files := BenchFiles(b, root)
	b.Run("grep-ci", func(b *testing.B) {
		var cpu cputime.Processes
		i := 0
		for b.Loop() {
			var args []string
			for _, w := range strings.Fields(queries[i%len(queries)]) {
				args = append(args, "-e", w)
			}
			i++
			// grep exits 1 when nothing matches: not an error here.
			if err := cpu.Run(exec.Command("grep", append(append([]string{"-ci"}, args...), files...)...)); err != nil {
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
					b.Fatal(err)
				}
			}
		}
		cpu.Report(b)
	})
	b.Run("cat", func(b *testing.B) { benchRun(b, false, "cat", files...) })
	b.Run("go-hello", func(b *testing.B) { benchRun(b, false, helloWorld(b)) })
}

// helloWorld builds, once, a Go program that prints one line: the process
// floor, under which no Go command answers, built as the binary is
// (CGO_ENABLED=0).
func helloWorld(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "memory-lsp-bench", "hello")
	bin := filepath.Join(dir, "hello")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", bin, src)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GO111MODULE=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the hello world: %v\n%s", err, out)
	}
	return bin
}

// benchRun runs a program per iteration, reporting its CPU time beside
// the wall time; with grep, exit code 1 (nothing found) is no failure.
func benchRun(b *testing.B, grep bool, name string, args ...string) {
	var cpu cputime.Processes
	for b.Loop() {
		if err := cpu.Run(exec.Command(name, args...)); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || !grep || ee.ExitCode() != 1 {
				b.Fatal(err)
			}
		}
	}
	cpu.Report(b)
}
