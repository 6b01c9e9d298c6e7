package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

var projectTree = map[string]string{
	".gitignore":              "dist/\n*.log\n!keep.log\n",
	"src/auth/session.ts":     "x",
	"src/app.ts":              "x",
	"docs/adr/0001.md":        "x",
	"web/.gitignore":          "cache/\n",
	"web/package.json":        "{}",
	"dist/bundle.js":          "ignored",
	"debug.log":               "ignored",
	"keep.log":                "kept",
	".memory/instructions.md": "- Run the tests.\n",
}

func TestProjectInGit(t *testing.T) {
	g := gittest.New(t)
	top := g.Dir
	g.Write(projectTree)
	g.Commit("", "start")
	g.Write(map[string]string{"src/new.ts": "untracked but not ignored"})
	if err := os.Remove(filepath.Join(top, "src", "app.ts")); err != nil {
		t.Fatal(err)
	}

	p, err := OpenProject(context.Background(), filepath.Join(top, "src", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Git || p.Top != g.Top() {
		t.Errorf("Git=%v Top=%s, want git at %s", p.Git, p.Top, top)
	}
	// src/app.ts, deleted from the work tree but not from the index, is
	// listed; Stat, which asks the disk, says it is gone.
	want := []string{".gitignore", "docs/adr/0001.md", "keep.log", "src/app.ts", "src/auth/session.ts", "src/new.ts", "web/.gitignore", "web/package.json"}
	if !slices.Equal(p.Files, want) {
		t.Errorf("Files = %q\nwant    %q", p.Files, want)
	}
	if _, ok := p.Stat("src/app.ts"); ok {
		t.Error("Stat(src/app.ts): a file deleted from the work tree exists")
	}
	checkStatAndIgnore(t, p)
}

func TestProjectWithoutGit(t *testing.T) {
	root := t.TempDir()
	gittest.WriteFiles(t, root, projectTree)
	p, err := OpenProject(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if p.Git || p.Truncated {
		t.Errorf("Git=%v Truncated=%v, want a full walk", p.Git, p.Truncated)
	}
	want := []string{".gitignore", "docs/adr/0001.md", "keep.log", "src/app.ts", "src/auth/session.ts", "web/.gitignore", "web/package.json"}
	if !slices.Equal(p.Files, want) {
		t.Errorf("Files = %q\nwant    %q", p.Files, want)
	}
	checkStatAndIgnore(t, p)
}

func checkStatAndIgnore(t *testing.T, p *Project) {
	t.Helper()
	for _, c := range []struct {
		path       string
		isDir, ok  bool
		ignored    bool
		ignoredDir bool
	}{
		{path: "src/auth/session.ts", ok: true},
		{path: "src/auth", isDir: true, ok: true},
		{path: "src/auth/", isDir: true, ok: true},
		{path: "docs/adr/", isDir: true, ok: true},
		{path: "src/gone.ts"},
		{path: "dist/bundle.js", ok: true, ignored: true}, // on disk, though ignored
		{path: "dist/never-built.js", ignored: true},
		{path: "dist", ignoredDir: true}, // on disk, but holding only ignored files
		{path: "logs/today.log", ignored: true},
		{path: "keep.log", ok: true},
		{path: "web/cache/x.json", ignored: true},
		{path: "cache/x.json"},
		{path: ".memory/instructions.md", ok: true},
		{path: "../outside"},
		{path: "/etc/passwd"},
	} {
		isDir, ok := p.Stat(c.path)
		if isDir != c.isDir || ok != c.ok {
			t.Errorf("Stat(%q) = %v, %v; want %v, %v", c.path, isDir, ok, c.isDir, c.ok)
		}
		if got := p.Ignored(c.path, false); got != c.ignored {
			t.Errorf("Ignored(%q) = %v, want %v", c.path, got, c.ignored)
		}
		if c.ignoredDir && !p.Ignored(c.path, true) {
			t.Errorf("Ignored(%q, dir) = false, want true", c.path)
		}
	}
}

// A workspace below the git top level: files are relative to the top, and
// RootRel says where the workspace sits.
func TestProjectWorkspaceBelowTop(t *testing.T) {
	g := gittest.New(t)
	top := g.Dir
	g.Write(map[string]string{"go.mod": "module x\n", "svc/api/main.go": "package main\n", "svc/api/.memory/quirks.md": "- Slow.\n"})
	p, err := OpenProject(context.Background(), filepath.Join(top, "svc", "api"))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.RootRel(); got != "svc/api" {
		t.Errorf("RootRel = %q, want svc/api", got)
	}
	if want := []string{"go.mod", "svc/api/main.go"}; !slices.Equal(p.Files, want) {
		t.Errorf("Files = %q, want %q", p.Files, want)
	}
	if _, err := p.ReadFile("go.mod"); err != nil {
		t.Errorf("ReadFile(go.mod): %v", err)
	}
	if _, err := p.ReadFile("../outside"); err == nil {
		t.Error("ReadFile read a path that is not a file of the project")
	}
}

// A rename, a rename of the renamed file, and a deletion, read from git's
// history: each old path says where it went, or that it is gone, and in
// which commit.
func TestProjectMoves(t *testing.T) {
	g := gittest.New(t)
	top := g.Dir
	g.Write(map[string]string{"src/auth/session.ts": "export const session = 1;\n", "old/util.go": "package util\n", ".memory/decisions.md": "- x\n"})
	g.Commit("", "start")
	g.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts")
	g.Commit("", "rename")
	if err := os.MkdirAll(filepath.Join(top, "lib", "auth"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("mv", "src/auth/sessions.ts", "lib/auth/sessions.ts")
	g.Commit("", "move")
	g.Git("rm", "-q", "old/util.go")
	g.Commit("", "delete")

	p, err := OpenProject(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	moves := p.Moves(context.Background(), 100)
	for old, want := range map[string]string{"src/auth/session.ts": "lib/auth/sessions.ts", "src/auth/sessions.ts": "lib/auth/sessions.ts", "old/util.go": ""} {
		m, ok := moves[old]
		if !ok || m.New != want || len(m.Commit) < 4 {
			t.Errorf("moves[%q] = %+v, %v; want New %q with a commit", old, m, ok, want)
		}
	}
	if _, ok := moves["lib/auth/sessions.ts"]; ok {
		t.Error("the current path is listed as moved")
	}
	if got := p.Moves(context.Background(), 1); len(got) != 1 || got["old/util.go"].New != "" {
		t.Errorf("depth 1 sees %v, want only the deletion", got)
	}
}

// TestGitMayFind: git is asked only where it may find a repository: below
// a .git folder or file, inside a bare repository, or with GIT_DIR set; a
// folder with none of these above it lists without git, as a failed git
// would have made it.
func TestGitMayFind(t *testing.T) {
	base := t.TempDir()
	if gitMayFind(base) {
		t.Skip("the temp folder is inside a repository")
	}
	deep := filepath.Join(base, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if gitMayFind(deep) {
		t.Error("a folder with no repository above it")
	}
	t.Setenv("GIT_DIR", filepath.Join(base, "elsewhere"))
	if !gitMayFind(deep) {
		t.Error("GIT_DIR is set")
	}
	t.Setenv("GIT_DIR", "")
	if err := os.WriteFile(filepath.Join(base, "a", ".git"), []byte("gitdir: ../x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !gitMayFind(deep) {
		t.Error("a .git file two folders above")
	}
	bare := filepath.Join(t.TempDir(), "repo.git")
	if err := os.MkdirAll(filepath.Join(bare, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !gitMayFind(filepath.Join(bare, "sub")) {
		t.Error("inside a bare repository")
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(deep, link); err != nil {
		t.Fatal(err)
	}
	if !gitMayFind(link) {
		t.Error("a symlink to a folder below a .git file")
	}
}

// TestSameHistory: the history's key moves with every commit HEAD names, and
// with a deepened shallow clone under the same HEAD; it is the same before
// the first commit, and in a linked worktree it is that worktree's HEAD.
func TestSameHistory(t *testing.T) {
	ctx := context.Background()
	g := gittest.New(t)
	open := func(dir string) *Project {
		t.Helper()
		p, err := OpenProject(ctx, dir)
		if err != nil || !p.Git {
			t.Fatalf("OpenProject(%s): git %v, %v", dir, p != nil && p.Git, err)
		}
		return p
	}
	unborn := open(g.Dir)
	if !open(g.Dir).SameHistory(unborn) || unborn.Moves(ctx, 10) != nil {
		t.Error("before the first commit: another history, or moves")
	}
	g.Write(map[string]string{"a.txt": "a\n"})
	g.Commit("2024-01-01", "one")
	first := open(g.Dir)
	if first.SameHistory(unborn) {
		t.Error("the first commit: the same history")
	}
	g.Write(map[string]string{"b.txt": "b\n"})
	g.Commit("2024-01-02", "two")
	g.Write(map[string]string{"c.txt": "c\n"})
	g.Commit("2024-01-03", "three")
	second := open(g.Dir)
	if second.SameHistory(first) || !open(g.Dir).SameHistory(second) {
		t.Error("a commit: the same history, or a listing at the same commit another")
	}
	// A commit made and undone: HEAD is back, but a blame taken in
	// between read the undone commit (the red team's "commit, then reset
	// --soft HEAD~1").
	g.Write(map[string]string{"d.txt": "d\n"})
	g.Commit("2024-01-04", "four")
	g.Git("reset", "-q", "--soft", "HEAD~1")
	undone := open(g.Dir)
	if undone.SameHistory(second) {
		t.Error("a commit made and undone: the same history")
	}
	// the moves (the CLI keeps them between runs under history) are
	// HEAD's commit's: a move of HEAD back to it does not void them
	if undone.history != second.history {
		t.Error("a commit made and undone: the moves' key moved")
	}
	second = undone

	clone := filepath.Join(t.TempDir(), "clone")
	g.Git("clone", "-q", "--depth", "1", "file://"+g.Dir, clone)
	shallow := open(clone)
	g.Git("-C", clone, "fetch", "-q", "--deepen", "1")
	if open(clone).SameHistory(shallow) {
		t.Error("a shallow clone deepened: the same history")
	}

	wt := filepath.Join(t.TempDir(), "wt")
	g.Git("worktree", "add", "-q", "--detach", wt, "HEAD~1")
	if linked := open(wt); linked.SameHistory(second) || linked.Top == second.Top {
		t.Error("a linked worktree at another commit: the main one's history")
	}
}
