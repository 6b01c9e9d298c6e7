package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of testdata/cli/*.txtar")

// TestCLIGolden runs every testdata/cli/*.txtar: the archive comment's first
// non-# line is the command line, the sections not under want/ are the
// workspace (stdin is standard input), and want/stdout, want/stderr,
// want/exit and want/<path> are what must come out.
func TestCLIGolden(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/cli/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no CLI fixtures found: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runGolden(t, path)
		})
	}
}

func runGolden(t *testing.T, path string) {
	path, ar := readFixture(t, path)
	args := commandLine(t, ar.Comment)
	repeat := repeats(t, ar.Comment)
	root := t.TempDir()
	var stdin []byte
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "want/"):
		case f.Name == "stdin":
			stdin = f.Data
		case repeat[f.Name] > 0:
			writeTestFile(t, filepath.Join(root, filepath.FromSlash(f.Name)), bytes.Repeat(f.Data, repeat[f.Name]))
		default:
			writeTestFile(t, filepath.Join(root, filepath.FromSlash(f.Name)), f.Data)
		}
	}
	t.Chdir(root)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &env{stdin: bytes.NewReader(stdin), stdout: &stdout, stderr: &stderr})
	got := map[string][]byte{
		"want/stdout": stdout.Bytes(),
		"want/stderr": stderr.Bytes(),
		"want/exit":   []byte(strconv.Itoa(code) + "\n"),
	}
	for i, f := range ar.Files {
		name, ok := strings.CutPrefix(f.Name, "want/")
		if !ok {
			continue
		}
		actual, known := got[f.Name]
		if !known {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
			if err != nil {
				actual = []byte("(missing: " + err.Error() + ")\n")
			} else {
				actual = b
			}
		}
		if *update {
			ar.Files[i].Data = actual
			continue
		}
		if !bytes.Equal(normalizeNL(actual), normalizeNL(f.Data)) {
			t.Errorf("%s differs\n--- got ---\n%s\n--- want ---\n%s", f.Name, actual, f.Data)
		}
	}
	if *update {
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// normalizeNL lets a section that holds nothing match empty output: txtar
// ends every section with a newline.
func normalizeNL(b []byte) []byte {
	return bytes.TrimSuffix(b, []byte("\n"))
}

// commandLine splits the first non-comment line of the archive comment into
// arguments, honouring double quotes. It must start with "memory-lsp".
// repeats reads the comment's "# repeat: PATH N" lines: the workspace
// file PATH holds its section N times over (a file past an agent's 32 KiB
// budget without 32 KiB in the archive).
func repeats(t *testing.T, comment []byte) map[string]int {
	out := map[string]int{}
	for _, line := range strings.Split(string(comment), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "# repeat:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		n, err := strconv.Atoi(f[len(f)-1])
		if len(f) != 2 || err != nil || n < 1 {
			t.Fatalf("%q: want # repeat: PATH N", line)
		}
		out[f[0]] = n
	}
	return out
}

func commandLine(t *testing.T, comment []byte) []string {
	for _, line := range strings.Split(string(comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		args, err := shellWords(line)
		if err != nil {
			t.Fatalf("command line %q: %v", line, err)
		}
		if len(args) == 0 || args[0] != "memory-lsp" {
			t.Fatalf("command line %q must start with memory-lsp", line)
		}
		return args[1:]
	}
	t.Fatal("fixture has no command line")
	return nil
}
