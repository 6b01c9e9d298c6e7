package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// binary is the memory-lsp built once per test run, so end-to-end tests run
// the real program as users and agents do.
var binary string

func TestMain(m *testing.M) { os.Exit(lsptest.RunWithBinary(m, &binary)) }

func runBinary(t *testing.T, dir string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// newGitRoot is a new git repository for a test to run the binary in, as
// users work: outside one, the store, check and the references read
// another tree. Without git the test is skipped, saying why.
func newGitRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s (the binary runs in a git repository, as users work)", err, out)
	}
	return root
}

// writeMemory writes a file of root's .memory/ folder, making the folder,
// and returns the file's path.
func writeMemory(t *testing.T, root, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, ".memory", name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBinaryRoundTrip(t *testing.T) {
	root := t.TempDir()
	if _, errs, code := runBinary(t, root, "", "init"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errs)
	}
	for _, name := range []string{"instructions.md", "quirks.md", "preferences.md", "decisions.md", "security.md"} {
		if _, err := os.Stat(filepath.Join(root, ".memory", name)); err != nil {
			t.Errorf("init did not create %s: %v", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, ".github", "copilot-instructions.md")); err != nil || !bytes.Contains(b, []byte("<!-- memory-lsp:start -->")) {
		t.Errorf("init did not write the pointer block: %v", err)
	}
	// A subfolder finds the workspace by walking up.
	sub := filepath.Join(root, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runBinary(t, sub, "", "store", "--category", "Quirk", "--slug", "gradle-leak", "The Gradle daemon leaks memory after about 20 builds.")
	if code != 0 || out != "Stored in quirks.md: \"The Gradle daemon leaks memory after about 20 builds.\"\n" {
		t.Fatalf("store: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, _, code = runBinary(t, sub, "", "query", "--json", "gradle", "memory")
	var q struct {
		Results []struct {
			File, Slug, Content string
			Line                int
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &q) != nil || len(q.Results) != 1 || q.Results[0].Slug != "gradle-leak" || q.Results[0].File != "quirks.md" || q.Results[0].Line != 3 {
		t.Fatalf("query: exit %d, %s", code, out)
	}
	if _, _, code := runBinary(t, root, "", "check"); code != 0 {
		t.Errorf("check of a clean workspace: exit %d", code)
	}
	if _, errs, code := runBinary(t, root, "", "store", "--category", "Nope", "x y z"); code != 2 || !strings.Contains(errs, `unknown category: "Nope"`) {
		t.Errorf("bad category: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runBinary(t, root, "", "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command: exit %d, stderr %q", code, errs)
	}
	if out, _, code := runBinary(t, root, "", "version"); code != 0 || !strings.HasPrefix(out, "memory-lsp ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

// TestBinaryConcurrentIdenticalStores runs four real processes storing the
// same text at once: exactly one entry may result.
func TestBinaryConcurrentIdenticalStores(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, codes[i] = runBinary(t, root, "", "store", "--category", "Decision", "Ship the ledger on Postgres 16.")
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 {
			t.Errorf("process %d exited %d", i, c)
		}
	}
	b, err := os.ReadFile(filepath.Join(root, ".memory", "decisions.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "Ship the ledger on Postgres 16."); n != 1 {
		t.Errorf("%d copies of the entry, want 1:\n%s", n, b)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory", ".lock")); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
}
