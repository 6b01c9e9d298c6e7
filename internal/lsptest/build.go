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
func RunWithBinary(m *testing.M, binary *string) int {
	dir, err := os.MkdirTemp("", "memory-lsp-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "lsptest:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	*binary = filepath.Join(dir, "memory-lsp")
	build := exec.Command("go", "build", "-o", *binary, "github.com/memory-lsp/memory-lsp/cmd/memory-lsp")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "lsptest: building memory-lsp:", err)
		return 2
	}
	return m.Run()
}
