package repo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

var reopenQueries = []string{
	"src/auth/session.ts", "session.ts", "auth/session.ts", "src/auth/sessions.ts", "sessions.ts",
	"src/auth/login.ts", "login.ts", "src/auth", "auth", "src",
	"src/app.ts", "app.ts", "src/new/thing.ts", "thing.ts", "src/new", "new",
	"lib", "lib/a.go", "a.go", "lib/deep/b.go", "deep", "lib/auth/session.ts", "lib/auth",
	"docs/adr/0001.md", "0001.md", "adr", "docs",
	"dist/bundle.js", "keep.log", "debug.log", "web/cache/x.js", "cache/x.js", "web/build/out.js", "build/out.js",
	"scripts/old.sh", "old.sh", "Makefile", "web/package.json", "package.json", ".nvmrc",
	"src/crypto/keys.rs", "lib/crypto", "crypto",
}

// verdicts is everything a Repo answers about reopenQueries, as text.
func verdicts(t *testing.T, r rules.Repo, memFile string) []string {
	t.Helper()
	out := []string{fmt.Sprint("HasCode ", r.HasCode())}
	for _, q := range reopenQueries {
		isDir, ok := r.Stat(q)
		loc, lok := r.Locate(q)
		m, mok := r.Moved(q)
		c, when, cok := r.LastChange(q)
		out = append(out, fmt.Sprintf("%s: Stat %v %v Endings %v Ignored %v Locate %q %v Moved %+v %v LastChange %s %d %v",
			q, isDir, ok, r.Endings(q), r.Ignored(q), loc, lok, m, mok, c, when.Unix(), cok))
	}
	for _, tool := range []refs.Tool{refs.Make, refs.Npm} {
		for _, dir := range []string{"", "web", "lib"} {
			m, ok := r.Manifest(tool, dir)
			out = append(out, fmt.Sprintf("Manifest %s %q: %+v %v", tool, dir, m, ok))
		}
		for _, name := range []string{"storybook", "lint", "gen"} {
			out = append(out, fmt.Sprintf("ListedBelow %s %s: %v", tool, name, r.ListedBelow(tool, name)))
		}
	}
	for _, subject := range []string{"node", "go", "react"} {
		out = append(out, fmt.Sprintf("Pins %s: %+v", subject, r.Pins(subject)))
	}
	for line := 1; line <= 3; line++ {
		out = append(out, fmt.Sprintf("Written %d: %d", line, r.Written(memFile, line).Unix()))
	}
	return out
}

// TestReopenMatchesOpen applies changes to a real git repository one after
// another, each followed by Reopen, and holds every verdict (and the file
// list) of the reopened repository to those of one opened afresh:
// creations, deletions, git mv of a file and of a folder, commits, an
// amend, a branch switched to and back, a manifest and a pin file edited,
// .gitignore files written and removed, a file untracked and one
// force-added. The history's answers are kept exactly while HEAD names the
// same commit.
func TestReopenMatchesOpen(t *testing.T) {
	longtest.Skip(t)
	g := historyRepo(t)
	root := g.Top()
	memFile := filepath.Join(root, ".memory", "decisions.md")
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	g.Write(map[string]string{"src/app.ts": "x", "src/auth/session.ts": "export const s = 1; // long enough for git to see a rename, again\n", "keep.log": "kept", ".gitignore": "dist/\n*.log\n!keep.log\n"})
	g.Commit("2024-06-01", "more")
	remove := func(rel string) {
		t.Helper()
		if err := os.RemoveAll(at(rel)); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name string
		do   func()
		// moved: HEAD names another commit after it
		moved bool
	}{
		{"a file in a new folder", func() { g.Write(map[string]string{"src/new/thing.ts": "x"}) }, false},
		{"a tracked file deleted from the work tree", func() { remove("src/app.ts") }, false},
		{"git mv of a cited file", func() { g.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts") }, false},
		{"the move committed", func() { g.Commit("2024-07-01", "rename the session") }, true},
		{"the commit amended", func() { g.Git("commit", "-q", "--amend", "-m", "rename the session, amended") }, true},
		{"a manifest edited", func() {
			g.Write(map[string]string{"Makefile": ".PHONY: build lint\nbuild:\n\tgo build\nlint:\n\tgo vet\n"})
		}, false},
		{"a subproject's manifest", func() { g.Write(map[string]string{"web/package.json": `{"scripts": {"lint": "eslint"}}`}) }, false},
		{"a pin edited", func() { g.Write(map[string]string{".nvmrc": "20\n"}) }, false},
		{"the root .gitignore ignores the new folder", func() {
			g.Write(map[string]string{".gitignore": "dist/\n*.log\n!keep.log\nsrc/new/\n"})
		}, false},
		{"an untracked folder of files", func() {
			g.Write(map[string]string{"lib/a.go": "x", "lib/deep/b.go": "x", "lib/debug.log": "ignored"})
		}, false},
		{"a file kept out of the index", func() { g.Git("rm", "-q", "--cached", "keep.log") }, false},
		{"an ignored file forced into the index", func() {
			g.Write(map[string]string{"dist/bundle.js": "x"})
			g.Git("add", "-f", "dist/bundle.js")
		}, false},
		{"a folder removed", func() { remove("docs") }, false},
		{"a subproject's .gitignore written", func() {
			g.Write(map[string]string{"web/.gitignore": "build/\ncache/\n", "web/cache/x.js": "x", "web/build/out.js": "x"})
		}, false},
		{"everything committed", func() { g.Commit("2024-08-01", "all") }, true},
		// a move of HEAD, even to the commit it named, grows its reflog:
		// read again (a blame may have seen a commit since undone)
		{"a branch at the same commit", func() { g.Git("checkout", "-q", "-b", "side") }, true},
		{"git mv of a folder, committed on the branch", func() {
			g.Git("mv", "src/auth", "lib/auth")
			g.Commit("2024-09-01", "auth moves to lib")
		}, true},
		{"back to the first branch", func() { g.Git("checkout", "-q", "-") }, true},
		{"the branch merged", func() { g.Git("merge", "-q", "--ff-only", "side") }, true},
		{"the subproject's .gitignore removed", func() { remove("web/.gitignore") }, false},
		{"the folder back, not committed", func() { g.Git("mv", "lib/auth", "src/auth") }, false},
		{"a deleted file written again", func() { g.Write(map[string]string{"src/app.ts": "y"}) }, false},
	}
	cur := openRepo(t, root).(*repo)
	verdicts(t, cur, memFile) // everything read once, so that each Reopen starts from a warm repository
	for _, step := range steps {
		step.do()
		next, err := cur.Reopen(context.Background(), true)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		n := next.(*repo)
		if kept := n.answers == cur.answers; kept == step.moved {
			t.Errorf("%s: the history's answers kept %v, want %v", step.name, kept, !step.moved)
		}
		fresh := openRepo(t, root)
		if got, want := n.p.Files, fresh.(*repo).p.Files; !slices.Equal(got, want) {
			t.Errorf("%s: Files\n%q\nwant\n%q", step.name, got, want)
		}
		got, want := verdicts(t, next, memFile), verdicts(t, fresh, memFile)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s:\n got %s\nwant %s", step.name, got[i], want[i])
			}
		}
		cur = n
	}
}

// TestReopenNothingChanged: a look at git's files that changed nothing (the
// index written again, a ref that HEAD does not name) answers the same
// repository; one that moved HEAD, or a change to the work tree, does not.
func TestReopenNothingChanged(t *testing.T) {
	g := historyRepo(t)
	r := openRepo(t, g.Top()).(Reopener)
	same := func(what string, workTree, want bool) {
		t.Helper()
		next, err := r.Reopen(context.Background(), workTree)
		if err != nil {
			t.Fatal(err)
		}
		if got := next == r; got != want {
			t.Errorf("%s: the same repository %v, want %v", what, got, want)
		}
		r = next.(Reopener)
	}
	same("nothing", false, true)
	g.Git("status", "--porcelain")
	g.Git("branch", "elsewhere")
	g.Git("pack-refs", "--all")
	same("git status, a branch made, the refs packed", false, true)
	same("the work tree named", true, false)
	g.Git("commit", "-q", "--allow-empty", "-m", "nothing but a commit")
	same("a commit that changes no file", false, false)
	g.Git("reset", "-q", "--soft", "HEAD~")
	same("the commit undone", false, false)
	g.Git("checkout", "-q", "-b", "fix")
	// HEAD names the same commit, but a change the watcher missed is put
	// right by a move of HEAD, as it was before the repository was opened
	// again rather than followed (the red team's case G)
	same("a branch switched to at the same commit", false, false)
	g.Git("rm", "-q", "--cached", "go.mod")
	same("a file out of the index, still listed as new", false, true)
	g.Write(map[string]string{"dist/x.js": "ignored"})
	g.Git("add", "-f", "dist/x.js")
	same("an ignored file forced into the index", false, false)
}

// TestReopenWithoutGit: outside git there is no history to keep, and the
// walk is made again.
func TestReopenWithoutGit(t *testing.T) {
	root := t.TempDir()
	gittest.WriteFiles(t, root, map[string]string{".gitignore": "dist/\n", "src/app.ts": "x", ".memory/decisions.md": "# D\n"})
	var r rules.Repo = openRepo(t, root)
	gittest.WriteFiles(t, root, map[string]string{"lib/a.go": "x", "dist/b.go": "ignored"})
	next, err := r.(Reopener).Reopen(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := next.(*repo).p.Files, []string{".gitignore", "lib/a.go", "src/app.ts"}; !slices.Equal(got, want) {
		t.Errorf("Files %q, want %q", got, want)
	}
}

// TestReopenDropsTheBlameOfAnUndoneCommit: a blame is HEAD's as it is when
// it runs, so one taken while a commit stood that was then undone (an
// agent's "commit, then reset --soft HEAD~1", HEAD back where the listing
// found it) is not kept by the next listing: the line is not committed.
func TestReopenDropsTheBlameOfAnUndoneCommit(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{"src/app.ts": "x\n", ".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres.\n"})
	g.Commit("2024-01-01T10:00:00Z", "init")
	r := openRepo(t, g.Top()).(Reopener)
	f, err := os.OpenFile(filepath.Join(g.Top(), ".memory", "decisions.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("- [lint] Run `npm run lint` before pushing.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	g.Commit("2024-03-01T10:00:00Z", "the lint entry")
	if w := r.Written(".memory/decisions.md", 4); w.IsZero() {
		t.Fatal("test bug: the blame taken while the commit stood names no commit")
	}
	g.Git("reset", "-q", "--soft", "HEAD~1")
	next, err := r.Reopen(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if w := next.Written(".memory/decisions.md", 4); !w.IsZero() {
		t.Errorf("after the commit was undone the line reads as written %s", w)
	}
}
