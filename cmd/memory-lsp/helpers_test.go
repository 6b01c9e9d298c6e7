package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/txtar"
)

// readFixture reads the txtar archive at path and returns it with path made
// absolute (the fixture tests change directory before writing it back).
func readFixture(t *testing.T, path string) (string, *txtar.Archive) {
	t.Helper()
	path, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, txtar.Parse(data)
}

// writeTestFile writes data to p, creating the folders above it.
func writeTestFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
