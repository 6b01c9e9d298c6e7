// Package clients holds the editor configurations and the VS Code extension.
// This test runs each editor's own end-to-end test against the built server,
// so that `go test ./...` exercises every editor that is installed; .ci/run
// installs them (Debian's Neovim and Emacs, Node for the VS Code client).
package clients_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/lsp/lsptest"
)

var binary string

func TestMain(m *testing.M) { os.Exit(lsptest.RunWithBinary(m, &binary)) }

// editors lists each client's test script and what it needs on the PATH.
var editors = []struct {
	name   string
	script string
	needs  []string
	also   string // a file that must exist (built by .ci/run), if any
}{
	{name: "neovim", script: "nvim/test/run.sh", needs: []string{"nvim"}},
	{name: "emacs", script: "emacs/test/run.sh", needs: []string{"emacs"}},
	{name: "vscode", script: "vscode/test/node-test.sh", needs: []string{"node"}, also: "vscode/node_modules"},
}

func TestEditors(t *testing.T) {
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
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", ed.script)
			cmd.Env = append(os.Environ(), "MEMORY_LSP_BIN="+binary)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s test failed: %v\n%s", ed.name, err, out)
			}
			t.Logf("%s: %s", ed.name, filepath.Base(ed.script))
		})
	}
}
