// Package clients holds the editor configurations and the VS Code extension.
// This test runs each editor's own end-to-end test against the built server,
// so that `go test ./...` exercises every editor that is installed; .ci/run
// installs them (Debian's Neovim and Emacs, Node for the VS Code client, and
// code-server with Debian's Chromium for the extension in VS Code).
package clients_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

var binary string

func TestMain(m *testing.M) { os.Exit(lsptest.RunWithBinary(m, &binary)) }

// editors lists each client's test script and what it needs on the PATH.
// A script that exits 77 is skipped with what it printed (it found
// something missing that only it knows where to look for).
var editors = []struct {
	name    string
	script  string
	needs   []string
	also    string        // a file that must exist (built by .ci/run), if any
	timeout time.Duration // default 3 minutes
}{
	{name: "neovim", script: "nvim/test/run.sh", needs: []string{"nvim"}},
	{name: "emacs", script: "emacs/test/run.sh", needs: []string{"emacs"}},
	{name: "vim-ale", script: "vim/test/run.sh", needs: []string{"vim"}},
	{name: "vscode", script: "vscode/test/node-test.sh", needs: []string{"node"}, also: "vscode/node_modules"},
	// The extension in code-server (VS Code 1.99) in headless Chromium; about
	// a minute and a half on 2 cores, more when the machine is busy.
	{name: "vscode-code-server", script: "vscode/test/codeserver-test.sh", needs: []string{"node", "chromium"},
		also: "vscode/node_modules", timeout: 6 * time.Minute},
}

// skipExit is the exit status of a test script that skips (automake's).
const skipExit = 77

func TestEditors(t *testing.T) {
	longtest.Skip(t)
	for _, ed := range editors {
		t.Run(ed.name, func(t *testing.T) {
			if _, err := os.Stat(ed.script); err != nil {
				t.Skipf("%s: no test script %s", ed.name, ed.script)
			}
			for _, bin := range ed.needs {
				if _, err := exec.LookPath(bin); err != nil {
					t.Skipf("%s is not installed; .ci/run installs it (run it, or install %s, to test this client)", bin, bin)
				}
			}
			if ed.also != "" {
				if _, err := os.Stat(ed.also); err != nil {
					t.Skipf("%s is missing; .ci/run builds it (npm ci in clients/vscode)", ed.also)
				}
			}
			timeout := ed.timeout
			if timeout == 0 {
				timeout = 3 * time.Minute
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", ed.script)
			cmd.Env = append(os.Environ(), "MEMORY_LSP_BIN="+binary)
			// On timeout, TERM first so the script's trap ends what it
			// started (code-server, Chromium); kill it if it lingers.
			cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
			cmd.WaitDelay = 20 * time.Second
			start := time.Now()
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if errors.As(err, &exit) && exit.ExitCode() == skipExit && ctx.Err() == nil {
				t.Skipf("%s: %s", ed.name, bytes.TrimSpace(out))
			}
			if ctx.Err() != nil {
				t.Fatalf("%s test timed out after %v\n%s", ed.name, timeout, out)
			}
			if err != nil {
				t.Fatalf("%s test failed: %v\n%s", ed.name, err, out)
			}
			t.Logf("%s: %s passed in %v", ed.name, filepath.Base(ed.script), time.Since(start).Round(time.Second))
		})
	}
}
