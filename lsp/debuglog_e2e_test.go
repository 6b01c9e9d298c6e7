package lsp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestDebugLogRecordsEachMessage: `serve --log-level debug --log-file F`,
// as the editor READMEs recommend for troubleshooting, records every
// request with its outcome and time, every notification in both
// directions and every request to the client; the default level records
// none of that. Run through the binary, in a git repository.
func TestDebugLogRecordsEachMessage(t *testing.T) {
	session := func(t *testing.T, level string) string {
		root := t.TempDir()
		if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
			t.Skipf("git init: %v %s", err, out)
		}
		path := filepath.Join(root, ".memory", "decisions.md")
		writeFile(t, path, "# Decisions\n\n* Use Postgres for the ledger.\n")
		logFile := filepath.Join(t.TempDir(), "memory-lsp.log")
		args := []string{"--log-file", logFile}
		if level != "" {
			args = append(args, "--log-level", level)
		}
		c := startBinary(t, root, args...)
		c.Initialize(lsptest.InitializeParams(root, nil))
		uri := c.OpenFile(path)
		c.AwaitDiagnostics(uri, 1, 10*time.Second)
		if _, err := c.Request("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"range":        lsptest.R(2, 0, 2, 0),
			"context":      map[string]any{"diagnostics": []any{}},
		}); err != nil {
			t.Fatal(err)
		}
		return shutdownAndReadLog(t, c, logFile)
	}

	log := session(t, "debug")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`<- initialize #\S+ \(\d+ bytes\): answered in [0-9.]+[µm]?s`),
		regexp.MustCompile(`<- initialized \(\d+ bytes\): handled in `),
		regexp.MustCompile(`<- textDocument/didOpen \(\d+ bytes\): handled in `),
		regexp.MustCompile(`-> textDocument/publishDiagnostics \(\d+ bytes\)`),
		regexp.MustCompile(`<- textDocument/codeAction #\S+ \(\d+ bytes\): answered in `),
		regexp.MustCompile(`<- shutdown #\S+ \(\d+ bytes\): answered in `),
	} {
		if !want.MatchString(log) {
			t.Errorf("the debug log has no line matching %s:\n%s", want, log)
		}
	}
	if quiet := session(t, ""); strings.Contains(quiet, "<- initialize") || strings.Contains(quiet, "-> textDocument/publishDiagnostics") {
		t.Errorf("the default level logs each message:\n%s", quiet)
	}
}

// shutdownAndReadLog ends the session and returns the log file the server
// wrote, complete once the process is gone.
func shutdownAndReadLog(t *testing.T, c *lsptest.Client, logFile string) string {
	t.Helper()
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
