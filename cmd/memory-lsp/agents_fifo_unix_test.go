//go:build unix

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckAgentsFileFIFO: a named pipe called AGENTS.md, given to check or
// beside .memory/, is never opened for reading (it would block forever): check
// says what it is not, and a whole-workspace check passes it by.
func TestCheckAgentsFileFIFO(t *testing.T) {
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if _, errs, code := runBinary(t, root, "", "init"); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "AGENTS.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, errs, code := runBinary(t, root, "", "check", "AGENTS.md")
	if code != exitError || !strings.Contains(errs, "not a regular file") {
		t.Errorf("check AGENTS.md (a FIFO): exit %d, %q", code, errs)
	}
	if out, errs, code := runBinary(t, root, "", "check"); code != 0 {
		t.Errorf("check beside a FIFO AGENTS.md: exit %d\n%s%s", code, out, errs)
	}
}
