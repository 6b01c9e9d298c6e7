package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestQueryPassesByAFilePastTheLineLimit: a file past the line limit but
// within the size limit is read by no reader (check reports it, list shows
// none of its entries, stores are refused), and query, with its index and
// without, finds nothing in it either: every reader agrees on what is
// stored (the red team found the query reading it, issue 26).
func TestQueryPassesByAFilePastTheLineLimit(t *testing.T) {
	longtest.Skip(t)
	root := newGitRoot(t)
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := 0; memfile.Lines([]byte(b.String())) <= memfile.MaxLines; i++ {
		fmt.Fprintf(&b, "- Entry %07d uses the ledger.\n", i)
	}
	text := b.String()
	if memfile.Fits([]byte(text)) || len(text) > memfile.MaxBytes {
		t.Fatalf("the file must be past the line limit only: %d bytes, %d lines", len(text), memfile.Lines([]byte(text)))
	}
	if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".memory", "decisions.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"query", "--no-cache", "0001234"}, {"query", "0001234"}, {"query", "0001234"}, {"list"}} {
		out, _ := exec.Command(binary, append(args, "--root", root)...).CombinedOutput()
		if strings.Contains(string(out), "uses the ledger") {
			t.Errorf("%s answers from a file past the line limit: %.300s", strings.Join(args, " "), out)
		}
	}
}
