package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// historyRepo is a repository whose commits are dated: the first file at
// 2024-01-01, a rename on 2024-02-01, a deletion on 2024-03-01, and a
// memory file whose second line was committed on 2024-04-01 and whose third
// is not committed.
func historyRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	commit := func(date, msg string) {
		t.Helper()
		t.Setenv("GIT_AUTHOR_DATE", date)
		t.Setenv("GIT_COMMITTER_DATE", date)
		runGit(t, top, "commit", "-qm", msg)
	}
	writeTree(t, top, map[string]string{"src/a.go": "package a\n", "old.txt": "x\n", ".memory/decisions.md": "# Decisions\n"})
	runGit(t, top, "init", "-q")
	runGit(t, top, "add", "-A")
	commit("2024-01-01T00:00:00Z", "start")
	runGit(t, top, "mv", "src/a.go", "src/b.go")
	commit("2024-02-01T00:00:00Z", "rename")
	runGit(t, top, "rm", "-q", "old.txt")
	commit("2024-03-01T00:00:00Z", "delete")
	writeTree(t, top, map[string]string{".memory/decisions.md": "# Decisions\n- Use b.go.\n"})
	runGit(t, top, "add", "-A")
	commit("2024-04-01T00:00:00Z", "memory")
	writeTree(t, top, map[string]string{".memory/decisions.md": "# Decisions\n- Use b.go.\n- Not committed.\n", "notes.txt": "x\n"})
	return top
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestMovesCarryTheirTime(t *testing.T) {
	top := historyRepo(t)
	p, err := OpenProject(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	moves := p.Moves(context.Background(), 100)
	a, d := moves["src/a.go"], moves["old.txt"]
	if a.New != "src/b.go" || !a.When.Equal(day("2024-02-01")) {
		t.Errorf("src/a.go: %+v, want renamed to src/b.go on 2024-02-01", a)
	}
	if d.New != "" || !d.When.Equal(day("2024-03-01")) {
		t.Errorf("old.txt: %+v, want deleted on 2024-03-01", d)
	}
	if !(d.Seq < a.Seq) {
		t.Errorf("Seq %d (deletion) and %d (older rename): the newer must be lower", d.Seq, a.Seq)
	}
}

func TestBlame(t *testing.T) {
	top := historyRepo(t)
	p, err := OpenProject(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	times, err := p.Blame(context.Background(), ".memory/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{day("2024-01-01"), day("2024-04-01"), {}}
	if len(times) != len(want) {
		t.Fatalf("Blame = %v, want %v", times, want)
	}
	for i := range want {
		if !times[i].Equal(want[i]) {
			t.Errorf("line %d written %v, want %v", i+1, times[i], want[i])
		}
	}
	if _, err := p.Blame(context.Background(), "src/b.go"); err == nil {
		t.Error("blamed a file outside .memory")
	}
	writeTree(t, top, map[string]string{".memory/quirks.md": "- New.\n"})
	if _, err := p.Blame(context.Background(), ".memory/quirks.md"); err == nil {
		t.Error("blamed a file git does not track")
	}
}

func TestLastChange(t *testing.T) {
	top := historyRepo(t)
	p, err := OpenProject(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]time.Time{"src/b.go": day("2024-02-01"), "src": day("2024-02-01"), "": day("2024-04-01")} {
		commit, when, ok := p.LastChange(context.Background(), rel)
		if !ok || len(commit) < 4 || !when.Equal(want) {
			t.Errorf("LastChange(%q) = %q, %v, %v; want a commit on %v", rel, commit, when, ok, want)
		}
	}
	if _, _, ok := p.LastChange(context.Background(), "notes.txt"); ok {
		t.Error("a path no commit touched has a last change")
	}
}

func TestHistoryOutsideGit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "x", ".memory/decisions.md": "- x\n"})
	if err := os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: /nonexistent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := OpenProject(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if p.Git {
		t.Fatal("a broken .git was read as a work tree")
	}
	if m := p.Moves(context.Background(), 100); m != nil {
		t.Errorf("Moves = %v outside git", m)
	}
	if _, err := p.Blame(context.Background(), ".memory/decisions.md"); err == nil {
		t.Error("Blame outside git gave no error")
	}
	if _, _, ok := p.LastChange(context.Background(), "a.go"); ok {
		t.Error("LastChange outside git")
	}
}

// A rename onto a path that an older commit deleted leads to that path,
// not to the older deletion.
func TestMovesDoNotFollowOlderMoves(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	writeTree(t, top, map[string]string{"x.go": "package x\n", "a.go": "package a // a longer text so that git sees a rename\n"})
	runGit(t, top, "init", "-q")
	runGit(t, top, "add", "-A")
	runGit(t, top, "commit", "-qm", "start")
	runGit(t, top, "rm", "-q", "x.go")
	runGit(t, top, "commit", "-qm", "delete x")
	runGit(t, top, "mv", "a.go", "x.go")
	runGit(t, top, "commit", "-qm", "a becomes x")
	p, err := OpenProject(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Moves(context.Background(), 100)["a.go"]; m.New != "x.go" {
		t.Errorf("a.go: %+v, want renamed to x.go", m)
	}
}
