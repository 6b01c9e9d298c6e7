package lsp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestServerGivesMemoryBackWhenIdle: the binary as an editor runs it, in a
// git repository, with a 10,000-entry file open and checked, then left
// alone, gives back to the system the heap it no longer needs: its
// resident size falls well below its peak while the file stays open,
// without the soft limit (GOMEMLIMIT=off) as with it. Without the release
// the collector's scavenger keeps about twice the live heap, the peak.
func TestServerGivesMemoryBackWhenIdle(t *testing.T) {
	longtest.Skip(t)
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc on this system")
	}
	for _, limit := range []string{"", "off"} {
		t.Run("GOMEMLIMIT="+limit, func(t *testing.T) {
			g := gittest.New(t)
			path := filepath.Join(g.Dir, ".memory", "decisions.md")
			text := benchDecisions(10000)
			writeFile(t, path, text)
			g.Commit("2025-01-02", "memory")
			cmd := exec.Command(binary, "serve", "--stdio")
			cmd.Dir = g.Dir
			cmd.Env = os.Environ()
			if limit != "" {
				cmd.Env = append(cmd.Env, "GOMEMLIMIT="+limit)
			}
			c := lsptest.Start(t, cmd)
			defer func() {
				c.Shutdown()
				c.ExitCode()
			}()
			settings := benchSettings(10000, true)
			c.SetSettings(map[string]any{"memory": settings})
			c.Initialize(lsptest.InitializeParams(g.Dir, settings))
			uri := c.Open(path, text)
			c.AwaitDiagnostics(uri, 1, wait)
			pid := cmd.Process.Pid
			peak := lsptest.ProcStatusMB(t, pid, "VmHWM")
			// Not a time bound: the release comes a quiet second after the
			// work; the deadline only ends a test that would wait forever.
			var rss float64
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				if rss = lsptest.ProcStatusMB(t, pid, "VmRSS"); rss < 0.8*peak {
					t.Logf("resident %.1f MB, peak %.1f MB", rss, peak)
					return
				}
			}
			t.Fatalf("resident %.1f MB 30 s after the check, its peak %.1f MB: the idle server kept its heap", rss, peak)
		})
	}
}
