package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
)

// TestVoidsRepo: which changes to the code void a folder's repository.
func TestVoidsRepo(t *testing.T) {
	root := t.TempDir()
	gitDir := filepath.Join(root, ".git")
	index := filepath.Join(gitDir, "index")
	if err := os.MkdirAll(gitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFolder(filepath.Join(root, ".memory"), filepath.Join(root, ".memory"))
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	if voidsRepo(f, at("src/auth/session.ts"), fileDeleted) {
		t.Error("a folder whose repository was never built voids it")
	}
	f.scope.Store(findScope(root))
	f.repo.Store(&repoState{repo: &fakeRepo{root: root, Repo: refstest.Repo{Ignore: []string{"node_modules/", "dist/"}}}, git: statGit(gitDir)})
	in := &interest{paths: map[string]bool{}, names: map[string]bool{"session.ts": true}}
	in.addPath("src/auth/session.ts")
	f.interest.Store(in)
	for _, tc := range []struct {
		path string
		ch   fileChange
		want bool
	}{
		{"src/auth/session.ts", fileDeleted, true},  // the cited file
		{"src/auth/session.ts", fileCreated, true},  // back
		{"src/auth/session.ts", fileChanged, false}, // its content is never judged
		{"src", fileDeleted, true},                  // a folder of it
		{"lib/session.ts", fileCreated, true},       // a bare name's file
		{"README.md", fileCreated, true},            // in the root: is there code?
		{"other/x.go", fileCreated, false},          // nothing cited there
		{"web/package.json", fileChanged, true},     // a manifest
		{"web/Dockerfile.dev", fileChanged, true},
		{"deploy/compose.prod.yaml", fileCreated, true},
		{".gitignore", fileChanged, true},
		{"node_modules/left-pad/package.json", fileCreated, false}, // ignored
		{"dist/session.ts", fileCreated, false},
		{".memory/decisions.md", fileChanged, false}, // the memory watcher's
		{".memory", fileCreated, false},
		{".git/objects/ab", fileCreated, false},
		{".git/index", fileChanged, false}, // the same as when built
		{"src/auth/session.ts", 0, false},  // a chmod
	} {
		if got := voidsRepo(f, at(tc.path), tc.ch); got != tc.want {
			t.Errorf("%s (change %d) voids = %v, want %v", tc.path, tc.ch, got, tc.want)
		}
	}
	if voidsRepo(f, filepath.Join(t.TempDir(), "Makefile"), fileChanged) {
		t.Error("a manifest of another repository voids this one")
	}
	if err := os.WriteFile(index, []byte("two, after git mv"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !voidsRepo(f, index, fileChanged) {
		t.Error("a changed git index does not void the repository")
	}
}

// TestFindScope: the git folder of a work tree, and of a linked worktree
// (a .git file naming it), found from a root below the top level.
func TestFindScope(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "services", "api")
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if sc := findScope(root); sc.root != root || sc.top != top || sc.gitDir != filepath.Join(top, ".git") {
		t.Errorf("scope = %+v", sc)
	}
	linked := t.TempDir()
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: ../main/.git/worktrees/linked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(linked), "main", ".git", "worktrees", "linked")
	if sc := findScope(linked); sc.top != linked || sc.gitDir != want {
		t.Errorf("linked worktree scope = %+v, want git dir %s", sc, want)
	}
}
