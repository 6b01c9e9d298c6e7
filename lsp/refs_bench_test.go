package lsp_test

// The server's reference rules at scale, through the binary: 1,000 entries
// against a repository of 100,000 tracked files (issue 14). The figures and
// the commands are in BENCHMARKS.md ("The server after a change to the
// code").

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// benchRepo is the repository scripts/gen-reference-repo wrote, named by
// MEMORY_LSP_BENCH_REPO, and the settings it wrote beside it.
func benchRepo(b *testing.B) (root string, settings map[string]any) {
	b.Helper()
	root = os.Getenv("MEMORY_LSP_BENCH_REPO")
	if root == "" {
		b.Skip("MEMORY_LSP_BENCH_REPO is not set: generate a repository with scripts/gen-reference-repo")
	}
	data, err := os.ReadFile(filepath.Join(root, "settings.json"))
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		b.Fatal(err)
	}
	return root, settings
}

// benchDecisionsFile is the path and content of the bench repository's
// decisions.md.
func benchDecisionsFile(b *testing.B, root string) (string, []byte) {
	b.Helper()
	memFile := filepath.Join(root, ".memory", "decisions.md")
	src, err := os.ReadFile(memFile)
	if err != nil {
		b.Fatal(err)
	}
	return memFile, src
}

// startBench starts the binary on root; byClient says the client watches
// files for the server (didChangeWatchedFiles registered dynamically).
// MEMORY_LSP_BENCH_LOG names a debug log to write, which shows how long
// each follow of a change took in the server.
func startBench(b *testing.B, root string, settings map[string]any, byClient bool) *lsptest.Client {
	b.Helper()
	var args []string
	if l := os.Getenv("MEMORY_LSP_BENCH_LOG"); l != "" {
		args = []string{"--log-level", "debug", "--log-file", l}
	}
	c := startBinary(b, root, args...)
	c.SetSettings(map[string]any{"memory": settings})
	params := lsptest.InitializeParams(root, settings)
	params["capabilities"].(map[string]any)["workspace"].(map[string]any)["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": byClient}
	if _, err := c.Request("initialize", params); err != nil {
		b.Fatal(err)
	}
	return c
}

// staleCount counts the stale-path diagnostics of a publish, without
// decoding it: the client's decoding is not the server's time.
func staleCount(m *lsptest.Message) int {
	return bytes.Count(m.Params, []byte(`"code":"stale-path"`))
}

// BenchmarkReferenceChangeToPublish is the time from a change to a cited
// file (`git mv` of it to a new name, untimed) to the publishDiagnostics
// that carries its new stale-path, through the binary, with the folder's
// repository warm. client-events: the client reports the change
// (didChangeWatchedFiles with the deletion, the creation and git's index,
// as VS Code sends them), timed from sending it. server-watcher: the
// client watches nothing and the server's own watcher sees git's index
// change; timed from when `git mv` returns, so the events the watcher had
// by then are already waiting. Each iteration moves the file back
// (untimed) and waits for the stale-path to go.
func BenchmarkReferenceChangeToPublish(b *testing.B) {
	root, settings := benchRepo(b)
	memFile, src := benchDecisionsFile(b, root)
	m := regexp.MustCompile("`(pkg/m[0-9]+/sub/f[0-9]+\\.go)`").FindSubmatch(src)
	if m == nil {
		b.Fatal("no cited file in decisions.md")
	}
	cited := string(m[1])
	moved := cited[:len(cited)-len(".go")] + "_moved.go"
	uri := lsptest.URI(memFile)
	for _, byClient := range []bool{true, false} {
		name := "server-watcher"
		if byClient {
			name = "client-events"
		}
		b.Run(name, func(b *testing.B) {
			c := startBench(b, root, settings, byClient)
			c.Notify("initialized", map[string]any{})
			published := func(m *lsptest.Message) bool {
				return m.Method == "textDocument/publishDiagnostics" && bytes.Contains(m.Params, []byte(uri))
			}
			first, _ := c.Await(0, time.Minute, "the first publish", published)
			before := staleCount(first)
			git := func(args ...string) {
				b.Helper()
				cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			tell := func(from, to string) {
				if !byClient {
					return
				}
				event := func(rel string, typ int) map[string]any {
					return map[string]any{"uri": lsptest.URI(filepath.Join(root, filepath.FromSlash(rel))), "type": typ}
				}
				c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
					event(from, 3), event(to, 1), event(".git/index", 2)}})
			}
			stale := func(n int) func(*lsptest.Message) bool {
				return func(m *lsptest.Message) bool { return published(m) && staleCount(m) == n }
			}
			for b.Loop() {
				b.StopTimer()
				c.Forget()
				git("mv", cited, moved)
				b.StartTimer()
				tell(cited, moved)
				c.Await(0, wait, "the publish with the moved file's stale-path", stale(before+1))
				b.StopTimer()
				c.Forget()
				git("mv", moved, cited)
				tell(moved, cited)
				c.Await(0, wait, "the publish without it", stale(before))
				b.StartTimer()
			}
			b.StopTimer()
			c.Shutdown()
		})
	}
}

// BenchmarkFirstRequestAfterInitialized spawns the binary on the
// repository of BenchmarkReferenceChangeToPublish and times, from sending
// `initialized`, the answer to textDocument/documentSymbol for a memory
// file: whether the server answers while it lists the repository. The
// spawn and initialize are not timed; neither is the first publish, which
// each iteration waits for before shutting down.
func BenchmarkFirstRequestAfterInitialized(b *testing.B) {
	root, settings := benchRepo(b)
	uri := lsptest.URI(filepath.Join(root, ".memory", "decisions.md"))
	for b.Loop() {
		b.StopTimer()
		c := startBench(b, root, settings, false)
		b.StartTimer()
		c.Notify("initialized", map[string]any{})
		if _, err := c.Request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c.Await(0, time.Minute, "the first publish", func(m *lsptest.Message) bool { return m.Method == "textDocument/publishDiagnostics" })
		c.Shutdown()
		c.ExitCode()
		b.StartTimer()
	}
}

// BenchmarkEditInRepoToPublish is what a keystroke costs where the
// entries' references are judged: one letter of the middle entry of
// decisions.md changed in the editor, until the publishDiagnostics of that
// version has arrived, through the binary, on the repository of
// BenchmarkReferenceChangeToPublish; "ms-work" is that time less the
// server's debounce. Every check judges every reference of the folder again.
func BenchmarkEditInRepoToPublish(b *testing.B) {
	root, settings := benchRepo(b)
	memFile, src := benchDecisionsFile(b, root)
	c := startBench(b, root, settings, true)
	c.Notify("initialized", map[string]any{})
	uri := c.Open(memFile, string(src))
	c.AwaitDiagnostics(uri, 1, time.Minute)
	at, letter := middleLetter(b, string(src))
	i := 0
	reportWork(b, typeLetters(b, c, uri, at, letter, &i), binaryDebounce)
	c.Shutdown()
}
