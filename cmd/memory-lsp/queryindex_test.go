package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// runWithEnv runs the binary in dir with env added (a value "" removes
// the variable), returning stdout; it fails the test on a non-zero exit.
func runWithEnv(t *testing.T, dir string, env map[string]string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !hasKey(env, k) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		if v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return string(out)
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// indexFiles lists the query indexes under dir.
func indexFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "memory-lsp", "query", "*.idx"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestQueryIndexPlace: `query` keeps its index in the user's cache folder
// ($XDG_CACHE_HOME/memory-lsp/query), one file per memory folder, shared
// by a symlink to it, and writes nothing into .memory/; MEMORY_LSP_CACHE=off
// and --no-cache turn it off; an unusable cache folder changes nothing but
// speed. Every answer is the same.
func TestQueryIndexPlace(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(16, 13))
	for _, name := range []string{"decisions.md", "quirks.md", "instructions.md"} {
		var b strings.Builder
		b.WriteString("# Heading\n\n")
		for range 30 {
			fmt.Fprintf(&b, "- %s caches api responses.\n", lsptest.Sentence(r, false))
		}
		if err := os.WriteFile(filepath.Join(root, ".memory", name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "proj")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadDir(filepath.Join(root, ".memory"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	home := map[string]string{"XDG_CACHE_HOME": cache, "MEMORY_LSP_CACHE": ""}
	query := []string{"query", "--root", root, "caches api"}
	want := runWithEnv(t, root, map[string]string{"MEMORY_LSP_CACHE": "off"}, query...)
	if !strings.HasPrefix(want, "Found 10 memories:") {
		t.Fatalf("query: %s", want)
	}
	if got := indexFiles(t, cache); len(got) != 0 {
		t.Fatalf("an index was written with MEMORY_LSP_CACHE=off: %v", got)
	}
	if got := runWithEnv(t, root, home, append(query, "--no-cache")...); got != want {
		t.Fatalf("--no-cache: %s", got)
	}
	if got := indexFiles(t, cache); len(got) != 0 {
		t.Fatalf("an index was written with --no-cache: %v", got)
	}
	for range 3 {
		if got := runWithEnv(t, root, home, query...); got != want {
			t.Fatalf("with the index: %s\nwant %s", got, want)
		}
	}
	idx := indexFiles(t, cache)
	if len(idx) != 1 {
		t.Fatalf("indexes in the cache folder: %v, want one", idx)
	}
	if got := runWithEnv(t, link, home, "query", "--root", link, "caches api"); got != want {
		t.Fatalf("through a symlink: %s", got)
	}
	if got := indexFiles(t, cache); len(got) != 1 {
		t.Fatalf("a symlink to the workspace got an index of its own: %v", got)
	}
	after, err := os.ReadDir(filepath.Join(root, ".memory"))
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf(".memory/ holds %d names after the queries, %d before", len(after), len(before))
	}
	// A cache folder that is a file: nothing can be written, all the same.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := runWithEnv(t, root, map[string]string{"MEMORY_LSP_CACHE": blocked}, query...); got != want {
		t.Fatalf("with an unusable cache folder: %s", got)
	}
}
