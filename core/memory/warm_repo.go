package memory

import (
	"time"

	"github.com/memory-lsp/memory-lsp/core/rules"
)

// repoReuse is how long a long-lived process without a watcher (the MCP
// server) judges queries against the repository it opened for an earlier
// one. Opening lists the project (a run of git ls-files, however few the
// files), which an agent's burst of queries would
// otherwise pay per call; the price is that a change to the code shows in
// the stale marks up to this long after it was made.
const repoReuse = 3 * time.Second

// warmRepo is the repository a Warm last opened, and for which settings.
type warmRepo struct {
	repo   rules.Repo
	key    string
	opened time.Time
}

// clock is the time now, by w's clock.
func (w *Warm) clock() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

// Repo is open's repository, or the one a call with the same key opened
// less than repoReuse ago. key names what the opening depends on besides
// the project (the history depth). A nil repository (none could be
// opened, or no rule reads one) is not kept.
func (w *Warm) Repo(key string, now time.Time, open func() rules.Repo) rules.Repo {
	w.mu.Lock()
	if r := w.repo; r != nil && r.key == key && now.Sub(r.opened) >= 0 && now.Sub(r.opened) < repoReuse {
		w.mu.Unlock()
		return r.repo
	}
	w.mu.Unlock()
	repo := open()
	if repo == nil {
		return nil
	}
	w.mu.Lock()
	w.repo = &warmRepo{repo: repo, key: key, opened: now}
	w.mu.Unlock()
	return repo
}
