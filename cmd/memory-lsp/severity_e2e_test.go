package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestSeveritySettingE2E: in a git repository, a reversal is information,
// counted by nothing; with "conflict": "warning" in --config it is a
// counted warning, and with "conflict": "error" an error that makes
// `check` exit 1; a severity that is none is a usage error naming the key.
func TestSeveritySettingE2E(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"main.go":              "package main\n",
		".memory/decisions.md": "# Decisions\n\n- Always squash merge pull requests.\n- Never squash merge pull requests.\n",
	})
	g.AddAll()
	g.Commit("2026-01-01T00:00:00Z", "start")
	config := func(body string) string {
		p := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out, errs, code := runBinary(t, g.Dir, "", "check")
	if code != 0 || !strings.Contains(out, "info:") || !strings.Contains(out, "[conflict]") {
		t.Fatalf("by default: exit %d, %q %q; want the reversal as information and exit 0", code, out, errs)
	}
	out, errs, code = runBinary(t, g.Dir, "", "check", "--config", config(`{"rules": {"conflict": "warning"}}`))
	if code != 0 || !strings.Contains(out, "warning:") || !strings.Contains(errs, "0 errors, 1 warning") {
		t.Errorf(`with "conflict": "warning": exit %d, %q %q; want a counted warning`, code, out, errs)
	}
	out, errs, code = runBinary(t, g.Dir, "", "check", "--config", config(`{"memory": {"rules": {"conflict": "error"}}}`))
	if code != 1 || !strings.Contains(out, "error:") || !strings.Contains(errs, "1 error") {
		t.Errorf(`with "conflict": "error": exit %d, %q %q; want an error and exit 1`, code, out, errs)
	}
	_, errs, code = runBinary(t, g.Dir, "", "check", "--config", config(`{"rules": {"conflict": "loud"}}`))
	if code != 2 || !strings.Contains(errs, `rules.conflict: "loud" is not a valid value`) {
		t.Errorf(`with "conflict": "loud": exit %d, %q; want a usage error naming the key`, code, errs)
	}
}
