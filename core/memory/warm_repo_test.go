package memory

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestWarmRepoReuse: a repository opened for one query serves the next for
// repoReuse, for the same settings only; after that, or for other settings,
// it is opened again; a failed opening is not kept.
func TestWarmRepoReuse(t *testing.T) {
	var w Warm
	opened := 0
	open := func() rules.Repo {
		opened++
		return &fixture.Repo{Repo: refstest.Repo{}}
	}
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	first := w.Repo("5000", t0, open)
	if got := w.Repo("5000", t0.Add(repoReuse-time.Millisecond), open); got != first || opened != 1 {
		t.Errorf("within the window: opened %d times, same repository %v", opened, got == first)
	}
	if w.Repo("100", t0.Add(time.Second), open); opened != 2 {
		t.Errorf("other settings: opened %d times, want 2", opened)
	}
	if w.Repo("100", t0.Add(time.Second+repoReuse), open); opened != 3 {
		t.Errorf("after the window: opened %d times, want 3", opened)
	}
	if w.Repo("100", t0.Add(-time.Hour), open); opened != 4 {
		t.Errorf("a clock set back: opened %d times, want 4", opened)
	}
	if r := w.Repo("x", t0, func() rules.Repo { return nil }); r != nil {
		t.Fatalf("a failed opening gave %v", r)
	}
	if w.Repo("x", t0, open); opened != 5 {
		t.Errorf("after a failed opening: opened %d times, want 5", opened)
	}
}

// TestWarmQueryStaleMarksFollowTheCode: in a git repository, as an agent
// works, a long-lived process's queries judge a burst against the
// repository opened for its first (repoReuse), open it again after, and
// then mark a hit whose cited file was moved with git mv exactly as a cold
// Service does.
func TestWarmQueryStaleMarksFollowTheCode(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"src/auth/session.ts":  "export const session = 1; // long enough for git to see a rename\n",
		".memory/decisions.md": "# Decisions\n\n- Auth sessions live in `src/auth/session.ts`.\n",
	})
	g.Commit("2024-01-01", "start")
	clock := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	warm := newService(g.Dir)
	warm.Warm = &Warm{Now: func() time.Time { return clock }}
	stale := func(s *Service) []string {
		t.Helper()
		res, err := s.Query(QueryRequest{Query: "auth sessions"})
		if err != nil || len(res.Results) != 1 {
			t.Fatalf("query: %v, %+v", err, res.Results)
		}
		return res.Results[0].Stale
	}
	if got := stale(warm); len(got) != 0 {
		t.Fatalf("a present file is marked stale: %q", got)
	}
	first := warm.Warm.repo.repo
	g.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts")
	g.Commit("2024-02-01", "rename")
	clock = clock.Add(repoReuse / 2)
	stale(warm)
	if warm.Warm.repo.repo != first {
		t.Error("a query within the reuse window opened the repository again")
	}
	clock = clock.Add(repoReuse)
	got, want := stale(warm), stale(newService(g.Dir))
	if len(want) != 1 || !strings.Contains(want[0], "sessions.ts") {
		t.Fatalf("a cold service's marks = %q, want the rename", want)
	}
	if !slices.Equal(got, want) {
		t.Errorf("after the window the warm marks are %q, a cold service's %q", got, want)
	}
	if warm.Warm.repo.repo == first {
		t.Error("after the reuse window the first repository still answers")
	}
}
