package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestBlameSince: lines as the ref held them are not Since, the line a
// later commit wrote carries that commit's author, a line of the work tree
// only is not committed, and a file git does not track has no origins; the
// ref is resolved once, and a bad ref or a folder outside git say so.
func TestBlameSince(t *testing.T) {
	ctx := context.Background()
	g := gittest.New(t)
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Old.\n"})
	g.Commit("2024-01-01", "base")
	g.Git("tag", "base")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Old.\n- By the agent.\n"})
	g.CommitBy("2024-02-01", "agent", "Coding Agent <agent@example.com>")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Old.\n- By the agent.\n- Not committed.\n", ".memory/new.md": "- New.\n"})
	dir := filepath.Join(g.Dir, ".memory")

	commit, err := GitCommit(ctx, dir, "base")
	if err != nil || len(commit) != 40 {
		t.Fatalf("GitCommit(base) = %q, %v", commit, err)
	}
	got, err := BlameSince(ctx, dir, "decisions.md", commit)
	if err != nil || len(got) != 4 {
		t.Fatalf("BlameSince = %+v, %v", got, err)
	}
	if got[0].Since || got[1].Since {
		t.Errorf("lines the ref held are Since: %+v", got[:2])
	}
	if a := got[2]; !a.Since || !a.Committed || a.Author != "Coding Agent" || a.Email != "agent@example.com" || !a.When.Equal(gittest.Day("2024-02-01")) || len(a.Commit) != 7 {
		t.Errorf("the agent's line: %+v", a)
	}
	if u := got[3]; !u.Since || u.Committed || u.Author != "" {
		t.Errorf("the line not committed: %+v", u)
	}
	if o, err := BlameSince(ctx, dir, "new.md", commit); o != nil || err != nil {
		t.Errorf("untracked file: %+v, %v; want nil", o, err)
	}
	if old, ok, err := FileAt(ctx, dir, "decisions.md", commit, 1<<20); string(old) != "# Decisions\n- Old.\n" || !ok || err != nil {
		t.Errorf("FileAt(decisions.md) = %q, %v, %v", old, ok, err)
	}
	if _, ok, err := FileAt(ctx, dir, "new.md", commit, 1<<20); ok || err != nil {
		t.Errorf("FileAt(new.md) = %v, %v; want not there", ok, err)
	}
	if _, ok, err := FileAt(ctx, dir, "decisions.md", commit, 4); ok || err == nil || !strings.Contains(err.Error(), "over the 4") {
		t.Errorf("FileAt over its limit = %v, %v; want an error naming the size", ok, err)
	}
	if _, err := GitCommit(ctx, dir, "--output=x"); err == nil || !strings.Contains(err.Error(), `"--output=x"`) {
		t.Errorf("a ref git does not know: %v", err)
	}
	if _, err := GitCommit(ctx, t.TempDir(), "main"); !errors.Is(err, ErrNoGit) {
		t.Errorf("outside git: %v, want ErrNoGit", err)
	}
}
