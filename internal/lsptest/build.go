package lsptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RunWithBinary builds cmd/memory-lsp once into a temporary folder, stores
// its path in *binary, runs the tests and removes the folder: the TestMain of
// every package whose tests run the real program, as users and editors do.
// MEMORY_LSP_BINARY, when set, names a binary to run instead (another
// build, for benchmarks of before and after in the same run).
//
// What the program keeps between runs (the query index) goes into a
// temporary folder too, removed at the end (MEMORY_LSP_CACHE), never into
// the user's cache folder; a test of where it goes by default sets its own.
func RunWithBinary(m *testing.M, binary *string) int {
	cache, err := os.MkdirTemp("", "memory-lsp-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, "lsptest:", err)
		return 2
	}
	defer os.RemoveAll(cache)
	if os.Getenv("MEMORY_LSP_CACHE") != "off" {
		os.Setenv("MEMORY_LSP_CACHE", cache)
	}
	if b := os.Getenv("MEMORY_LSP_BINARY"); b != "" {
		*binary = b
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "memory-lsp-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "lsptest:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	*binary = filepath.Join(dir, "memory-lsp")
	build := exec.Command("go", "build", "-o", *binary, "github.com/memory-lsp/memory-lsp/cmd/memory-lsp")
	// Static, as the README installs it: what users run is what is tested.
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "lsptest: building memory-lsp:", err)
		return 2
	}
	return m.Run()
}
