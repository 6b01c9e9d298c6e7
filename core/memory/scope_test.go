package memory

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindRepoScope: the git folder of a work tree, and of a linked worktree
// (a .git file naming it), found from a root below the top level.
func TestFindRepoScope(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "services", "api")
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if sc := FindRepoScope(root); sc.Root != root || sc.Top != top || sc.GitDir != filepath.Join(top, ".git") {
		t.Errorf("scope = %+v", sc)
	}
	linked := t.TempDir()
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: ../main/.git/worktrees/linked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(linked), "main", ".git", "worktrees", "linked")
	if sc := FindRepoScope(linked); sc.Top != linked || sc.GitDir != want {
		t.Errorf("linked worktree scope = %+v, want git dir %s", sc, want)
	}
}
