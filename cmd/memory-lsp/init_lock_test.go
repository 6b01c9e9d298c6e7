package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitIgnoresTheLock (issue 28): in a git repository, init adds
// .memory/.lock to the .gitignore beside .memory and says so (HackLM's ADR
// 0018 asks projects that track .memory/ to ignore it), so that a lock held
// while someone commits is not committed; once, and not where the lock is
// ignored already.
func TestInitIgnoresTheLock(t *testing.T) {
	git := func(t *testing.T, dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	run := func(t *testing.T, root string) string {
		t.Helper()
		out, err := exec.Command(binary, "init", "--root", root).CombinedOutput()
		if err != nil {
			t.Fatalf("init: %v %s", err, out)
		}
		return string(out)
	}
	t.Run("added once", func(t *testing.T) {
		root := newGitRoot(t)
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := run(t, root); !strings.Contains(out, "added .memory/.lock to ") || !strings.Contains(out, ".gitignore (HackLM's lock file is never committed)") {
			t.Errorf("init does not say it ignored the lock:\n%s", out)
		}
		b, _ := os.ReadFile(filepath.Join(root, ".gitignore"))
		if !strings.HasPrefix(string(b), "node_modules/\n") || strings.Count(string(b), ".memory/.lock") != 1 {
			t.Errorf(".gitignore is %q", b)
		}
		if err := os.WriteFile(filepath.Join(root, ".memory", ".lock"), []byte(`{"pid":1,"ts":1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if st := git(t, root, "status", "--porcelain", "--untracked-files=all"); strings.Contains(st, ".lock") {
			t.Errorf("git status shows the lock:\n%s", st)
		}
		if out := run(t, root); strings.Contains(out, ".gitignore") {
			t.Errorf("a second init touched .gitignore again:\n%s", out)
		}
		if b2, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b2) != string(b) {
			t.Errorf("a second init changed .gitignore: %q", b2)
		}
	})
	t.Run("ignored already", func(t *testing.T) {
		root := newGitRoot(t)
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(".memory/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := run(t, root); strings.Contains(out, ".gitignore") {
			t.Errorf("init added a line to a .gitignore that ignores .memory/ whole:\n%s", out)
		}
	})
}
