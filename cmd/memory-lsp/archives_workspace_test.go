package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/fixture"
)

// archiveWorkspace is a git repository holding an archive's files, and a
// --config file with its settings, outside the repository.
type archiveWorkspace struct {
	fx     *fixture.Fixture
	root   string
	config string
}

func newArchiveWorkspace(t *testing.T, fx *fixture.Fixture) *archiveWorkspace {
	t.Helper()
	ws := &archiveWorkspace{fx: fx, root: t.TempDir(), config: filepath.Join(t.TempDir(), "settings.json")}
	if out, err := exec.Command("git", "init", "-q", ws.root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s (the archives run in a git repository, as users work)", err, out)
	}
	for _, f := range fx.Files {
		writeTestFile(t, ws.path(f.Path), f.Data)
	}
	settings, err := json.Marshal(fx.Settings)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, ws.config, settings)
	return ws
}

// path is the absolute path of a file the archive names.
func (ws *archiveWorkspace) path(rel string) string {
	return filepath.Join(ws.root, filepath.FromSlash(rel))
}

// rel is the archive's name of an absolute path in the workspace.
func (ws *archiveWorkspace) rel(t *testing.T, path string) string {
	t.Helper()
	rel, err := filepath.Rel(ws.root, path)
	if err != nil || !filepath.IsLocal(rel) {
		t.Fatalf("%s is not inside the workspace %s", path, ws.root)
	}
	return filepath.ToSlash(rel)
}

// check runs `memory-lsp check` with the archive's settings in the
// workspace and returns its standard output; exit codes other than 0 and 1
// (findings at error level) fail the test.
func (ws *archiveWorkspace) check(t *testing.T, args ...string) []byte {
	t.Helper()
	out, errs, code := runBinary(t, ws.root, "", append([]string{"check", "--config", ws.config}, args...)...)
	if code != exitOK && code != exitFindings {
		t.Fatalf("check %v: exit %d\n%s", args, code, errs)
	}
	return []byte(out)
}

// compareFiles checks each archive file's bytes in got (by archive path)
// against want/<path>: a changed file must match it, an unchanged one must
// have none.
func compareFiles(t *testing.T, fx *fixture.Fixture, got map[string][]byte) {
	t.Helper()
	for _, f := range fx.Files {
		name := "want/" + f.Path
		want, has := fx.Want(name)
		now, ok := got[f.Path]
		switch {
		case !ok:
			t.Errorf("%s: no text to compare", f.Path)
		case bytes.Equal(now, f.Data):
			if has {
				t.Errorf("%s is unchanged but the archive has %s", f.Path, name)
			}
		case !has:
			t.Errorf("%s changed, but the archive has no %s:\n%s", f.Path, name, fixture.Escape(now))
		case !bytes.Equal(fixture.Escape(now), want):
			t.Errorf("%s:\n--- got\n%s--- want\n%s", f.Path, fixture.Escape(now), want)
		}
	}
}

// readFiles reads every archive file of the workspace from disk.
func (ws *archiveWorkspace) readFiles(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range ws.fx.Files {
		b, err := os.ReadFile(ws.path(f.Path))
		if err != nil {
			t.Fatal(err)
		}
		out[f.Path] = b
	}
	return out
}
