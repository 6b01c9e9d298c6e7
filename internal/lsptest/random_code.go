package lsptest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// Citing is a Sentence that cites one of paths (slash paths of a
// repository, present or not) in a code span, as agents write them.
func Citing(r *rand.Rand, paths []string) string {
	s := strings.TrimSuffix(Sentence(r, false), ".")
	return fmt.Sprintf("%s in `%s`.", s, paths[r.IntN(len(paths))])
}

// ChangeCode changes g's work tree as a developer does, among paths, and
// says how: a present file moved with git mv to an absent one's place,
// deleted, or an absent one created. Nothing is committed.
func ChangeCode(tb testing.TB, g *gittest.Repo, r *rand.Rand, paths []string) string {
	tb.Helper()
	var present, absent []string
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(g.Dir, p)); err == nil {
			present = append(present, p)
		} else {
			absent = append(absent, p)
		}
	}
	switch {
	case len(present) > 0 && len(absent) > 0 && r.IntN(3) == 0:
		from, to := present[r.IntN(len(present))], absent[r.IntN(len(absent))]
		if err := os.MkdirAll(filepath.Dir(filepath.Join(g.Dir, to)), 0o755); err != nil {
			tb.Fatal(err)
		}
		g.AddAll()
		g.Git("mv", "-f", from, to)
		return "git mv " + from + " " + to
	case len(present) > 0 && r.IntN(2) == 0:
		p := present[r.IntN(len(present))]
		if err := os.Remove(filepath.Join(g.Dir, p)); err != nil {
			tb.Fatal(err)
		}
		return "deleted " + p
	case len(absent) > 0:
		p := absent[r.IntN(len(absent))]
		gittest.WriteFiles(tb, g.Dir, map[string]string{p: "// " + p + "\n"})
		return "created " + p
	}
	return "nothing"
}

// CodePaths are the files of a CitingRepo, present or not: the first five
// are in its first commit.
var CodePaths = []string{"src/cache.go", "src/auth/session.ts", "cmd/deploy/main.go",
	"internal/queue/worker.go", "docs/release.md", "scripts/lint.sh", "src/schema.sql", "tools/rotate.py"}

// CitingRepo is a git repository of five of CodePaths and a memory file per
// category whose entries cite CodePaths (Citing), committed.
func CitingRepo(tb testing.TB, r *rand.Rand) *gittest.Repo {
	tb.Helper()
	g := gittest.New(tb)
	files := map[string]string{}
	for _, p := range CodePaths[:5] {
		files[p] = "// " + p + ": long enough for git to see a rename of it\n"
	}
	for _, cat := range category.All {
		text := "# " + cat.String() + "\n\n"
		for range 3 + r.IntN(5) {
			text += "- " + Citing(r, CodePaths) + "\n"
		}
		files[".memory/"+cat.File()] = text
	}
	g.Write(files)
	g.Commit("2025-01-01", "start")
	return g
}

// CommitAll commits everything in g's work tree, if anything changed, a
// day after *day (which it advances), and says what it did.
func CommitAll(g *gittest.Repo, day *time.Time) (what string, committed bool) {
	if g.AddAll(); g.Git("status", "--porcelain") == "" {
		return "nothing to commit", false
	}
	*day = day.AddDate(0, 0, 1)
	g.Commit(day.Format(time.DateOnly), "work")
	return "a commit of everything", true
}

// PairedFile is a category file of 10 to 19 random entries followed by
// what stores and edits move the findings of: an exact duplicate, two
// entries under one slug ("shared") and near-duplicates of one text.
func PairedFile(r *rand.Rand, cat category.Category) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", cat)
	for range 10 + r.IntN(10) {
		b.WriteString("- " + Sentence(r, r.IntN(3) == 0) + "\n")
	}
	dup := Sentence(r, false)
	fmt.Fprintf(&b, "- %s\n- [shared] %s\n- [shared] %s\n- %s\n- %s on Windows.\n- %s on macOS.\n",
		dup, Sentence(r, false), Sentence(r, false), dup, strings.TrimSuffix(dup, "."), strings.TrimSuffix(dup, "."))
	return b.String()
}
