package lsp_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestE2EAgentFiles: the binary, in a git repository, shows what check
// shows of the agents' files beside .memory/: AGENTS.md past Codex's
// 32 KiB gets its load-budget error on the line Codex drops, and with
// cross-file on, the entry naming another package manager than AGENTS.md
// carries AGENTS.md's line as related information.
func TestE2EAgentFiles(t *testing.T) {
	g := gittest.New(t)
	entry := "# Decisions\n\n- [pm] Use pnpm for installs.\n"
	// The heading, a blank line and the npm line take 53 bytes, then lines
	// of 100: byte 32,768 is on 0-based line 3 + 327 = 330.
	agents := "# Agents\n\n- Install dependencies with `npm install`.\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", 330)
	g.Write(map[string]string{".memory/decisions.md": entry, "AGENTS.md": agents})
	g.Commit("2026-11-01T10:00:00Z", "memory and agents")
	c := startBinary(t, g.Dir)
	c.Initialize(lsptest.InitializeParams(g.Dir, map[string]any{"rules": map[string]any{"cross-file": true}}))
	uri := lsptest.URI(filepath.Join(g.Dir, ".memory", "decisions.md"))
	agentsURI := lsptest.URI(filepath.Join(g.Dir, "AGENTS.md"))
	mark := c.Mark()
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": entry}})
	d := c.AwaitDiagnosticsWhere(mark, agentsURI, 20*time.Second, func(d *lsptest.Diagnostics) bool { return d.Find("load-budget") != nil })
	if f := d.Find("load-budget"); f.Severity != 1 || f.Range.Start.Line != 330 || !strings.Contains(f.Message, "Codex loads at most 32 KiB") {
		t.Errorf("AGENTS.md's load-budget: %+v", f)
	}
	m := c.AwaitDiagnosticsWhere(mark, uri, 20*time.Second, func(d *lsptest.Diagnostics) bool { return d.Find("cross-file") != nil })
	f := m.Find("cross-file")
	if len(f.RelatedInformation) != 1 || f.RelatedInformation[0].Location.URI != agentsURI || f.RelatedInformation[0].Location.Range.Start.Line != 2 {
		t.Errorf("cross-file's related information: %+v", f.RelatedInformation)
	}
	c.Shutdown()
}

// TestE2EAgentFileAsYouType: the binary, attached to AGENTS.md in a git
// repository, shows on its bullets what `check AGENTS.md` reports — the
// same finding at the same place with the same message — from the buffer
// as it is typed: a bullet citing a missing path gets stale-path, which
// goes once the bullet is fixed in the buffer (nothing saved); no memory
// rule (missing-slug is on) judges it. Closed, it shows the disk's file,
// whose bullets only a check that names it judges: nothing.
func TestE2EAgentFileAsYouType(t *testing.T) {
	g := gittest.New(t)
	stale := "# Agents\n\n- Build with `go build ./...`; the entry point is `cmd/app/main.go`.\n- Sessions live in `src/session.go`.\n"
	g.Write(map[string]string{
		".memory/decisions.md": "# Decisions\n\n- [go] Use Go.\n",
		"cmd/app/main.go":      "package main\n",
		"AGENTS.md":            stale,
	})
	g.Commit("2026-11-01T10:00:00Z", "memory, code and agents")
	out, err := exec.Command(binary, "check", "--root", g.Dir, "--format", "json", filepath.Join(g.Dir, "AGENTS.md")).Output()
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	var checked struct {
		Findings []struct {
			Line, Column int
			Code         string
			Message      string
		}
	}
	if err := json.Unmarshal(out, &checked); err != nil || len(checked.Findings) != 1 || checked.Findings[0].Code != "stale-path" {
		t.Fatalf("check AGENTS.md: %v\n%s", err, out)
	}
	want := checked.Findings[0]

	c := startBinary(t, g.Dir)
	c.Initialize(lsptest.InitializeParams(g.Dir, map[string]any{"rules": map[string]any{"missing-slug": true}}))
	uri := lsptest.URI(filepath.Join(g.Dir, "AGENTS.md"))
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": stale}})
	d := c.AwaitDiagnostics(uri, 1, 20*time.Second)
	if len(d.Diagnostics) != 1 {
		t.Fatalf("AGENTS.md as opened: %v", d.Codes())
	}
	got := d.Diagnostics[0]
	if got.Code != want.Code || got.Message != want.Message || got.Range.Start.Line+1 != want.Line || got.Range.Start.Character+1 != want.Column {
		t.Errorf("the editor shows %+v; check reports %+v", got, want)
	}

	// Fixed in the buffer, not saved.
	fixed := strings.Replace(stale, "src/session.go", "cmd/app/main.go", 1)
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": fixed}},
	})
	if d := c.AwaitDiagnostics(uri, 2, 20*time.Second); len(d.Diagnostics) != 0 {
		t.Errorf("after the fix in the buffer: %v", d.Codes())
	}
	mark := c.Mark()
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if d := c.AwaitDiagnosticsWhere(mark, uri, 20*time.Second, func(d *lsptest.Diagnostics) bool { return d.Version == nil }); len(d.Diagnostics) != 0 {
		t.Errorf("closed: %v", d.Codes())
	}
	c.Shutdown()
}

// TestE2EAgentFileOverTheFileLimit: AGENTS.md past the 2 MiB a memory file
// may hold is still read whole by Codex's budget: the binary shows its
// load-budget error on the line Codex drops, as check does, whether the
// file is closed (read from disk) or open in the editor.
func TestE2EAgentFileOverTheFileLimit(t *testing.T) {
	for _, open := range []bool{false, true} {
		t.Run(map[bool]string{false: "closed", true: "open"}[open], func(t *testing.T) {
			g := gittest.New(t)
			entry := "# Decisions\n\n- [pm] Use pnpm for installs.\n"
			// as in TestE2EAgentFiles, byte 32,768 is on 0-based line 330;
			// 22,000 lines of 100 bytes pass 2 MiB
			agents := "# Agents\n\n- Install dependencies with `npm install`.\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", 22000)
			g.Write(map[string]string{".memory/decisions.md": entry, "AGENTS.md": agents})
			g.Commit("2026-11-01T10:00:00Z", "memory and agents")
			c := startBinary(t, g.Dir)
			c.Initialize(lsptest.InitializeParams(g.Dir, nil))
			uri := lsptest.URI(filepath.Join(g.Dir, ".memory", "decisions.md"))
			agentsURI := lsptest.URI(filepath.Join(g.Dir, "AGENTS.md"))
			mark := c.Mark()
			c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": entry}})
			if open {
				c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": agentsURI, "languageId": "markdown", "version": 1, "text": agents}})
			}
			d := c.AwaitDiagnosticsWhere(mark, agentsURI, 20*time.Second, func(d *lsptest.Diagnostics) bool { return d.Find("load-budget") != nil })
			if f := d.Find("load-budget"); f.Severity != 1 || f.Range.Start.Line != 330 || !strings.Contains(f.Message, "Codex loads at most 32 KiB") {
				t.Errorf("AGENTS.md's load-budget: %+v", f)
			}
			c.Shutdown()
		})
	}
}
