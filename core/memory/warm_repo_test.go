package memory

import (
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/fixture"
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
