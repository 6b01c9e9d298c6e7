package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelp: every way a person asks for help answers on stdout with exit 0,
// and a command's page has its usage, flags, examples, the exit codes and
// how to pass content that starts with "-".
func TestHelp(t *testing.T) {
	root := gitProject(t, true)
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"usage: memory-lsp <command>", "help <command>", "check ", "store ", "exit codes:"}},
		{[]string{"--help"}, []string{"usage: memory-lsp <command>"}},
		{[]string{"check", "--help"}, []string{"usage: memory-lsp check [--fix]", "--format F", "--since REF", "examples:", "memory-lsp check --fix", "exit codes: 0 success"}},
		{[]string{"check", "-h"}, []string{"usage: memory-lsp check"}},
		{[]string{"help", "store"}, []string{"usage: memory-lsp store --category C", "--slug S", "--root DIR", "-- ends the flags", `-- "-race slows the suite 10x."`, "decisions.md"}},
		{[]string{"query", "--limit", "3", "--help"}, []string{"usage: memory-lsp query", "four letters"}},
		{[]string{"help", "serve"}, []string{"--log-level L", "(default notice)", "--log-level debug logs every message"}},
		{[]string{"cleanup", "--help"}, []string{"--accept KINDS", "never changed"}},
	} {
		out, errs, code := runBinary(t, root, "", tt.args...)
		if code != 0 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: stdout lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
	if _, errs, code := runBinary(t, root, "", "help", "stor"); code != 2 || !strings.Contains(errs, `no help for "stor"`) {
		t.Errorf("help for an unknown command: exit %d, stderr %q", code, errs)
	}
	// After --, "--help" is content, not a request for help.
	out, errs, code := runBinary(t, root, "", "store", "--category", "Quirk", "--", "--help prints a page per command.")
	if code != 0 || !strings.Contains(out, `Stored in quirks.md: "--help prints a page per command."`) {
		t.Errorf("store -- --help…: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestTerminalNotice: `memory-lsp` typed in a terminal says what it is on
// stderr instead of waiting silently; started with a pipe, as editors do,
// it says nothing. The terminal is a pseudo-terminal made by script(1).
func TestTerminalNotice(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) is not installed (util-linux): no pseudo-terminal to run the binary in")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-qec", binary, os.DevNull)
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "this is the language server") || !strings.Contains(string(out), "memory-lsp help") {
		t.Errorf("in a terminal: %q, want the notice", out)
	}
	_, errs, _ := runBinary(t, filepath.Dir(binary), "", "serve")
	if strings.Contains(errs, "this is the language server") {
		t.Errorf("on a pipe: stderr %q has the terminal notice", errs)
	}
}
