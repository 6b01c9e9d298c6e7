package repo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// updateQueries are the cited paths, commands and versions every verdict
// of TestRepoUpdateMatchesOpen is asked about: paths that exist, move, go,
// come back, are ignored or abbreviated, in files and folders.
var updateQueries = []string{
	"src/auth/session.ts", "session.ts", "auth/session.ts", "src/auth/sessions.ts", "sessions.ts",
	"src/auth/login.ts", "login.ts", "src/auth", "auth", "src",
	"src/app.ts", "app.ts", "src/new/thing.ts", "thing.ts", "src/new", "new",
	"lib", "lib/a.go", "a.go", "lib/deep/b.go", "deep", "lib/auth/session.ts", "lib/auth",
	"docs/adr/0001.md", "0001.md", "adr", "docs",
	"dist/bundle.js", "keep.log", "debug.log", "web/cache/x.js", "cache/x.js", "web/build/out.js", "build/out.js",
	"scripts/old.sh", "old.sh", "Makefile", "web/package.json", "package.json", ".nvmrc",
	"src/crypto/keys.rs", "lib/crypto", "crypto",
}

// verdicts is everything a Repo answers about updateQueries, as text.
func verdicts(t *testing.T, r rules.Repo, memFile string) []string {
	t.Helper()
	out := []string{fmt.Sprint("HasCode ", r.HasCode())}
	for _, q := range updateQueries {
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

// TestRepoUpdateMatchesOpen applies changes to a real git repository one
// after another, each followed by Update with the paths a watcher names,
// and holds every verdict (and the file list) of the updated repository to
// those of one opened afresh: creations, deletions, git mv of a file and of
// a folder, commits, a manifest and a pin file edited, .gitignore files
// written and removed, a file untracked and one force-added.
func TestRepoUpdateMatchesOpen(t *testing.T) {
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
		name  string
		do    func()
		named []string // what a watcher names
	}{
		{"a file in a new folder", func() { g.Write(map[string]string{"src/new/thing.ts": "x"}) }, []string{"src/new"}},
		{"a tracked file deleted from the work tree", func() { remove("src/app.ts") }, []string{"src/app.ts"}},
		{"git mv of a cited file", func() { g.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts") },
			[]string{"src/auth/session.ts", "src/auth/sessions.ts"}},
		{"the move committed", func() { g.Commit("2024-07-01", "rename the session") }, nil},
		{"a manifest edited", func() {
			g.Write(map[string]string{"Makefile": ".PHONY: build lint\nbuild:\n\tgo build\nlint:\n\tgo vet\n"})
		}, []string{"Makefile"}},
		{"a subproject's manifest", func() { g.Write(map[string]string{"web/package.json": `{"scripts": {"lint": "eslint"}}`}) }, []string{"web/package.json"}},
		{"a pin edited", func() { g.Write(map[string]string{".nvmrc": "20\n"}) }, []string{".nvmrc"}},
		{"the root .gitignore ignores the new folder", func() {
			g.Write(map[string]string{".gitignore": "dist/\n*.log\n!keep.log\nsrc/new/\n"})
		}, []string{".gitignore"}},
		{"an untracked folder of files", func() {
			g.Write(map[string]string{"lib/a.go": "x", "lib/deep/b.go": "x", "lib/debug.log": "ignored"})
		}, []string{"lib"}},
		{"a file kept out of the index", func() { g.Git("rm", "-q", "--cached", "keep.log") }, nil},
		{"an ignored file forced into the index", func() {
			g.Write(map[string]string{"dist/bundle.js": "x"})
			g.Git("add", "-f", "dist/bundle.js")
		}, []string{"dist", "dist/bundle.js"}},
		{"a folder removed", func() { remove("docs") }, []string{"docs"}},
		{"a subproject's .gitignore written", func() {
			g.Write(map[string]string{"web/.gitignore": "build/\ncache/\n", "web/cache/x.js": "x", "web/build/out.js": "x"})
		}, []string{"web/.gitignore", "web/cache", "web/build"}},
		{"everything committed", func() { g.Commit("2024-08-01", "all") }, nil},
		{"git mv of a folder, committed", func() {
			g.Git("mv", "src/auth", "lib/auth")
			g.Commit("2024-09-01", "auth moves to lib")
		}, []string{"src/auth", "lib/auth"}},
		{"the subproject's .gitignore removed", func() { remove("web/.gitignore") }, []string{"web/.gitignore"}},
		{"the folder back, not committed", func() { g.Git("mv", "lib/auth", "src/auth") }, []string{"lib/auth", "src/auth"}},
		{"a deleted file written again", func() { g.Write(map[string]string{"src/app.ts": "y"}) }, []string{"src/app.ts"}},
	}
	cur := openRepo(t, root).(Updatable)
	verdicts(t, cur, memFile) // everything read once, so that each Update derives from a warm repository
	for _, step := range steps {
		step.do()
		var named []string
		for _, n := range step.named {
			named = append(named, at(n))
		}
		next, d, err := cur.Update(context.Background(), named)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if d.Relisted {
			t.Errorf("%s: listed again", step.name)
		}
		fresh := openRepo(t, root)
		if got, want := next.(*repo).p.Files, fresh.(*repo).p.Files; !slices.Equal(got, want) {
			t.Errorf("%s: Files\n%q\nwant\n%q", step.name, got, want)
		}
		got, want := verdicts(t, next, memFile), verdicts(t, fresh, memFile)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s:\n got %s\nwant %s", step.name, got[i], want[i])
			}
		}
		cur = next.(Updatable)
	}
}

// TestRepoUpdateWithoutGit: outside git, files that appear are walked with
// the ignore rules, files that go are dropped, and a .gitignore change
// lists the project again.
func TestRepoUpdateWithoutGit(t *testing.T) {
	root := t.TempDir()
	gittest.WriteFiles(t, root, map[string]string{".gitignore": "dist/\n", "src/app.ts": "x", ".memory/decisions.md": "# D\n"})
	cur := openRepo(t, root).(Updatable)
	verdicts(t, cur, filepath.Join(root, ".memory", "decisions.md"))
	for _, step := range []struct {
		files    map[string]string
		remove   string
		named    string
		relisted bool
	}{
		{files: map[string]string{"lib/a.go": "x", "lib/dist/b.go": "ignored"}, named: "lib"},
		{remove: "src/app.ts", named: "src/app.ts"},
		{files: map[string]string{"dist/bundle.js": "ignored"}, named: "dist"},
		{files: map[string]string{".gitignore": "lib/\n"}, named: ".gitignore", relisted: true},
	} {
		gittest.WriteFiles(t, root, step.files)
		if step.remove != "" {
			if err := os.Remove(filepath.Join(root, step.remove)); err != nil {
				t.Fatal(err)
			}
		}
		next, d, err := cur.Update(context.Background(), []string{filepath.Join(root, step.named)})
		if err != nil {
			t.Fatal(err)
		}
		if d.Relisted != step.relisted {
			t.Errorf("%s: relisted %v, want %v", step.named, d.Relisted, step.relisted)
		}
		fresh := openRepo(t, root)
		if got, want := next.(*repo).p.Files, fresh.(*repo).p.Files; !slices.Equal(got, want) {
			t.Errorf("%s: Files %q, want %q", step.named, got, want)
		}
		memFile := filepath.Join(root, ".memory", "decisions.md")
		if got, want := strings.Join(verdicts(t, next, memFile), "\n"), strings.Join(verdicts(t, fresh, memFile), "\n"); got != want {
			t.Errorf("%s: verdicts\n%s\nwant\n%s", step.named, got, want)
		}
		cur = next.(Updatable)
	}
}

// TestRepoUpdateNothing: an Update that changes nothing answers the same
// repository, without listing anything.
func TestRepoUpdateNothing(t *testing.T) {
	g := historyRepo(t)
	r, err := Open(context.Background(), g.Top(), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	next, d, err := r.(Updatable).Update(context.Background(), nil)
	if err != nil || next != r || d.Changed() {
		t.Errorf("Update(nothing) = %p %+v %v, want the same repository %p, no change", next, d, err, r)
	}
}
