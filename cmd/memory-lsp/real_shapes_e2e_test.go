package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestRealShapesCheckQuiet: shapes that real teams' instruction files hold,
// read as memory entries in a git repository (issue 27's sweep of 68
// repositories' files), on which check warned falsely or failed CI: the verb
// "pass" before a call, an example body's described token, a quoted make
// variable, an alternative rejected in an aside, two calls and branch
// names. check exits 0
// and reports none of the rules that judge them.
func TestRealShapesCheckQuiet(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{
		"package.json": `{"scripts": {"fmt:fix": "biome format --write ."}}` + "\n",
		"Makefile":     "migrate-rev:\n\talembic revision -m \"$(MSG)\"\n",
		".memory/instructions.md": "# Instructions\n\n" +
			"- For a dark theme in tests, pass the option — `renderTheme(ui, { scheme: \"dark\" })` — not a provider.\n" +
			"- `\"refreshToken\": \"base64-encoded-refresh-token\"`\n" +
			"- `make migrate-rev MSG=\"add the audit column to runs\"`\n" +
			"- Always run `npm run fmt:fix` before commits.\n" +
			"- Always run `npm run fmt:fix` (NOT `npm run lint:fix`) before commits, then push.\n" +
			"- `log(\"Task succeeded\", id)`\n" +
			"- `log(\"Task failed\", id)`\n" +
			"- Branch names start with the version, as in `v2/fix/oauth-scope`.\n",
	})
	r.Commit("2026-01-01", "memory")
	out, errOut, code := runBinary(t, r.Dir, "", "check", "--format", "json")
	if code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
	var report struct {
		Findings []struct {
			Code, Severity, Message string
			Line                    int
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	judged := "secret hidden-text stale-command stale-path conflict agent-directive"
	for _, f := range report.Findings {
		if strings.Contains(judged, f.Code) && f.Severity != "info" {
			t.Errorf("line %d: %s %s: %s", f.Line, f.Severity, f.Code, f.Message)
		}
	}
}
