package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// A folder's repository is the code beside its .memory folder, which the
// reference rules judge entries against and the links, definitions and
// hovers of references (links.go, definition.go, hover.go) resolve in.
// Opening it lists the project's files, which a large project makes slow
// (BenchmarkRepoJudge's "open"), so it is built in the background, never on
// the read loop, and opened again after the changes to the code
// (watch_refs.go): repo.Reopener.Reopen lists the project again and keeps
// what git's history answered while HEAD has not moved, which is
// the costly part in a project with a history
// (BenchmarkReferenceChangeToPublish). Each folder has one worker goroutine
// at a time (runRepo) that opens the repository, or opens it again after
// the changes gathered since, and then checks the folder again.
//
// Nothing waits for a build on the read loop. A check that finds no build
// yet does not publish: the worker publishes once the build is done
// (publish). The user sees the folder's diagnostics a moment later rather
// than twice — first without the stale references, then with them — which
// would read as "nothing is stale" to whoever looks at the first set (an
// agent reading diagnostics, a user glancing at the problems list), and
// would flicker every marker of a large folder. Requests that need the
// repository (links, definitions, hovers, commands) wait for it in their own
// goroutines; other requests are answered meanwhile, and a code action
// asked for before the first build is answered without the references'
// fixes, as no diagnostic of them has been shown yet.
//
// A repository that cannot be opened is none (the rules stay silent), said
// once in the log, and tried again after the next change.

// codeDebounce gathers the watcher's events of one change to the code
// before the repository is opened again: a `git mv` is a rename in the
// work tree, then git's index.lock written and renamed over the index, all
// within a few milliseconds on a small repository. Opening again after each
// event would be correct too, only with a listing and a check per event; a
// longer wait would be the user's. The
// client's events are followed at once: a client gathers them itself
// before it sends them (VS Code over about 50 ms).
const codeDebounce = 10 * time.Millisecond

// repoState is one build of a folder's repository.
type repoState struct {
	// repo is nil when it could not be opened.
	repo rules.Repo
	// cfg is the configuration it was opened with (the history depth).
	cfg config.Config
}

// get is st's repository, nil for no build.
func (st *repoState) get() rules.Repo {
	if st == nil {
		return nil
	}
	return st.repo
}

// repoWork is what a folder's repository worker has to do, guarded by
// folder.repoMu.
type repoWork struct {
	cfg   config.Config // what the next build opens with
	paths []string      // changed since the current build, not followed yet
	git   bool          // git's own files changed
	// reopen: open afresh rather than follow (events were lost).
	reopen bool
	// republish: a change concerned what the entries cite; publish: a check
	// found no build and waits for one.
	republish, publish bool
	running            bool
	done               chan struct{} // closed when the running worker ends
	timer              *time.Timer   // the debounce of watcher events
	failing            bool          // the last open failed, and the log said so
}

// repoNow is f's current build, without waiting: nil before the first
// build is done, which it starts. A build opened with another history
// depth is returned while one with cfg's is opened.
func (s *Server) repoNow(f *folder, cfg config.Config) *repoState {
	st := f.repo.Load()
	if st == nil || st.cfg.HistoryDepth != cfg.HistoryDepth {
		f.repoMu.Lock()
		f.work.cfg = cfg
		s.startRepoLocked(f)
		f.repoMu.Unlock()
	}
	return st
}

// repoOf is f's build for cfg, waiting for it: only requests and commands
// call it, in their own goroutines, never the read loop. nil when the
// server stops first.
func (s *Server) repoOf(f *folder, cfg config.Config) *repoState {
	for {
		st := s.repoNow(f, cfg)
		if st != nil && st.cfg.HistoryDepth == cfg.HistoryDepth {
			return st
		}
		f.repoMu.Lock()
		done := f.work.done
		f.repoMu.Unlock()
		switch {
		case s.life.Err() != nil:
			return nil // stopping: no worker starts
		case done == nil:
			continue // ended just now: its build is stored
		}
		select {
		case <-done:
		case <-s.life.Done():
			return nil
		}
	}
}

// repoChanged hands f's repository the paths that changed (none: git's
// own files did), to follow after delay (0: at once). A folder whose
// repository was never built has nothing to follow: its first build lists
// what is there.
func (s *Server) repoChanged(f *folder, paths []string, git, republish bool, delay time.Duration) {
	f.repoMu.Lock()
	defer f.repoMu.Unlock()
	w := &f.work
	if f.repo.Load() == nil && !w.running {
		return
	}
	w.paths = append(w.paths, paths...)
	w.git = w.git || git
	w.republish = w.republish || republish
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if delay <= 0 || w.running {
		s.startRepoLocked(f) // a running worker takes them in its next round
		return
	}
	w.timer = time.AfterFunc(delay, func() {
		f.repoMu.Lock()
		defer f.repoMu.Unlock()
		s.startRepoLocked(f)
	})
}

// reopenRepo opens f's repository afresh (events were lost), and checks
// the folder again.
func (s *Server) reopenRepo(f *folder) {
	f.repoMu.Lock()
	defer f.repoMu.Unlock()
	if f.repo.Load() == nil && !f.work.running {
		return
	}
	f.work.reopen, f.work.republish = true, true
	s.startRepoLocked(f)
}

// startRepoLocked starts f's worker unless it runs. f.repoMu is held.
func (s *Server) startRepoLocked(f *folder) {
	if f.work.running || s.life.Err() != nil {
		return
	}
	f.work.running, f.work.done = true, make(chan struct{})
	go s.runRepo(f)
}

// runRepo is f's worker: it opens the repository, or follows the changes
// gathered since the last round, until there is nothing left to do; then it
// checks the folder again when a change concerned it or a check waited.
func (s *Server) runRepo(f *folder) {
	again := false
	for {
		f.repoMu.Lock()
		w := &f.work
		cur := f.repo.Load()
		changed := len(w.paths) > 0 || w.git
		open := cur == nil || w.reopen || cur.cfg.HistoryDepth != w.cfg.HistoryDepth ||
			cur.repo == nil && changed // tried again after a change
		if !open && !changed {
			again = again || w.publish
			w.publish, w.running = false, false
			close(w.done)
			w.done = nil
			f.repoMu.Unlock()
			if again && s.life.Err() == nil && s.isServed(f) {
				s.schedule(f, 0)
			}
			return
		}
		paths, republish, cfg := w.paths, w.republish || w.git, w.cfg
		w.paths, w.git, w.reopen, w.republish = nil, false, false, false
		f.repoMu.Unlock()
		var st *repoState
		if !open {
			st = s.followRepo(f, cur, paths)
		}
		if st == nil {
			st = s.openRepo(f, cfg)
			// Opened again: check again. A first build publishes only if a
			// check waited for it.
			republish = cur != nil
		}
		f.repo.Store(st)
		// an agent's instruction file is read by the check, not the
		// repository: its change is a reason to check again however the
		// repository answers
		readAtCheck := slices.ContainsFunc(paths, func(p string) bool {
			return f.interest.Load().ReadAtCheck(filepath.Dir(f.dir), p)
		})
		if readAtCheck {
			f.readAtCheck.Add(1)
		}
		again = again || (republish && (st != cur || readAtCheck))
	}
}

// reopener is a repository that can be opened again after a change to the
// code, keeping what did not change (core/repo.Reopener, which the server
// is given through Options.OpenRepo and does not import).
type reopener interface {
	Reopen(ctx context.Context, workTree bool) (rules.Repo, error)
}

// followRepo is cur after paths changed (none: git's own files did), or nil
// when it is to be opened afresh (a repository that cannot be opened again,
// as tests give, after a change to the work tree, a project that can no
// longer be listed, or a git folder that came, went or moved: a `git init`
// after the server started, whose scope the watchers must learn). cur
// itself is returned when nothing it answers changed.
func (s *Server) followRepo(f *folder, cur *repoState, paths []string) *repoState {
	if sc, was := memory.FindRepoScope(filepath.Dir(f.dir)), f.scope.Load(); was == nil || sc.Top != was.Top || sc.GitDir != was.GitDir {
		return nil
	}
	ro, ok := cur.repo.(reopener)
	switch {
	case !ok && len(paths) == 0:
		// Only git's files changed: a repository that cannot be opened
		// again (tests' fakes; core/repo's always can) is opened afresh
		// for changes to the work tree only, not for every look at git's
		// index.
		return cur
	case !ok:
		return nil
	}
	start := time.Now()
	next, err := ro.Reopen(s.life, len(paths) > 0)
	if err != nil {
		return nil
	}
	if next == cur.repo {
		s.log.Debugf("repository of %s: listed again in %s, unchanged", f.dir, since(start))
		return cur
	}
	s.log.Debugf("repository of %s: opened again in %s after %d changed paths", f.dir, since(start), len(paths))
	return &repoState{repo: next, cfg: cur.cfg}
}

// openRepo opens f's repository afresh.
func (s *Server) openRepo(f *folder, cfg config.Config) *repoState {
	// The scope first: a change seen while the repository is opened is
	// matched against it, and followed after the open.
	sc := memory.FindRepoScope(filepath.Dir(f.dir))
	f.scope.Store(sc)
	start := time.Now()
	repo, err := s.opt.OpenRepo(s.life, sc.Root, cfg)
	f.repoMu.Lock()
	defer f.repoMu.Unlock()
	switch {
	case err != nil && s.life.Err() != nil:
		repo = nil // the server is stopping: nothing to report
	case err != nil:
		if !f.work.failing {
			s.log.Warningf("cannot read the repository at %s (%v): the references its memory cites are not checked until it changes", sc.Root, err)
		}
		f.work.failing, repo = true, nil
	case f.work.failing:
		s.log.Infof("the repository at %s can be read again", sc.Root)
		f.work.failing = false
	}
	s.log.Debugf("repository of %s: opened (every file listed) in %s", f.dir, since(start))
	return &repoState{repo: repo, cfg: cfg}
}
