package lsp

import (
	"github.com/memory-lsp/memory-lsp/core/memory"
)

// The disk side of every view of a folder comes from memory.ReadDisk, which
// gives the folder's last read again while a stat vouches for it. What the
// server vouches for is that nothing changed in the folder since: the
// watcher watches the folder itself and has seen no event in it (each
// event, each change of how the folder is watched, each write of ours and
// each client file event voids the folder's disk and bumps its generation,
// so that a read begun before the change is not kept).

// diskFiles returns folder f's files on disk, nil for a folder that cannot
// be read; open names the files that have a buffer. kept reports whether
// the result is the folder's kept read, which the views that follow share.
func (s *Server) diskFiles(f *folder, open map[string]bool) (_ *memory.Disk, kept bool) {
	watched := s.watchesFolder(f.dir)
	s.mu.Lock()
	gen := f.gen
	prev := f.disk
	s.mu.Unlock()
	d, reused, err := memory.ReadDisk(f.dir, watched, prev, open, f.catalog.Bytes)
	switch {
	case err != nil:
		s.log.Warningf("reading %s: %v", f.dir, err)
		s.dropDisk(f)
		return nil, false
	case reused:
		if d != prev {
			// Read before the file was opened: its disk bytes and parse
			// would stay for as long as the buffer does.
			s.mu.Lock()
			if f.disk == prev {
				f.disk = d
			}
			s.mu.Unlock()
		}
		return d, true
	case !d.Vouched():
		s.dropDisk(f)
		return d, false
	}
	s.mu.Lock()
	stored := f.gen == gen
	if stored {
		f.disk = d
	}
	s.mu.Unlock()
	// Stored, it is the view every later hit gives, so a check of it is
	// reused by the requests that follow (checkLocked).
	return d, stored
}

// invalidateDisk forgets f's disk read: something in the folder changed,
// or may have.
func (s *Server) invalidateDisk(f *folder) {
	s.mu.Lock()
	f.gen++
	f.disk = nil
	s.mu.Unlock()
}

// dropDisk forgets f's disk read (and the memory it holds) without marking
// a change.
func (s *Server) dropDisk(f *folder) {
	s.mu.Lock()
	f.disk = nil
	s.mu.Unlock()
}

// watchesFolder reports whether the watcher watches dir itself, so that its
// events can void a kept read of it.
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
