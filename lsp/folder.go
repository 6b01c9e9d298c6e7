package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// folder is one served .memory folder and everything the server keeps for
// it, as gopls keeps a View per build: its open buffers, its debounce timer,
// its checker, its disk cache, and the queue its writes go through. The
// server serves the .memory folder of each workspace folder (whether or not
// it exists yet) and the folder of each open memory file; folders are keyed
// by their canonical path, so one folder reached through a symlink, "..", or
// another letter case is one folder.
type folder struct {
	// dir is the folder as the server names it: a workspace folder's
	// <root>/.memory, else the folder of the first document opened in it.
	// Views, writes and diagnostics use paths below dir.
	dir string
	// key is dir with its symlinks resolved (canonicalDir).
	key string

	// Guarded by Server.mu:
	root bool                // the .memory of a workspace folder
	docs map[string]*openDoc // open buffers, by file name
	// agents are the open buffers of the agents' files of the folder's
	// workspace (agentfiles.go), by their path as the editor names it.
	agents map[string]*document
	timer  *time.Timer // pending check-and-publish (the debounce)
	// sync is a pending reconcile of the buffers with the disk.
	sync  *time.Timer
	shown map[string]bool // paths whose diagnostics were published
	// putOff is when a check first gave way to a write (diagnostics.go),
	// zero while none waits.
	putOff time.Time
	// disk is the folder's files as last read (diskcache.go); gen counts
	// the changes seen in the folder, which void it.
	disk *memory.Disk
	gen  uint64

	// pub serialises check-and-publish, so that the last check to start is
	// the last to publish; the checker and the last check are used only
	// under it.
	pub     sync.Mutex
	checker *rules.Checker
	last    *checked // what code actions are served from (diagnostics.go)
	checks  int      // checks run, for tests of that reuse

	// acks are the journal's records the server tracks (acks.go), guarded
	// by Server.mu, as is what journal has learned of the journal.
	acks    []*ack
	journal *memory.Journal

	// catalog keeps the search index of the folder's entries between
	// queries (memory.queryMemory, workspace/symbol): each re-indexes only
	// the files whose bytes changed since the last.
	catalog memory.Warm
	// heldShown are the IDs of the held writes the user was told of
	// (held.go), guarded by Server.mu; nil until the first publish.
	heldShown map[string]bool

	// queue is the folder's one writer: every command that writes (store,
	// delete, slugs, cleanup) and every reconcile of a buffer with the disk
	// runs under it, so each is planned against the state the previous one
	// left, in the buffers and on disk alike.
	queue sync.Mutex
	// writing counts the writes of the folder between their lock and
	// their last byte on disk; a check does not start meanwhile.
	writing atomic.Int32

	// The repository beside the folder (repo.go): repo is the current
	// build and scope where it lies, read without a lock; repoMu guards
	// work, what its worker has to do.
	repo   atomic.Pointer[repoState]
	scope  atomic.Pointer[memory.RepoScope]
	repoMu sync.Mutex
	work   repoWork
	// cites is the references of each entry, by content.
	cites memory.Citations
	// interest is what the last check's entries cite, and followed that
	// check (guarded by pub): which changes to the code matter
	// (watch_refs.go).
	interest atomic.Pointer[memory.Interest]
	// readAtCheck counts the changes to files a check reads itself (the
	// agents' instruction files, memory.Interest.ReadAtCheck): a check is
	// not taken from the last one across such a change, whatever the
	// repository made of it.
	readAtCheck atomic.Uint64
	followed    *checked
}

func newFolder(dir, key string) *folder {
	f := &folder{dir: dir, key: key, docs: map[string]*openDoc{}, agents: map[string]*document{}, shown: map[string]bool{}, journal: memory.OpenJournal(dir)}
	return f
}

// path is the path of file name in the folder, as views name it.
func (f *folder) path(name string) string { return filepath.Join(f.dir, name) }

// canonicalDir resolves the symlinks of dir, or of its longest existing
// prefix when dir does not exist yet (a workspace without .memory).
func canonicalDir(dir string) string {
	dir = filepath.Clean(dir)
	var rest []string
	for p := dir; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return dir
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// sameFolder reports whether two canonical paths that differ only in letter
// case are one folder, as on a case-insensitive file system.
func sameFolder(a, b string) bool {
	if a == b {
		return true
	}
	if !strings.EqualFold(a, b) {
		return false
	}
	return memory.StampOf(a).SameFile(memory.StampOf(b))
}

// folderLocked is the served folder with canonical key, or nil. s.mu is held.
func (s *Server) folderLocked(key string) *folder {
	if f := s.folders[key]; f != nil {
		return f
	}
	for k, f := range s.folders {
		if sameFolder(k, key) {
			return f
		}
	}
	return nil
}

// folderAt is the served folder at dir (any spelling of it), or nil.
func (s *Server) folderAt(dir string) *folder {
	key := canonicalDir(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.folderLocked(key)
}

// folderFor is the served folder at dir, or, for a folder the server does
// not serve (a .memory nested inside a workspace folder, which a command may
// name), a folder of its own that no buffer and no other command shares.
func (s *Server) folderFor(dir string) *folder {
	key := canonicalDir(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.folderLocked(key); f != nil {
		return f
	}
	return newFolder(dir, key)
}

// refoldLocked makes the folder set follow the workspace folders and the
// open documents: each workspace folder's .memory is served, and so is every
// folder with an open buffer (of a memory file, or of an agent's file of its
// workspace); any other folder is dropped and returned, so
// that its diagnostics can be cleared. s.mu is held.
func (s *Server) refoldLocked() (dropped []*folder) {
	roots := map[*folder]bool{}
	for _, r := range s.roots {
		dir := memory.Dir(r)
		key := canonicalDir(dir)
		f := s.folderLocked(key)
		if f == nil {
			f = newFolder(dir, key)
			s.folders[key] = f
		}
		roots[f] = true
	}
	for k, f := range s.folders {
		f.root = roots[f]
		if !f.root && len(f.docs) == 0 && len(f.agents) == 0 {
			delete(s.folders, k)
			dropped = append(dropped, f)
		}
	}
	return dropped
}

// servedLocked is the set of served folders by dir; s.mu is held.
func (s *Server) servedLocked() map[string]bool {
	set := make(map[string]bool, len(s.folders))
	for _, f := range s.folders {
		set[f.dir] = true
	}
	return set
}

// served is every served folder, in dir order.
func (s *Server) served() []*folder {
	return sortedValues(&s.mu, s.folders, func(f *folder) string { return f.dir })
}

// sortedValues are the values of m, read under mu, in the order of key.
func sortedValues[V any](mu *sync.Mutex, m map[string]V, key func(V) string) []V {
	mu.Lock()
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	mu.Unlock()
	slices.SortFunc(out, func(a, b V) int { return strings.Compare(key(a), key(b)) })
	return out
}

// isServed reports whether f is still one of the served folders.
func (s *Server) isServed(f *folder) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.folders[f.key] == f
}
