package main

import (
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// TestBinaryStoreRefusesInvalidUTF8: `memory-lsp store` in a git repository
// refuses each content of poison.NotUTF8 a command line or stdin can carry
// (the bytes; the escapes are JSON's) with exit 1 and a message naming the
// byte, and leaves every file of .memory/ byte-identical.
func TestBinaryStoreRefusesInvalidUTF8(t *testing.T) {
	g := gittest.New(t)
	files := map[string]string{}
	for name, text := range poison.Seed {
		files[".memory/"+name] = text
	}
	g.Write(files)
	g.Commit("2025-01-02", "memory")
	for _, from := range []string{"argument", "stdin"} {
		poison.RefusedNotUTF8(t, g.Dir, func(row poison.NotText) (string, bool, bool) {
			if row.Raw == "" {
				return "", false, true
			}
			args, stdin := []string{"store", "--category", "Decision", row.Raw}, ""
			if from == "stdin" {
				args, stdin = []string{"store", "--category", "Decision", "-"}, row.Raw
			}
			stdout, stderr, code := runBinary(t, g.Dir, stdin, args...)
			return stdout + stderr, code == 1 && stdout == "", false
		})
	}
}
