package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// reopening is a repository that can be opened again (repo.Reopener): it
// counts the calls, and answers with next, or err.
type reopening struct {
	fixture.Repo
	reopened, workTree int
	next               rules.Repo
	err                error
}

func (r *reopening) Reopen(_ context.Context, workTree bool) (rules.Repo, error) {
	r.reopened++
	if workTree {
		r.workTree++
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.next == nil {
		return r, nil
	}
	return r.next, nil
}

// TestWarmRepoReopens: the repository opened for one query is opened
// again for the next, as after a change to the work tree (a process
// without a watcher cannot tell what changed); what it then answers is the
// next query's, the same repository when nothing changed. Other settings
// open afresh, as does a failed reopening; a failed opening is not kept.
func TestWarmRepoReopens(t *testing.T) {
	ctx := context.Background()
	var w Warm
	opened := 0
	var last *reopening
	open := func() rules.Repo {
		opened++
		last = &reopening{Repo: fixture.Repo{Repo: refstest.Repo{}}}
		return last
	}
	first := w.Repo(ctx, "5000", open)
	if got := w.Repo(ctx, "5000", open); got != first || opened != 1 || last.reopened != 1 || last.workTree != 1 {
		t.Errorf("nothing changed: opened %d, reopened %d (%d for the work tree), same repository %v", opened, last.reopened, last.workTree, got == first)
	}
	changed := &reopening{Repo: fixture.Repo{Repo: refstest.Repo{}}}
	last.next = changed
	if got := w.Repo(ctx, "5000", open); got != changed || opened != 1 {
		t.Errorf("a change: opened %d, got the reopened repository %v", opened, got == changed)
	}
	if w.Repo(ctx, "5000", open); changed.reopened != 1 {
		t.Errorf("the next query reopened the changed repository %d times, want 1", changed.reopened)
	}
	if w.Repo(ctx, "100", open); opened != 2 {
		t.Errorf("other settings: opened %d times, want 2", opened)
	}
	last.err = errors.New("cannot list the project")
	if r := w.Repo(ctx, "100", open); r != last || opened != 3 {
		t.Fatalf("a failed reopening: opened %d times (want 3), got the fresh repository %v", opened, r == last)
	}
	if r := w.Repo(ctx, "x", func() rules.Repo { return nil }); r != nil {
		t.Fatalf("a failed opening gave %v", r)
	}
	if w.Repo(ctx, "x", open); opened != 4 {
		t.Errorf("after a failed opening: opened %d times, want 4", opened)
	}
	plain := &fixture.Repo{Repo: refstest.Repo{}}
	for range 2 {
		w.Repo(ctx, "y", func() rules.Repo { opened++; return plain })
	}
	if opened != 6 {
		t.Errorf("a repository that cannot be reopened: opened %d times, want 6", opened)
	}
}

// TestWarmQueryStaleMarksFollowTheCode: in a git repository, as an agent
// works, each of a long-lived process's queries marks its hits exactly as
// a cold Service does, at once after each change to the code: a git mv, a
// commit, a manifest edited in place (the listing unchanged).
func TestWarmQueryStaleMarksFollowTheCode(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"src/auth/session.ts":  "export const session = 1; // long enough for git to see a rename\n",
		"Makefile":             "build:\n\tgo build\nlint:\n\tgo vet\n",
		".memory/decisions.md": "# Decisions\n\n- Auth sessions live in `src/auth/session.ts`.\n- Run `make lint` before an auth session change.\n",
	})
	g.Commit("2024-01-01", "start")
	// the history shows the target removed: a stale command that marks
	g.Write(map[string]string{"Makefile": "build:\n\tgo build\n"})
	g.Commit("2024-01-15", "drop lint")
	warm := newService(g.Dir)
	warm.Warm = &Warm{}
	stale := func(s *Service) []string {
		t.Helper()
		res, err := s.Query(QueryRequest{Query: "auth sessions"})
		if err != nil || len(res.Results) != 2 {
			t.Fatalf("query: %v, %+v", err, res.Results)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.Stale...)
		}
		return out
	}
	step := func(what, want string) {
		t.Helper()
		got, cold := stale(warm), stale(newService(g.Dir))
		if !slices.Equal(got, cold) {
			t.Errorf("%s: the warm marks are %q, a cold service's %q", what, got, cold)
		}
		if want != "" && !slices.ContainsFunc(cold, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("%s: a cold service's marks %q do not name %q", what, cold, want)
		}
	}
	step("at first", "lint")
	step("nothing changed", "lint")
	g.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts")
	// a move no commit holds yet is information, and marks nothing
	step("git mv", "")
	g.Commit("2024-02-01", "rename")
	step("the move committed", "sessions.ts")
	if err := os.WriteFile(filepath.Join(g.Dir, "Makefile"), []byte("build:\n\tgo build\nlint:\n\tgo vet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	step("the Makefile given the target", "")
	if got := stale(warm); slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "lint") }) {
		t.Errorf("after the Makefile gained lint, the warm marks still name it: %q", got)
	}
}
