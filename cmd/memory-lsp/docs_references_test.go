package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestDocsReferencesExample: the example under "## References" in
// docs/rules.md is what the binary prints in the repository it describes
// (session.ts moved, handler.ts deleted, the Makefile's e2e target
// renamed e2e-test, .nvmrc 22), the commits' hashes aside.
func TestDocsReferencesExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)## References\n.*?```console\n\\$ memory-lsp check\n(.*?)```").FindSubmatch(doc)
	if block == nil {
		t.Fatal("docs/rules.md: no console example under ## References")
	}
	g := gittest.New(t)
	g.Write(map[string]string{
		"src/auth/session.ts":   "export const session = { cookie: \"sid\", maxAge: 3600 };\n",
		"src/legacy/handler.ts": "export function handle() { return 1; }\n",
		"Makefile":              "build:\n\tgo build ./...\ne2e:\n\tgo test -tags e2e ./...\n",
		".nvmrc":                "22\n",
		".memory/instructions.md": "# Instructions\n\n- Run `make e2e` before a release.\n" +
			"- Use pnpm for installs.\n- Keep handlers small.\n",
		".memory/decisions.md": "# Decisions\n\n- Auth sessions live in `src/auth/session.ts`.\n" +
			"- The API runs on Node 18.\n- Webhooks are handled in `src/legacy/handler.ts`.\n- Use Postgres.\n",
	})
	g.AddAll()
	g.Commit("2026-01-01T00:00:00Z", "start")
	if err := os.MkdirAll(g.Dir+"/lib/auth", 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("mv", "src/auth/session.ts", "lib/auth/sessions.ts")
	g.Git("rm", "-q", "src/legacy/handler.ts")
	g.Write(map[string]string{"Makefile": "build:\n\tgo build ./...\ne2e-test:\n\tgo test -tags e2e ./...\n"})
	g.AddAll()
	g.Commit("2026-02-01T00:00:00Z", "sessions move, the legacy handler goes, e2e is e2e-test")
	out, errs, _ := runBinary(t, g.Dir, "", "check")
	hash := regexp.MustCompile(`\b[0-9a-f]{7}\b`)
	// the summary is written to stderr, after the findings, as a terminal shows it
	got, want := hash.ReplaceAllString(out+errs, "HASH"), hash.ReplaceAllString(string(block[1]), "HASH")
	if got != want {
		t.Errorf("docs/rules.md's example under ## References:\n%q\nthe binary prints:\n%q", want, got)
	}
	if !strings.Contains(out, "[stale-path]") {
		t.Error("the example shows no stale path")
	}
}
