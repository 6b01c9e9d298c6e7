package lsp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// BenchmarkStoreBinary is `workspace/executeCommand memory.storeMemory`
// through `memory-lsp serve --stdio`, into a closed decisions.md of the
// scale budget's sizes (lsptest.StoreSizes; lsptest.BenchStoreWorkspace: limits raised, so each store
// appends a new entry and evicts nothing), each call a distinct new entry,
// timed from request to response (the write under the lock with fsync, as
// the CLI's). The server is warm: the folder's first diagnostics, one
// untimed query and one untimed store came first; server-cpu-ms/op is the
// server process's CPU time per store (the checks after the stores
// included), which a busy machine does not inflate. Beside it `grep -c` and
// `cat` of the file the stores wrote. "clone" runs it in a copy of the
// clone of a repository with its history that scripts/gen-memory-in-clone
// writes, named by MEMORY_LSP_BENCH_REPO (its settings.json as the
// settings): there the entries cite the project's real paths, and each
// publish finds what they cite and the folders to watch for it; its
// "settled" server-cpu-ms/op is then a store with all the work that
// follows it. Reproduce with
//
//	go test ./lsp -run '^$' -bench BenchmarkStoreBinary -count 5
//	MEMORY_LSP_BENCH_REPO=$TMPDIR/real-1k go test ./lsp -run '^$' -bench 'BenchmarkStoreBinary/clone' -count 5
func BenchmarkStoreBinary(b *testing.B) {
	benchStore(b, func(b *testing.B, root string) (*lsptest.Client, int) {
		cmd := exec.Command(binary, "serve", "--stdio")
		cmd.Dir = root
		c := lsptest.Start(b, cmd)
		return c, cmd.Process.Pid
	})
}

// BenchmarkStoreInProcess is BenchmarkStoreBinary with the server in the
// test's process (under the binary's soft heap limit and with its debounce),
// for profiles (-cpuprofile).
func BenchmarkStoreInProcess(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(lsp.MemoryLimit))
	benchStore(b, func(b *testing.B, _ string) (*lsptest.Client, int) {
		return inProcessWith(b, lsp.Options{Version: "test"}), 0
	})
}

// waitIdle returns once the process pid has used no CPU for 50 ms, past the
// server's debounce: whatever an earlier request set going is done.
func waitIdle(b *testing.B, pid int) {
	time.Sleep(binaryDebounce + 20*time.Millisecond)
	last := lsptest.ProcCPU(b, pid)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		now := lsptest.ProcCPU(b, pid)
		if now == last {
			return
		}
		last = now
	}
	b.Fatal("the server did not settle within a minute")
}

// benchStore runs the benchmark on the server start starts, and reports its
// CPU time per store when it is a process of its own (pid not 0).
func benchStore(b *testing.B, start func(b *testing.B, root string) (c *lsptest.Client, pid int)) {
	if src := os.Getenv("MEMORY_LSP_BENCH_REPO"); src != "" {
		b.Run("clone", func(b *testing.B) {
			// a copy: the stores write into it
			root := filepath.Join(b.TempDir(), "repo")
			if out, err := exec.Command("cp", "-a", src, root).CombinedOutput(); err != nil {
				b.Fatalf("copying %s: %v %s", src, err, out)
			}
			_, settings := benchRepo(b)
			benchStoreIn(b, root, settings, start)
		})
	}
	for _, n := range lsptest.StoreSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root, settings := lsptest.BenchStoreWorkspace(b, n)
			benchStoreIn(b, root, settings, start)
		})
	}
}

// benchStoreIn is benchStore on the workspace at root.
func benchStoreIn(b *testing.B, root string, settings map[string]any, start func(b *testing.B, root string) (c *lsptest.Client, pid int)) {
	c, pid := start(b, root)
	c.SetSettings(map[string]any{"memory": settings})
	c.Initialize(lsptest.InitializeParams(root, settings))
	path := filepath.Join(root, ".memory", "decisions.md")
	u, _ := json.Marshal(lsptest.URI(path))
	c.Await(0, 5*time.Minute, "the first diagnostics of decisions.md", func(m *lsptest.Message) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), string(u))
	})
	command := func(name string, args map[string]any) {
		call, err := c.Go("workspace/executeCommand", map[string]any{"command": name, "arguments": []any{args}})
		if err == nil {
			_, err = call.Wait(5 * time.Minute)
		}
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
	}
	store := func(i int) {
		command("memory.storeMemory", map[string]any{"category": "decision", "content": lsptest.BenchNewEntry(i)})
	}
	command("memory.queryMemory", map[string]any{"query": "cache"})
	store(0)
	stored := 1
	b.Run("warm", func(b *testing.B) {
		var cpu time.Duration
		if pid != 0 {
			cpu = lsptest.ProcCPU(b, pid)
		}
		for b.Loop() {
			store(stored)
			if stored++; stored%50 == 0 {
				c.Forget() // the diagnostics each store brings
			}
		}
		if pid != 0 {
			lsptest.ReportProcCPU(b, pid, cpu)
		}
	})
	if pid != 0 {
		// As an agent stores, a store now and then: each timed
		// store finds the server idle, the previous store's
		// re-check of the folder done (not timed).
		// server-cpu-ms/op: each store's work, its re-check and what
		// follows it (the cited folders) included.
		b.Run("settled", func(b *testing.B) {
			waitIdle(b, pid)
			cpu := lsptest.ProcCPU(b, pid)
			for b.Loop() {
				b.StopTimer()
				waitIdle(b, pid)
				c.Forget()
				b.StartTimer()
				store(stored)
				stored++
			}
			b.StopTimer()
			waitIdle(b, pid)
			lsptest.ReportProcCPU(b, pid, cpu)
		})
	}
	c.Shutdown()
	lsptest.BenchCheckStored(b, path, stored)
	lsptest.BenchCatFile(b, path)
}
