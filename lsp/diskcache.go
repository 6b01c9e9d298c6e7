package lsp

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Every didChange builds a view of its folder; reading and parsing its disk
// side each time was much of a keystroke's work at 10,000 entries
// (BenchmarkEditing10kBinary), for files that have not changed. So the disk side is kept per folder (a diskCache)
// and reused only while all of these hold:
//
//   - the watcher watches the folder itself, and has seen no event in it
//     since the read (each event, each change of how the folder is watched,
//     each write of ours and each client file event bumps the folder's
//     generation, which the cache must match);
//   - a stat of the folder and of every .md file in it, taken now, matches
//     the one taken before the read (identity, mode, size, modification
//     time; the set of names too), so that a missed event cannot serve
//     stale bytes;
//   - no file whose bytes the view uses was modified within store.RacyWindow of
//     that earlier stat: a write in the same tick of the file system's clock,
//     with the same size, would leave the stat unchanged, so such a file is
//     read again until it is old enough to be judged by its stat.
//
// Otherwise the folder is read with store.Snapshot exactly as before. Files
// under a symlink are never cached: their stat is the link's, not the
// bytes'. Open buffers never come from the cache; each document version is
// parsed once (document.file).

// diskCache is one folder's files as store.Snapshot read them.
type diskCache struct {
	gen  uint64 // the folder's generation when the read began
	stat store.DirStat
	// racy names the files modified within store.RacyWindow of the stat; unread
	// those whose bytes the cache dropped because they were open.
	racy, unread map[string]bool
	snap         *store.Snapshot
	// parsed holds each snapshot file's rules.File, parsed on first use.
	parsed []func() rules.File

	// lines holds the line index of a file's bytes, by path, built on
	// first use: every view of the cache shares it, so that a request
	// that converts a few positions (workspace/symbol) does not scan a
	// whole file for its line starts each time.
	mu    sync.Mutex
	lines map[string]*text.Index
}

// index is the line index of src, the bytes of the cached file at path.
func (c *diskCache) index(path string, src []byte) *text.Index {
	c.mu.Lock()
	defer c.mu.Unlock()
	ix := c.lines[path]
	if ix == nil {
		ix = text.NewIndex(src)
		c.lines[path] = ix
	}
	return ix
}

// statDir stats dir and its .md files (store.StatDir); ok is false for
// anything the cache does not handle (no folder, a symlink, an unreadable
// entry).
func statDir(dir string) (st store.DirStat, ok bool) {
	st, err := store.StatDir(dir)
	if err != nil {
		return st, false
	}
	return st, !st.HasSymlink()
}

// sameFile: the same file with the same mode.
func sameFile(a, b fs.FileInfo) bool { return store.SameFile(a, b) && a.Mode() == b.Mode() }

// matches reports whether the folder still looks as it did before the
// cached read. open names the files whose bytes come from buffers: only
// their identity and mode matter (store.Snapshot's verdict on them depends
// on nothing else), not their content.
func (c *diskCache) matches(st store.DirStat, open map[string]bool) bool {
	// The folder's own times change with every lock and temp file; its
	// names and their stats below are what the snapshot depends on.
	if !sameFile(c.stat.Dir, st.Dir) || len(st.Files) != len(c.stat.Files) {
		return false
	}
	for i, now := range st.Files {
		was, name := c.stat.Files[i], now.Name()
		switch {
		case was.Name() != name:
			return false
		case open[name]:
			if !sameFile(was, now) {
				return false
			}
		case c.racy[name] || c.unread[name] || !store.SameStat(was, now):
			return false
		}
	}
	return true
}

// diskFiles returns folder f's snapshot and, for each of its files, its
// parse; open names the files that have a buffer. A folder that cannot be
// read gives a nil snapshot, as store.Snapshot's error did before. The
// cache is the one the snapshot came from, nil when it was not kept.
func (s *Server) diskFiles(f *folder, open map[string]bool) (*store.Snapshot, []func() rules.File, *diskCache) {
	dir := f.dir
	watched := s.watchesFolder(dir)
	s.mu.Lock()
	gen := f.gen
	c := f.disk
	s.mu.Unlock()
	var st store.DirStat
	ok := false
	if watched {
		st, ok = statDir(dir)
		if ok && c != nil && c.gen == gen && c.matches(st, open) {
			if trimmed := c.without(open); trimmed != c {
				// Read before the file was opened: its disk bytes and
				// parse would stay for as long as the buffer does.
				s.mu.Lock()
				if f.disk == c {
					f.disk = trimmed
				}
				s.mu.Unlock()
				c = trimmed
			}
			return c.snap, c.parsed, c
		}
	}
	now := time.Now()
	var snap *store.Snapshot
	ws, err := store.Open(filepath.Dir(dir))
	if err == nil {
		// After a write of ours, most files hold what the catalog read
		// or we wrote: compared, not copied (10 MB at 100,000 entries).
		ws.Known = f.catalog.Bytes
		snap, err = ws.Snapshot()
	}
	if err != nil {
		s.log.Warningf("reading %s: %v", dir, err)
		s.dropDisk(f)
		return nil, nil, nil
	}
	parsed := make([]func() rules.File, len(snap.Files))
	linked := false
	for i, sf := range snap.Files {
		if sf.Exists && sf.Data != nil {
			parsed[i] = sync.OnceValue(func() rules.File { return rules.NewFile(sf.Path, sf.Data) })
		}
		linked = linked || sf.Link != ""
	}
	if !ok || linked { // read through a symlink: its stat says nothing
		s.dropDisk(f)
		return snap, parsed, nil
	}
	// The disk bytes of an open file are not used while it is open; the
	// cache does not keep them (a megabyte for a 10,000-entry file), and is
	// void for that file once it is closed.
	c = &diskCache{gen: gen, stat: st, racy: map[string]bool{}, unread: map[string]bool{},
		snap: snap, parsed: parsed, lines: map[string]*text.Index{}}
	for _, fi := range st.Files {
		if fi.ModTime().After(now.Add(-store.RacyWindow)) {
			c.racy[fi.Name()] = true
		}
	}
	c = c.without(open)
	s.mu.Lock()
	stored := f.gen == gen
	if stored {
		f.disk = c
	}
	s.mu.Unlock()
	if stored {
		// The view is then the one every later hit gives, so a check of it
		// is reused by the requests that follow (checkLocked).
		return c.snap, c.parsed, c
	}
	return snap, parsed, nil
}

// without is c without the disk bytes and parses of the files named in
// open, and their line indexes; c itself when it holds none. The snapshot,
// parses and maps are shared with the views c gave, so they are copied, not
// changed.
func (c *diskCache) without(open map[string]bool) *diskCache {
	holds := func(sf store.File) bool { return open[sf.Name] && sf.Data != nil }
	if !slices.ContainsFunc(c.snap.Files, holds) {
		return c
	}
	t := &diskCache{gen: c.gen, stat: c.stat, racy: c.racy, unread: maps.Clone(c.unread),
		snap:   &store.Snapshot{Dir: c.snap.Dir, Files: slices.Clone(c.snap.Files)},
		parsed: slices.Clone(c.parsed), lines: map[string]*text.Index{}}
	for i, sf := range t.snap.Files {
		if holds(sf) {
			t.snap.Files[i].Data, t.parsed[i] = nil, nil
			t.unread[sf.Name] = true
		}
	}
	c.mu.Lock()
	for path, ix := range c.lines {
		if !open[filepath.Base(path)] {
			t.lines[path] = ix
		}
	}
	c.mu.Unlock()
	return t
}

// invalidateDisk forgets what f's cache holds: something in the folder
// changed, or may have.
func (s *Server) invalidateDisk(f *folder) {
	s.mu.Lock()
	f.gen++
	f.disk = nil
	s.mu.Unlock()
}

// dropDisk forgets f's cache (and the memory it holds) without marking a
// change.
func (s *Server) dropDisk(f *folder) {
	s.mu.Lock()
	f.disk = nil
	s.mu.Unlock()
}

// watchesFolder reports whether the watcher watches dir itself, so that its
// events can invalidate a cache of it.
func (s *Server) watchesFolder(dir string) bool {
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.closed && w.dirs[dir] == watchFolder
}
