package rules

import (
	"fmt"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// derivedRepo is a testRepo that says what changed since the Repo it was
// derived from: the paths named, or everything. It counts the Stat calls.
type derivedRepo struct {
	*fakeRepo
	from  Repo
	paths []string
	all   bool
	stats int
}

func (r *derivedRepo) Stat(p string) (isDir, ok bool) {
	r.stats++
	return r.fakeRepo.Stat(p)
}

func (r *derivedRepo) ChangesSince(old Repo) (RepoChange, bool) {
	if old == Repo(r) {
		return namedPaths(nil), true
	}
	if old != r.from || r.all {
		return nil, false
	}
	return namedPaths(r.paths), true
}

// derive is a copy of r's repository, derived from r by a change to the
// paths named, or one it cannot bound (all).
func (r *derivedRepo) derive(paths []string, all bool) *derivedRepo {
	fr := *r.fakeRepo
	return &derivedRepo{fakeRepo: &fr, from: r, paths: paths, all: all}
}

// namedPaths is a change to the paths named, none of them a manifest or a
// pin file.
type namedPaths []string

func (c namedPaths) Path(p string) bool              { return slices.Contains(c, p) }
func (c namedPaths) Manifest(refs.Tool, string) bool { return false }
func (c namedPaths) ListedBelow(refs.Tool) bool      { return false }
func (c namedPaths) Pins() bool                      { return false }

// TestCheckerJudgesAgainOnlyWhatChanged: after a change the repository
// names, only the references it may answer otherwise are judged again (one
// Stat each), the findings those of a full check; a reference on another
// line, or a change the repository cannot bound, is judged again.
func TestCheckerJudgesAgainOnlyWhatChanged(t *testing.T) {
	src := "# Decisions\n\n- The app is in `src/app.ts`.\n- The record is `docs/adr/0001.md`.\n- Auth lives in `src/auth/session.ts`.\n"
	files := []File{newFile(".memory/decisions.md", []byte(src))}
	cfg := config.Default()
	r0 := &derivedRepo{fakeRepo: testRepo()}
	c := &Checker{Repo: r0}
	// The stale path's fix asks where the file went, outside the judgement:
	// one Stat a check.
	const fixes = 1
	check := func(r *derivedRepo, files []File, judged int) {
		t.Helper()
		r.stats = 0
		c.Repo = r
		got := fmt.Sprintf("%+v", c.Check(files, cfg))
		if want := fmt.Sprintf("%+v", CheckWithRepo(files, cfg, r.fakeRepo)); got != want {
			t.Errorf("findings\n%s\nwant\n%s", got, want)
		}
		if r.stats != judged+fixes {
			t.Errorf("%d paths judged, want %d", r.stats-fixes, judged)
		}
	}
	check(r0, files, 3)
	check(r0, files, 0) // the same repository: nothing judged again

	r1 := r0.derive([]string{"src/app.ts"}, false)
	r1.Files = slices.DeleteFunc(slices.Clone(r1.Files), func(f string) bool { return f == "src/app.ts" })
	check(r1, files, 1)

	moved := []File{newFile(".memory/decisions.md", []byte("# Decisions\n\n- Intro.\n"+src[len("# Decisions\n\n"):]))}
	check(r1.derive(nil, false), moved, 3)
	check(r1.derive(nil, true), files, 3)
}
