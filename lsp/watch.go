package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

// Agents write memory files from outside the editor, so the server watches
// every served .memory folder itself (fsnotify); the client's
// didChangeWatchedFiles events are only a hint (Neovim does not send them on
// Linux, Helix only for its own writes).
//
// The watch is on the directory, never on files: editors and our atomic
// writer replace a file by renaming a temp file over it, which would end a
// watch on the file's inode. A folder that does not exist yet is waited for
// by watching its parent (non-recursively) until it appears; a folder that
// is removed or moved away goes back to that state, so a recreated one is
// watched again.

// watchDebounce gathers a burst of events in one folder (an atomic write is
// a create, writes and a rename) into one check.
const watchDebounce = 75 * time.Millisecond

// clientWatchID is the id of our didChangeWatchedFiles registration.
const clientWatchID = "memory-lsp/watched-files"

func init() {
	onNotification("workspace/didChangeWatchedFiles", (*Server).didChangeWatchedFiles)
}

// watchMode is how one served folder is watched.
type watchMode int

const (
	watchNothing watchMode = iota // neither it nor its parent could be watched
	watchFolder                   // the .memory folder itself
	watchParent                   // its parent, until .memory appears
)

type watcher struct {
	s    *Server
	fs   *fsnotify.Watcher
	done chan struct{} // closed when the event loop has ended

	mu    sync.Mutex // taken before s.mu, never after it
	dirs  map[string]watchMode
	paths map[string]int // fsnotify paths → how many watches use them
	// refDirs are the folders watched for changes to the code, each with
	// the served folders whose references lead there (watch_refs.go);
	// capped says their bound was reached.
	refDirs map[string]map[*folder]bool
	capped  bool
	closed  bool
	// lost are watched folders found gone without an event (recheck),
	// to be handled as removed once w.mu is released (reportLost).
	lost []string
}

// startWatching creates the watcher and watches every served folder. When
// the system refuses (no inotify instances left), the server still works
// from the editor's notifications.
func (s *Server) startWatching() {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		s.log.Errorf("cannot watch memory folders (%v): changes made outside the editor will not be noticed", err)
		return
	}
	w := &watcher{s: s, fs: fw, done: make(chan struct{}), dirs: map[string]watchMode{}, paths: map[string]int{}, refDirs: map[string]map[*folder]bool{}}
	s.mu.Lock()
	if s.watch != nil || s.state != stateRunning {
		s.mu.Unlock()
		fw.Close()
		return
	}
	s.watch = w
	s.mu.Unlock()
	go w.loop()
	w.sync()
}

// rewatch makes the watched folders the served ones.
func (s *Server) rewatch() {
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w != nil {
		w.sync()
	}
}

// sync watches newly served folders and stops watching the others.
func (w *watcher) sync() {
	defer w.reportLost()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.s.mu.Lock()
	want := w.s.servedLocked()
	w.s.mu.Unlock()
	for d := range w.dirs {
		if !want[d] {
			w.detach(d)
			delete(w.dirs, d)
		}
	}
	for d := range want {
		if _, ok := w.dirs[d]; !ok {
			w.attach(d)
		}
	}
}

// attach watches dir, or its parent while dir does not exist, and reports
// whether dir itself is now watched. w.mu is held.
func (w *watcher) attach(dir string) bool {
	// Events may have been missed while dir was not watched as a folder.
	w.s.invalidateDir(dir)
	if memory.StampOf(dir).IsDir() && w.add(dir) == nil {
		w.dirs[dir] = watchFolder
		return true
	}
	parent := filepath.Dir(dir)
	if err := w.add(parent); err != nil {
		w.s.log.Warningf("cannot watch %s for %s to appear: %v", parent, dir, err)
		w.dirs[dir] = watchNothing
		return false
	}
	w.dirs[dir] = watchParent
	// It may have appeared between the check and the watch.
	if memory.StampOf(dir).IsDir() && w.add(dir) == nil {
		w.drop(parent)
		w.dirs[dir] = watchFolder
		return true
	}
	return false
}

// detach ends dir's watch. w.mu is held.
func (w *watcher) detach(dir string) {
	w.s.invalidateDir(dir)
	switch w.dirs[dir] {
	case watchFolder:
		w.drop(dir)
	case watchParent:
		w.drop(filepath.Dir(dir))
	}
	w.dirs[dir] = watchNothing
}

func (w *watcher) add(path string) error {
	if w.paths[path] == 0 {
		if err := w.fs.Add(path); err != nil {
			return err
		}
		w.recheck(path)
	}
	w.paths[path]++
	return nil
}

func (w *watcher) drop(path string) {
	if w.paths[path]--; w.paths[path] > 0 {
		return
	}
	delete(w.paths, path)
	// The kernel has already dropped the watch of a removed folder.
	if err := w.fs.Remove(path); err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) && !errors.Is(err, fsnotify.ErrClosed) {
		w.s.log.Warningf("unwatching %s: %v", path, err)
	}
	w.recheck(path)
}

// recheck looks at the watched folders directly in parent, which has just
// started or stopped being watched, and notes those that are gone. fsnotify
// drops a watched folder's own removal event when it watches the folder's
// parent too, counting on the parent's event for it; but the parent's
// event never comes when its watch was added after the removal (or ended
// before the event was read), and the removal would go unseen: a .memory
// folder removed just as its parent started being watched for the code
// stayed "watched" for good (TestWatchMemoryFolderAppearsAndReappears
// failed so, now and then, under load). w.mu is held.
func (w *watcher) recheck(parent string) {
	gone := func(d string) bool {
		return filepath.Dir(d) == parent && !slices.Contains(w.lost, d) && !memory.StampOf(d).IsDir()
	}
	for d, mode := range w.dirs {
		if mode == watchFolder && gone(d) {
			w.lost = append(w.lost, d)
		}
	}
	for d := range w.refDirs {
		if gone(d) {
			w.lost = append(w.lost, d)
		}
	}
}

// reportLost handles the folders recheck found gone as removed. w.mu is
// not held.
func (w *watcher) reportLost() {
	w.mu.Lock()
	lost := w.lost
	w.lost = nil
	w.mu.Unlock()
	for _, d := range lost {
		w.event(fsnotify.Event{Name: d, Op: fsnotify.Remove})
	}
}

func (w *watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.s.log.Warningf("watching memory folders: %v", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: check everything again.
				w.mu.Lock()
				for d := range w.dirs {
					if f := w.s.folderAt(d); f != nil {
						w.s.diskChanged(f)
					}
				}
				w.mu.Unlock()
				for _, f := range w.s.served() {
					w.s.reopenRepo(f)
				}
			}
		}
	}
}

// event handles one file event: a change to a memory file schedules its
// folder; a served folder appearing, vanishing or moving changes how it is
// watched (and schedules it: files may have come or gone with it).
func (w *watcher) event(ev fsnotify.Event) {
	defer w.reportLost()
	name := filepath.Clean(ev.Name)
	scheduled, file := "", ""
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	// Any event in or of a served folder voids its cached disk side
	// (diskcache.go), also one that schedules nothing (a chmod).
	if mode, ok := w.dirs[name]; ok {
		w.s.invalidateDir(name)
		switch {
		case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
			w.detach(name)
			w.attach(name) // back to waiting, unless it is already back
			scheduled = name
		case ev.Has(fsnotify.Create) && mode != watchFolder:
			w.detach(name)
			if w.attach(name) {
				scheduled = name
			}
		}
	} else if dir := filepath.Dir(name); w.dirs[dir] == watchFolder {
		w.s.invalidateDir(dir)
		switch base := filepath.Base(name); {
		case ev.Op&(fsnotify.Create|fsnotify.Write|fsnotify.Remove|fsnotify.Rename) == 0:
		case isMemoryName(base):
			scheduled, file = dir, name
		case base == memory.HeldQueue:
			// A write held for review: shown on the memory files.
			scheduled = dir
		}
	}
	// The same folder may also be watched for the code (the root, where
	// .memory is waited for).
	owners := w.referenceOwners(name, ev)
	w.mu.Unlock()
	w.s.codeChanged(owners, name, changeOf(ev))
	if scheduled != "" {
		if f := w.s.folderAt(scheduled); f != nil {
			if file != "" {
				w.s.goAfter(func() { w.s.capture(f, filepath.Base(file)) })
			}
			w.s.diskChanged(f)
		}
	}
	if h := w.s.watchHook; h != nil {
		h(name, scheduled)
	}
}

// isMemoryName: a memory file's name, not one of our own dot files (the
// `.lock`, the atomic writer's `.decisions.md.tmp-…`).
func isMemoryName(base string) bool {
	return strings.HasSuffix(base, ".md") && !strings.HasPrefix(base, ".")
}

// close stops the watcher and waits for its event loop to end.
func (w *watcher) close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	w.mu.Unlock()
	if err := w.fs.Close(); err != nil {
		w.s.log.Warningf("closing the file watcher: %v", err)
	}
	<-w.done
}

// registerWatchedFiles asks a client that supports it to send
// didChangeWatchedFiles for memory files. It calls the client, so it runs
// in a goroutine.
func (s *Server) registerWatchedFiles(ctx context.Context) {
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:     clientWatchID,
		Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{
			Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/.memory/*.md"}},
		},
	}}}
	if err := s.call(ctx, "client/registerCapability", params, nil); err != nil && !s.connClosed() {
		s.log.Warningf("registering for file events: %v", err)
	}
}

// didChangeWatchedFiles takes the client's file events as a hint: the
// folder of each served memory file is checked again. Events for the code
// void the repository of the folders they concern (watch_refs.go).
func (s *Server) didChangeWatchedFiles(_ context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	seen := map[string]bool{}
	for _, ch := range p.Changes {
		path := memoryPath(ch.URI)
		if path == "" || !isMemoryName(filepath.Base(path)) {
			continue
		}
		dir := filepath.Dir(path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if f := s.folderAt(dir); f != nil {
			s.goAfter(func() { s.capture(f, filepath.Base(path)) })
			s.diskChanged(f) // the client saw a change we may not have
		}
	}
	s.clientCodeChanges(p.Changes)
	return nil
}

// invalidateDir voids the disk cache of the served folder at dir, if any.
func (s *Server) invalidateDir(dir string) {
	if f := s.folderAt(dir); f != nil {
		s.invalidateDisk(f)
	}
}

// diskChanged reacts to a change on disk in folder f: its cache is void,
// its open buffers are reconciled with the disk, and it is checked again.
func (s *Server) diskChanged(f *folder) {
	s.invalidateDisk(f)
	s.scheduleSync(f, watchDebounce)
	s.schedule(f, watchDebounce)
}
