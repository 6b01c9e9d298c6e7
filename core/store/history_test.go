package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// historyRepo is a repository whose commits are dated: the first file at
// 2024-01-01, a rename on 2024-02-01, a deletion on 2024-03-01, and a
// memory file whose second line was committed on 2024-04-01 and whose third
// is not committed.
func historyRepo(t *testing.T) string {
	t.Helper()
	g := gittest.New(t)
	g.Write(map[string]string{"src/a.go": "package a\n", "old.txt": "x\n", ".memory/decisions.md": "# Decisions\n"})
	g.Commit("2024-01-01", "start")
	g.Git("mv", "src/a.go", "src/b.go")
	g.Commit("2024-02-01", "rename")
	g.Git("rm", "-q", "old.txt")
	g.Commit("2024-03-01", "delete")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Use b.go.\n"})
	g.Commit("2024-04-01", "memory")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Use b.go.\n- Not committed.\n", "notes.txt": "x\n"})
	return g.Dir
}

func TestMovesCarryTheirTime(t *testing.T) {
	top := historyRepo(t)
	p, err := OpenProject(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	moves := p.Moves(context.Background(), 100)
	a, d := moves["src/a.go"], moves["old.txt"]
	if a.New != "src/b.go" || !a.When.Equal(gittest.Day("2024-02-01")) {
		t.Errorf("src/a.go: %+v, want renamed to src/b.go on 2024-02-01", a)
	}
	if d.New != "" || !d.When.Equal(gittest.Day("2024-03-01")) {
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
	want := []time.Time{gittest.Day("2024-01-01"), gittest.Day("2024-04-01"), {}}
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
	gittest.WriteFiles(t, top, map[string]string{".memory/quirks.md": "- New.\n"})
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
	for rel, want := range map[string]time.Time{"src/b.go": gittest.Day("2024-02-01"), "src": gittest.Day("2024-02-01"), "": gittest.Day("2024-04-01")} {
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
	gittest.WriteFiles(t, root, map[string]string{"a.go": "x", ".memory/decisions.md": "- x\n"})
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
	g := gittest.New(t)
	g.Write(map[string]string{"x.go": "package x\n", "a.go": "package a // a longer text so that git sees a rename\n"})
	g.Commit("", "start")
	g.Git("rm", "-q", "x.go")
	g.Commit("", "delete x")
	g.Git("mv", "a.go", "x.go")
	g.Commit("", "a becomes x")
	p, err := OpenProject(context.Background(), g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Moves(context.Background(), 100)["a.go"]; m.New != "x.go" {
		t.Errorf("a.go: %+v, want renamed to x.go", m)
	}
}

// TestMovesCachedFollowHead: the moves kept in the cache folder are read
// back instead of the history while HEAD names the same commit (a file
// made to say otherwise is believed, which shows git was not asked), read
// anew by a project listed after HEAD moved, and never from a damaged or
// foreign file.
func TestMovesCachedFollowHead(t *testing.T) {
	ctx := context.Background()
	g := gittest.New(t)
	g.Write(map[string]string{"src/a.go": "package a\n", "old.txt": "x\n"})
	g.Commit("2024-01-01", "start")
	g.Git("mv", "src/a.go", "src/b.go")
	g.Git("rm", "-q", "old.txt")
	g.Commit("2024-02-01", "move")
	p, err := OpenProject(ctx, g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want := p.Moves(ctx, 100)
	if got := p.MovesCached(ctx, 100, dir); !reflect.DeepEqual(got, want) || len(want) != 2 {
		t.Fatalf("first read: %+v, want %+v", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "moves", "*"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	planted := map[string]Move{"planted.txt": {New: "elsewhere.txt", Commit: "abc1234", When: time.Unix(1700000000, 0), Seq: 1}, "no-time.txt": {Seq: 2}}
	if err := os.WriteFile(files[0], encodeMoves(movesKey(p.Top, p.history, 100), planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := p.MovesCached(ctx, 100, dir); !reflect.DeepEqual(got, planted) {
		t.Fatalf("same HEAD: %+v, want the kept moves %+v", got, planted)
	}
	if got := p.MovesCached(ctx, 50, dir); !reflect.DeepEqual(got, p.Moves(ctx, 50)) {
		t.Fatalf("another depth: %+v, want the history's", got)
	}
	g.Git("mv", "src/b.go", "src/c.go")
	g.Commit("2024-03-01", "move again")
	if got := p.Moves(ctx, 100); len(got) != 2 || got["src/b.go"].New != "" {
		t.Fatalf("the project listed before the commit: %+v, want the history as it was then", got)
	}
	if p, err = OpenProject(ctx, g.Dir); err != nil {
		t.Fatal(err)
	}
	want = p.Moves(ctx, 100)
	if got := p.MovesCached(ctx, 100, dir); !reflect.DeepEqual(got, want) || want["src/b.go"].New != "src/c.go" {
		t.Fatalf("after a commit: %+v, want %+v", got, want)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		c := slices.Clone(data)
		c[i] ^= 0x20
		if _, ok := decodeMoves(c, movesKey(p.Top, p.history, 100)); ok {
			t.Fatalf("a moves file with byte %d changed was read", i)
		}
	}
}

// TestFileHistory: HEAD's version and, newest first, the version each
// change found; a version over the limit, and the one before the commit
// that made the file, are nil; outside the file's changes nothing is read.
func TestFileHistory(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{"Makefile": "build:\n", "other.txt": "x\n"})
	g.Commit("2024-01-01", "start")
	g.Write(map[string]string{"Makefile": "build:\nlint:\n"})
	g.Commit("2024-02-01", "lint")
	g.Write(map[string]string{"other.txt": "y\n"})
	g.Commit("2024-02-15", "not the Makefile")
	g.Write(map[string]string{"Makefile": "build:\n" + strings.Repeat("#\n", 100)})
	g.Commit("2024-03-01", "drop lint, grow")
	p, err := OpenProject(context.Background(), g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := p.History(context.Background(), "Makefile", 10, 64, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if h.Head != nil {
		t.Errorf("HEAD's version is over the limit, read %q", h.Head)
	}
	if h, err := p.History(context.Background(), "Makefile", 10, 10, 1<<20); err != nil || len(h.Changes) != 3 ||
		!h.Changes[0].Unread || h.Changes[0].Before != nil || h.Changes[1].Unread || h.Changes[2].Unread || h.Changes[2].Before != nil {
		t.Errorf("with a limit of 10 bytes only the 13-byte version is unread: %+v, %v", h.Changes, err)
	}
	var got []string
	for _, c := range h.Changes {
		got = append(got, c.When.Format("2006-01-02")+" "+strings.ReplaceAll(string(c.Before), "\n", ";"))
	}
	want := []string{"2024-03-01 build:;lint:;", "2024-02-01 build:;", "2024-01-01 "}
	// (the oldest's Before is nil: that commit made the file)
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	if h, err := p.History(context.Background(), "Makefile", 1, 1<<20, 1<<20); err != nil || len(h.Changes) != 1 || !strings.HasPrefix(string(h.Head), "build:\n#") {
		t.Errorf("the last change only: %+v, %v", h, err)
	}
	if h, err := p.History(context.Background(), "no such file", 10, 1<<20, 1<<20); err != nil || h.Head != nil || len(h.Changes) != 0 {
		t.Errorf("a file no commit holds: %+v, %v", h, err)
	}
	// past total bytes read, the older changes are left out: HEAD (208
	// bytes) and the newest version (12) come to the budget
	if h, err := p.History(context.Background(), "Makefile", 10, 1<<20, 210); err != nil || len(h.Changes) != 1 || string(h.Changes[0].Before) != "build:\nlint:\n" {
		t.Errorf("within 210 bytes: %+v, %v; want HEAD and the newest change", h, err)
	}
}
