package memory

import (
	"context"

	"github.com/memory-lsp/memory-lsp/core/repo"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// warmRepo is the repository a Warm last judged against, and for which
// settings.
type warmRepo struct {
	repo rules.Repo
	key  string
}

// Repo is the repository a query judges its hits against: the last one
// opened again (repo.Reopener), or open's when there is none yet, it was
// opened for another key, or it cannot be opened again. key names what the
// opening depends on besides the project (the history depth).
//
// A process without a watcher (the MCP server) cannot tell what changed
// since its last call, so every call lists the project again as after a
// change to the work tree: a change to the code shows at the next call.
// What git's history answered is kept while HEAD has not moved
// (store.Project.SameHistory), which is most of an opening's cost in a
// project with a history (BenchmarkQueryMemoryBinary's "clone"). A nil
// repository (none could be opened, or no rule reads one) is not kept.
func (w *Warm) Repo(ctx context.Context, key string, open func() rules.Repo) rules.Repo {
	w.mu.Lock()
	last := w.repo
	w.mu.Unlock()
	var next rules.Repo
	if ro, ok := lastRepo(last, key).(repo.Reopener); ok {
		if r, err := ro.Reopen(ctx, true); err == nil {
			next = r
		}
	}
	if next == nil {
		// none yet, or one that can no longer be listed: afresh, which
		// reports what it cannot read
		next = open()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if next == nil {
		w.repo = nil
		return nil
	}
	w.repo = &warmRepo{repo: next, key: key}
	return next
}

// lastRepo is last's repository when it was opened for key, else nil.
func lastRepo(last *warmRepo, key string) rules.Repo {
	if last == nil || last.key != key {
		return nil
	}
	return last.repo
}
