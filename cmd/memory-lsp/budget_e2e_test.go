package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestE2ELoadBudget: in a git repository set up as users set it up (init
// with the AGENTS.md and CLAUDE.md pointer blocks, a CLAUDE.md import of a
// memory file), an AGENTS.md past Codex's 32 KiB is an error on the first
// line Codex drops, from check and SARIF alike; budget names the same line
// and measures the import; the agents and rules settings turn it off.
func TestE2ELoadBudget(t *testing.T) {
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if _, errs, code := runBinary(t, root, "", "init", "--agents-md", "--claude-md"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errs)
	}
	if _, errs, code := runBinary(t, root, "", "store", "--category", "Security", "Never commit credentials."); code != 0 {
		t.Fatalf("store: exit %d: %s", code, errs)
	}
	claude := filepath.Join(root, "CLAUDE.md")
	lsptest.AppendInPlace(t, claude, "\nRead @.memory/security.md before any change.\n")
	if out, errs, code := runBinary(t, root, "", "check"); code != 0 || strings.Contains(out, "load-budget") {
		t.Fatalf("a fresh init is over a budget: exit %d\n%s%s", code, out, errs)
	}

	agents := filepath.Join(root, "AGENTS.md")
	var b strings.Builder
	for i := 0; b.Len() < 40000; i++ {
		fmt.Fprintf(&b, "- Rule %d: run the whole test suite before pushing to the main branch.\n", i)
	}
	lsptest.AppendInPlace(t, agents, b.String())
	data, err := os.ReadFile(agents)
	if err != nil {
		t.Fatal(err)
	}
	// The first line Codex does not get in full holds byte 32,768.
	cutLine := bytes.Count(data[:32<<10], []byte("\n")) + 1
	// It and every line after it (each ends in a line break past the cut).
	dropped := bytes.Count(data[32<<10:], []byte("\n"))

	out, errs, code := runBinary(t, root, "", "check")
	want := fmt.Sprintf("AGENTS.md:%d:1: error: Codex loads at most 32 KiB of AGENTS.md files", cutLine)
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("check: exit %d, want 1 and %q\n%s%s", code, want, out, errs)
	}
	if n := strings.Count(out, "[load-budget]"); n != 1 {
		t.Errorf("check reports %d load-budget findings, want 1:\n%s", n, out)
	}

	out, _, _ = runBinary(t, root, "", "check", "--format", "sarif")
	if !strings.Contains(out, `"ruleId": "load-budget"`) || !strings.Contains(out, `"uri": "AGENTS.md"`) {
		t.Errorf("SARIF lacks the finding on AGENTS.md:\n%.2000s", out)
	}

	out, errs, code = runBinary(t, root, "", "budget", "--json")
	if code != 0 {
		t.Fatalf("budget: exit %d: %s", code, errs)
	}
	var rep struct {
		Agents []struct {
			Agent string
			Files []struct {
				Path       string
				ImportedBy string
			}
			Limits []struct {
				Cut *struct {
					Path    string
					Line    int
					Dropped int
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("budget --json: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, a := range rep.Agents {
		seen[a.Agent] = true
		switch a.Agent {
		case "codex":
			if len(a.Limits) != 1 || a.Limits[0].Cut == nil || a.Limits[0].Cut.Path != "AGENTS.md" || a.Limits[0].Cut.Line != cutLine || a.Limits[0].Cut.Dropped != dropped {
				t.Errorf("codex's limit cut: %+v, want a cut at AGENTS.md:%d dropping %d lines", a.Limits[0].Cut, cutLine, dropped)
			}
		case "claude":
			if len(a.Files) != 2 || a.Files[1].Path != ".memory/security.md" || a.Files[1].ImportedBy != "CLAUDE.md" {
				t.Errorf("claude loads %+v, want CLAUDE.md and the memory file it imports", a.Files)
			}
		}
	}
	if !seen["codex"] || !seen["claude"] || !seen["copilot"] {
		t.Errorf("budget judged %v, want claude, codex and copilot (init wrote their files)", seen)
	}

	// check AGENTS.md: the reference rules on its bullets, in git; a path
	// this repository's history never had is information.
	lsptest.AppendInPlace(t, agents, "- The release script is `scripts/release.sh`.\n")
	out, errs, code = runBinary(t, root, "", "check", "AGENTS.md")
	if code != 1 || !strings.Contains(out, "info: scripts/release.sh does not exist, and no commit read shows it ever did [stale-path]") || strings.Contains(out, ".memory/") {
		t.Errorf("check AGENTS.md: exit %d, want 1 (its load-budget error) and the missing path as information, nothing of .memory/\n%s%s", code, out, errs)
	}

	// cross-file, switched on: the entry that names another package manager
	// than AGENTS.md, with AGENTS.md's line as related information.
	if _, errs, code := runBinary(t, root, "", "store", "--category", "Decision", "Use pnpm for installs."); code != 0 {
		t.Fatalf("store: %s", errs)
	}
	lsptest.AppendInPlace(t, agents, "- Install dependencies with `npm install`.\n")
	data, err = os.ReadFile(agents)
	if err != nil {
		t.Fatal(err)
	}
	npmLine := bytes.Count(data, []byte("\n")) // the line just appended, 1-based
	cf := filepath.Join(t.TempDir(), "cf.json")
	if err := os.WriteFile(cf, []byte(`{"rules": {"cross-file": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, _ = runBinary(t, root, "", "check", "--config", cf, "--format", "json")
	var doc struct {
		Findings []struct {
			Path, Code, Message string
			Related             []struct {
				Path string
				Line int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("check --format json: %v\n%s%s", err, out, errs)
	}
	found := false
	for _, f := range doc.Findings {
		if f.Code == "cross-file" {
			found = true
			if f.Path != filepath.Join(".memory", "decisions.md") || len(f.Related) != 1 || f.Related[0].Path != "AGENTS.md" || f.Related[0].Line != npmLine {
				t.Errorf("cross-file finding: %+v, want on decisions.md with AGENTS.md:%d related", f, npmLine)
			}
		}
	}
	if !found {
		t.Errorf("no cross-file finding:\n%s", out)
	}

	for _, settings := range []string{`{"agents": []}`, `{"agents": ["claude"]}`, `{"rules": {"load-budget": false}}`} {
		cfg := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(cfg, []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errs, code := runBinary(t, root, "", "check", "--config", cfg); code != 0 || strings.Contains(out, "load-budget") {
			t.Errorf("check with %s: exit %d, want 0 and no load-budget\n%s%s", settings, code, out, errs)
		}
	}
}

// TestE2EBudgetWithoutMemory: the agents' own files have budgets before a
// project keeps any memory: budget in a git repository holding only an
// AGENTS.md measures it, and says nothing of memory files.
func TestE2EBudgetWithoutMemory(t *testing.T) {
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Agents\n\n- Run the tests.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runBinary(t, root, "", "budget")
	if code != 0 || !strings.Contains(out, "Codex loads at session start 27 bytes, 3 lines") || strings.Contains(out, "Memory files") {
		t.Errorf("budget without .memory/: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory")); err == nil {
		t.Error("budget created .memory/")
	}
}

// TestE2ENestedAgentsFile: a nested AGENTS.md, however deep
// (apps/site/web/ui/AGENTS.md), is judged against the whole repository it
// lives in, not its own folder alone; a path it cites from its own folder
// (`src/app.ts`) is no stale path even where the root once had one and
// lost it, a path from the root that moved away is.
func TestE2ENestedAgentsFile(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	git("init", "-q")
	if _, errs, code := runBinary(t, root, "", "store", "--category", "Instruction", "Use pnpm for installs."); code != 0 {
		t.Fatalf("store: exit %d: %s", code, errs)
	}
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nested := "apps/site/web/ui/"
	write("src/app.ts", "x\n")
	write(nested+"src/pages.ts", "export const pages = [\"home\", \"about\"];\n")
	git("add", "-A")
	git("commit", "-qm", "the root's app")
	git("rm", "-q", "src/app.ts")
	git("mv", nested+"src/pages.ts", nested+"src/views.ts")
	write("src/server.ts", "x\n")
	write(nested+"src/app.ts", "x\n")
	write(nested+"src/router.ts", "x\n")
	write(nested+"AGENTS.md", "# UI\n\n- The entry point is `src/app.ts`.\n- Routes live in `"+nested+"src/router.ts`.\n- Pages live in `"+nested+"src/pages.ts`.\n")
	git("add", "-A")
	git("commit", "-qm", "the UI")
	out, errs, code := runBinary(t, root, "", "check", filepath.FromSlash(nested+"AGENTS.md"))
	want := nested + "AGENTS.md:5:18: warning: " + nested + "src/pages.ts does not exist; renamed to " + nested + "src/views.ts in "
	if code != 0 || !strings.Contains(out, want) || strings.Count(out, "[stale-path]") != 1 || strings.Contains(errs, "not checked") {
		t.Errorf("check %sAGENTS.md: exit %d, want 0 and only %q\n%s%s", nested, code, want, out, errs)
	}
}
