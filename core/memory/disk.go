package memory

import (
	"bytes"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// A long-lived process that builds a view of a folder on every keystroke
// would read and parse its disk side each time, which was much of a
// keystroke's work at 10,000 entries (BenchmarkEditing10kBinary), for
// files that have not changed. So ReadDisk returns what an earlier read
// gave (a Disk) while all of these hold:
//
//   - the caller vouches that nothing changed in the folder since that read
//     (the language server: its watcher watches the folder itself and has
//     seen no event in it, nor written to it);
//   - a stat of the folder and of every .md file in it, taken now, matches
//     the one taken before the read (identity, mode, size, modification
//     time; the set of names too), so that a missed event cannot serve
//     stale bytes;
//   - no file whose bytes the view uses was modified within store.RacyWindow
//     of that earlier stat: a write in the same tick of the file system's
//     clock, with the same size, would leave the stat unchanged, so such a
//     file is read again until it is old enough to be judged by its stat.
//
// Otherwise the folder is read with store.Snapshot. Files under a symlink
// are never kept: their stat is the link's, not the bytes'. Open buffers
// never come from a Disk: the caller parses each of their versions.

// Disk is one folder's files as store.Snapshot read them, each parsed on
// first use. A Disk is shared by every view built from it: it is never
// changed, only replaced.
type Disk struct {
	Snap *store.Snapshot
	// Parsed holds each of Snap's files' rules.File, parsed on first use
	// (nil for a file not read).
	Parsed []func() rules.File

	// vouched: stat was taken before the read and the files are not
	// behind a symlink, so a later stat can tell whether they changed.
	vouched bool
	stat    store.DirStat
	// racy names the files modified within store.RacyWindow of the stat;
	// unread those whose bytes the Disk dropped because they were open.
	racy, unread map[string]bool

	// lines holds the line index of a file's bytes, by path, built on
	// first use: every view of the Disk shares it, so that a request that
	// converts a few positions (workspace/symbol) does not scan a whole
	// file for its line starts each time.
	mu    sync.Mutex
	lines map[string]*text.Index
}

// ReadDisk returns the files of the .memory folder dir. keep says whether
// the caller can vouch for the result later (it watches the folder); when
// it cannot, nothing is stat'ed and the result is not Vouched. prev is what
// an earlier call returned, when the caller vouches that nothing changed in
// the folder since (nil otherwise); it is given again, without the bytes of
// the files now named in open, while a stat agrees (reused). open names the
// files that have a buffer, whose disk bytes the result does not keep.
// known is what the caller last knew a path to hold (store.Workspace.Known),
// compared rather than copied. A result that is not Vouched cannot be
// given again: the caller keeps it no longer than one view.
func ReadDisk(dir string, keep bool, prev *Disk, open map[string]bool, known func(string) []byte) (_ *Disk, reused bool, _ error) {
	var st store.DirStat
	ok := false
	if keep {
		st, ok = statDir(dir)
		if ok && prev != nil && prev.vouched && prev.matches(st, open) {
			return prev.without(open), true, nil
		}
	}
	now := time.Now()
	ws, err := store.Open(filepath.Dir(dir))
	if err != nil {
		return nil, false, err
	}
	// After a write of the caller's, most files hold what it read or
	// wrote: compared, not copied (10 MB at 100,000 entries).
	ws.Known = known
	snap, err := ws.Snapshot()
	if err != nil {
		return nil, false, err
	}
	parsed := make([]func() rules.File, len(snap.Files))
	linked := false
	for i, sf := range snap.Files {
		if sf.Exists && sf.Data != nil {
			parsed[i] = sync.OnceValue(func() rules.File { return rules.NewFile(sf.Path, sf.Data) })
		}
		linked = linked || sf.Link != ""
	}
	d := &Disk{Snap: snap, Parsed: parsed, lines: map[string]*text.Index{}}
	if !ok || linked { // read through a symlink: its stat says nothing
		return d, false, nil
	}
	d.vouched, d.stat, d.racy, d.unread = true, st, map[string]bool{}, map[string]bool{}
	for _, fi := range st.Files {
		if fi.ModTime().After(now.Add(-store.RacyWindow)) {
			d.racy[fi.Name()] = true
		}
	}
	// The disk bytes of an open file are not used while it is open; d does
	// not keep them (a megabyte for a 10,000-entry file), and is void for
	// that file once it is closed.
	return d.without(open), false, nil
}

// Vouched reports whether a later ReadDisk can tell by a stat that d is
// still what the folder holds, so that d is worth keeping.
func (d *Disk) Vouched() bool { return d.vouched }

// Index is the line index of src, the bytes of d's file at path.
func (d *Disk) Index(path string, src []byte) *text.Index {
	d.mu.Lock()
	defer d.mu.Unlock()
	ix := d.lines[path]
	if ix == nil {
		ix = text.NewIndex(src)
		d.lines[path] = ix
	}
	return ix
}

// ParseOf is the parse d holds of the file at path, when it holds content.
// The parse may be made now, if no view has asked for it yet.
func (d *Disk) ParseOf(path string, content []byte) (rules.File, bool) {
	for i, sf := range d.Snap.Files {
		if sf.Path == path && d.Parsed[i] != nil && bytes.Equal(sf.Data, content) {
			if f := d.Parsed[i](); f.Path == path && bytes.Equal(f.Doc.Src, content) {
				return f, true
			}
		}
	}
	return rules.File{}, false
}

// statDir stats dir and its .md files (store.StatDir); ok is false for
// anything a stat cannot vouch for (no folder, a symlink, an unreadable
// entry).
func statDir(dir string) (st store.DirStat, ok bool) {
	st, err := store.StatDir(dir)
	if err != nil {
		return st, false
	}
	return st, !st.HasSymlink()
}

// matches reports whether the folder still looks as it did before d was
// read. open names the files whose bytes come from buffers: only their
// identity and mode matter (store.Snapshot's verdict on them depends on
// nothing else), not their content.
func (d *Disk) matches(st store.DirStat, open map[string]bool) bool {
	// The folder's own times change with every lock and temp file; its
	// names and their stats below are what the snapshot depends on.
	if !store.SameFileAndMode(d.stat.Dir, st.Dir) || len(st.Files) != len(d.stat.Files) {
		return false
	}
	for i, now := range st.Files {
		was, name := d.stat.Files[i], now.Name()
		switch {
		case was.Name() != name:
			return false
		case open[name]:
			if !store.SameFileAndMode(was, now) {
				return false
			}
		case d.racy[name] || d.unread[name] || !store.SameStat(was, now):
			return false
		}
	}
	return true
}

// without is d without the disk bytes and parses of the files named in
// open, and their line indexes; d itself when it holds none. The snapshot,
// parses and maps are shared with the views d gave, so they are copied, not
// changed.
func (d *Disk) without(open map[string]bool) *Disk {
	holds := func(sf store.File) bool { return open[sf.Name] && sf.Data != nil }
	if !slices.ContainsFunc(d.Snap.Files, holds) {
		return d
	}
	t := &Disk{vouched: d.vouched, stat: d.stat, racy: d.racy, unread: maps.Clone(d.unread),
		Snap:   &store.Snapshot{Dir: d.Snap.Dir, Files: slices.Clone(d.Snap.Files)},
		Parsed: slices.Clone(d.Parsed), lines: map[string]*text.Index{}}
	for i, sf := range t.Snap.Files {
		if holds(sf) {
			t.Snap.Files[i].Data, t.Parsed[i] = nil, nil
			t.unread[sf.Name] = true
		}
	}
	d.mu.Lock()
	for path, ix := range d.lines {
		if !open[filepath.Base(path)] {
			t.lines[path] = ix
		}
	}
	d.mu.Unlock()
	return t
}

// Overlay is d's files with open's buffers in their place (OverlayParsed);
// a nil d gives the buffers alone.
func (d *Disk) Overlay(open map[string]func() rules.File) []rules.File {
	if d == nil {
		return OverlayParsed(nil, nil, open)
	}
	return OverlayParsed(d.Snap, d.Parsed, open)
}
