package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

const noCodeNote = "memory: references to code (paths, commands, versions) were not checked: "

// TestNoCodeNote: through the binary, a workspace whose root holds nothing
// but .memory/ (in git or not) gets one note in check's closing lines, text
// and summary alike; beside code, or below a git top that holds code, none.
func TestNoCodeNote(t *testing.T) {
	memoryOnly := gitProject(t, true) // cmd/app is an empty folder: git lists no file there
	withCode := gitProject(t, true)
	writeTestFile(t, filepath.Join(withCode, "src", "app.ts"), []byte("export const app = 1;\n"))
	noGit := t.TempDir()
	writeTestFile(t, filepath.Join(noGit, ".memory", "decisions.md"), []byte("# Decisions\n\n- Use `src/app.ts`.\n"))
	below := gitProject(t, false)
	writeTestFile(t, filepath.Join(below, "go.mod"), []byte("module x\n"))
	writeTestFile(t, filepath.Join(below, "svc", "api", ".memory", "decisions.md"), []byte("# Decisions\n\n- Run the tests.\n"))

	for _, c := range []struct {
		name string
		dir  string
		note bool
	}{
		{"memory only, in git", memoryOnly, true},
		{"memory only, no git", noGit, true},
		{"beside code", withCode, false},
		{"below a git top with code", filepath.Join(below, "svc", "api"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runBinary(t, c.dir, "", "check")
			if code != 0 {
				t.Fatalf("check: exit %d: %s", code, stderr)
			}
			if got := strings.Count(stderr, noCodeNote); got != b2i(c.note) {
				t.Errorf("check: %d notes, want %d:\n%s", got, b2i(c.note), stderr)
			}
			if c.note && !strings.HasSuffix(stderr, noCodeNote+"the workspace holds nothing but .memory/\n") {
				t.Errorf("check: the note is not the last line:\n%s", stderr)
			}
			stdout, _, _ := runBinary(t, c.dir, "", "check", "--format", "summary")
			if got := strings.Count(stdout, noCodeNote); got != b2i(c.note) {
				t.Errorf("check --format summary: %d notes, want %d:\n%s", got, b2i(c.note), stdout)
			}
			stdout, _, _ = runBinary(t, c.dir, "", "check", "--format", "json")
			if strings.Contains(stdout, noCodeNote) {
				t.Errorf("check --format json carries the note on stdout:\n%s", stdout)
			}
		})
	}

	// Two workspaces in one check: the note names the one without code.
	_, stderr, _ := runBinary(t, withCode, "", "check", withCode, noGit)
	if want := noCodeNote + noGit + " holds nothing but .memory/\n"; strings.Count(stderr, noCodeNote) != 1 || !strings.Contains(stderr, want) {
		t.Errorf("two workspaces: want the one note %q in:\n%s", want, stderr)
	}
}

// TestNoCodeNoteFollowsTheRules: the note speaks for the reference rules,
// so a workspace that switches all three off gets none, in text and summary
// alike; one of them on is enough for it.
func TestNoCodeNoteFollowsTheRules(t *testing.T) {
	memoryOnly := gitProject(t, true)
	settings := t.TempDir() // not in the workspace: a file there would be code
	for _, c := range []struct {
		name     string
		settings string // "": no --config
		note     bool
	}{
		{"by default", "", true},
		{"stale-path off", `{"rules": {"stale-path": false}}`, true},
		{"all three off", `{"rules": {"stale-path": false, "stale-command": false, "version-drift": false}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var args []string
			if c.settings != "" {
				file := filepath.Join(settings, strings.ReplaceAll(c.name, " ", "-")+".json")
				writeTestFile(t, file, []byte(c.settings))
				args = []string{"--config", file}
			}
			_, stderr, code := runBinary(t, memoryOnly, "", append([]string{"check"}, args...)...)
			if code != 0 {
				t.Fatalf("check: exit %d: %s", code, stderr)
			}
			if got := strings.Count(stderr, noCodeNote); got != b2i(c.note) {
				t.Errorf("check: %d notes, want %d:\n%s", got, b2i(c.note), stderr)
			}
			stdout, _, _ := runBinary(t, memoryOnly, "", append([]string{"check", "--format", "summary"}, args...)...)
			if got := strings.Count(stdout, noCodeNote); got != b2i(c.note) {
				t.Errorf("check --format summary: %d notes, want %d:\n%s", got, b2i(c.note), stdout)
			}
		})
	}
}

// TestCheckFixBesideGit: check --fix in a git repository with code opens
// the project, fixes, and checks again without complaint.
func TestCheckFixBesideGit(t *testing.T) {
	repo := gittest.New(t)
	repo.Write(map[string]string{"src/app.ts": "x\n", ".memory/decisions.md": "# Decisions\n\n-   \n- App is `src/app.ts`.\n"})
	repo.Commit("", "start")
	_, stderr, code := runBinary(t, repo.Dir, "", "check", "--fix")
	if code != 0 || !strings.Contains(stderr, "fixed ") || strings.Contains(stderr, "not checked") {
		t.Errorf("check --fix: exit %d:\n%s", code, stderr)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
