package lsp

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsnotify/fsnotify"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

// A folder's repository (repo.go) is voided, and the folder checked again,
// when the code changes in a way a verdict can depend on:
//
//   - a file or folder is created, deleted or renamed where it matters: a
//     cited path, one of its folders, or a file that comes or goes in a
//     cited folder or beside a cited path with an extension (`src/utils.ts`
//     for `src/utils`; memory.Interest.Cited), a file named as a cited
//     path ends (a bare `session.ts`), anything directly in the root
//     (whether the root holds code), a manifest; never an ignored path (a
//     build, an install);
//   - a manifest's or a .gitignore's content changes (targets, scripts,
//     pins, ignore rules), or an agent's instruction file a memory file
//     links to (memory.Interest.Links). A cited file's content is never
//     judged, only its existence, so editing it voids nothing;
//   - git's HEAD, index, packed-refs, HEAD's log or shallow file change (a
//     commit, a checkout, a `git mv`, an undone commit, a deepened clone):
//     the history the renames come from moved. Git's folder is found again
//     at each change, so a `git init` after the server started is seen.
//
// Where the client can watch files for us (dynamic registration of
// didChangeWatchedFiles), it is asked to send those events: manifests by
// name, every creation and deletion, and git's files. A git folder outside
// the workspace (a worktree's, a submodule's) is beyond the client's
// watchers, so the server watches it itself. Otherwise the server watches
// (fsnotify, never recursively): the root, git's folder and its logs, each
// cited folder and the folder of each cited path that exists (or the
// nearest existing folder of one that does not, to see it come back),
// where a cited path was moved, the folder of each manifest a command or
// version names and of each linked instruction file, at most
// maxReferenceDirs folders in all.

// maxReferenceDirs bounds the folders the server watches for references, for
// all served folders together.
const maxReferenceDirs = 256

// clientReferenceWatchID is the id of the registration for code events.
const clientReferenceWatchID = "memory-lsp/watched-references"

// referenceWatchers are the client's watchers for code events.
func referenceWatchers() []protocol.FileSystemWatcher {
	createDelete := protocol.WatchKindCreate | protocol.WatchKindDelete
	var ws []protocol.FileSystemWatcher
	for _, g := range memory.VerdictFileGlobs() {
		ws = append(ws, protocol.FileSystemWatcher{GlobPattern: g})
	}
	for _, n := range memory.GitFiles() {
		ws = append(ws, protocol.FileSystemWatcher{GlobPattern: "**/.git/" + filepath.ToSlash(n)})
	}
	return append(ws, protocol.FileSystemWatcher{GlobPattern: "**/*", Kind: &createDelete})
}

// registerReferenceWatch asks the client for code events. A client that
// refuses leaves them to the server's own watcher. It calls the client, so
// it runs in a goroutine.
func (s *Server) registerReferenceWatch(ctx context.Context) {
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              clientReferenceWatchID,
		Method:          "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: referenceWatchers()},
	}}}
	err := s.call(ctx, "client/registerCapability", params, nil)
	if err == nil || s.connClosed() {
		return
	}
	s.log.Warningf("registering for changes to the code: %v; watching the cited folders instead", err)
	s.mu.Lock()
	s.refsByClient = false
	s.mu.Unlock()
	for _, f := range s.served() {
		f.pub.Lock()
		f.followed = nil
		s.followReferences(f)
		f.pub.Unlock()
	}
}

// followReferences notes what f's last check cites and, when the server
// watches the code itself, watches the folders that holds. f.pub is held.
func (s *Server) followReferences(f *folder) {
	last := f.last
	sc := f.scope.Load()
	if last == nil || f.followed == last || sc == nil {
		return
	}
	dirs, in := s.citedWatch(f, last, sc)
	files := make(map[string]bool, len(last.v.files))
	for i := range last.v.files {
		files[last.v.files[i].Path] = true
	}
	f.cites.KeepOnly(files)
	f.interest.Store(in)
	s.mu.Lock()
	w, byClient := s.watch, s.refsByClient
	s.mu.Unlock()
	switch {
	case byClient:
		s.watchLinksByClient(f, in.Links)
		if w != nil {
			// The client's globs cover the workspace folder's files: a
			// git folder beyond it is watched here, or a commit goes
			// unseen.
			var git []string
			if sc.GitDirBeyondRoot() {
				git = []string{sc.GitDir, filepath.Join(sc.GitDir, "logs")}
			}
			if w.followDirs(f, git) && last.repo.get() != nil {
				// as below: what git did before its folder was watched
				s.repoChanged(f, nil, true, true, 0)
			}
		}
		f.followed = last
		return
	case w == nil:
		return // not watching yet (before initialized): again at the next publish
	}
	if w.followDirs(f, dirs) && last.repo.get() != nil {
		// A commit, a checkout or a git mv made before git's folder was
		// watched would go unseen: the repository is listed again now (no
		// check when the listing and the history read as before). One
		// that could not be opened is tried again after a real change
		// only.
		s.repoChanged(f, nil, true, true, 0)
	}
	f.followed = last
}

// clientLinkWatchID is the id of the registration for changes to the files
// the agents' instruction files link to.
const clientLinkWatchID = "memory-lsp/instruction-links"

// watchLinksByClient asks the client to send changes to links, the files
// folder f's agents' instruction files link to (memory.InstructionLinks),
// which the globs of referenceWatchers need not cover: docs/agents.md
// behind AGENTS.md. The registration covers every folder's; it is made
// again, in a goroutine (it calls the client), when a folder's set grows.
func (s *Server) watchLinksByClient(f *folder, links map[string]bool) {
	s.mu.Lock()
	grew := false
	for p := range links {
		if !s.linkWatch[p] {
			if s.linkWatch == nil {
				s.linkWatch = map[string]bool{}
			}
			s.linkWatch[p], grew = true, true
		}
	}
	s.mu.Unlock()
	if !grew {
		return
	}
	go func() {
		ctx := context.Background()
		s.linkReg.Lock()
		defer s.linkReg.Unlock()
		// the set as it is now, not as it was when this was asked: two
		// folders' registrations may run in either order
		s.mu.Lock()
		var ws []protocol.FileSystemWatcher
		for p := range s.linkWatch {
			ws = append(ws, protocol.FileSystemWatcher{GlobPattern: filepath.ToSlash(p)})
		}
		s.mu.Unlock()
		slices.SortFunc(ws, func(a, b protocol.FileSystemWatcher) int { return strings.Compare(a.GlobPattern, b.GlobPattern) })
		if s.linkRegistered {
			// a registration of an id is made once: the earlier one goes first
			unreg := protocol.UnregistrationParams{Unregisterations: []protocol.Unregistration{{ID: clientLinkWatchID, Method: "workspace/didChangeWatchedFiles"}}}
			if err := s.call(ctx, "client/unregisterCapability", unreg, nil); err != nil {
				s.log.Warningf("unregistering the watch of linked instruction files: %v", err)
			}
		}
		params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID:              clientLinkWatchID,
			Method:          "workspace/didChangeWatchedFiles",
			RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: ws},
		}}}
		err := s.call(ctx, "client/registerCapability", params, nil)
		s.linkRegistered = err == nil
		if err != nil && !s.connClosed() {
			s.log.Warningf("registering for changes to the files the agents' instruction files of %s link to: %v", f.dir, err)
		}
	}()
}

// followDirs makes dirs the folders watched for f's references, and
// reports whether it started watching one.
func (w *watcher) followDirs(f *folder, dirs []string) (added bool) {
	defer w.reportLost()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	want := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		want[d] = true
	}
	for d, owners := range w.refDirs {
		if owners[f] && !want[d] {
			w.unfollow(d, f)
		}
	}
	for _, d := range dirs {
		owners := w.refDirs[d]
		if owners == nil {
			if len(w.refDirs) >= maxReferenceDirs {
				if !w.capped {
					w.capped = true
					w.s.log.Infof("watching %d folders for changes to cited files; changes in the others are seen at the next check", maxReferenceDirs)
				}
				continue
			}
			if w.add(d) != nil {
				continue // gone since, or not watchable: nothing to see there
			}
			owners = map[*folder]bool{}
			w.refDirs[d] = owners
			added = true
		}
		owners[f] = true
	}
	return added
}

// unfollow ends f's interest in d. w.mu is held.
func (w *watcher) unfollow(d string, f *folder) {
	owners := w.refDirs[d]
	delete(owners, f)
	if len(owners) == 0 {
		delete(w.refDirs, d)
		w.drop(d)
	}
}

// unwatchReferences ends the watches of a folder the server no longer
// serves.
func (s *Server) unwatchReferences(f *folder) {
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w != nil {
		w.followDirs(f, nil)
	}
}

// referenceOwners are the folders following the folder an event name is
// in, or following name itself when it is removed (then its watch has
// ended). w.mu is held.
func (w *watcher) referenceOwners(name string, ev fsnotify.Event) []*folder {
	var out []*folder
	for f := range w.refDirs[filepath.Dir(name)] {
		out = append(out, f)
	}
	if owners := w.refDirs[name]; owners != nil && ev.Has(fsnotify.Remove|fsnotify.Rename) {
		for f := range owners {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
		delete(w.refDirs, name)
		w.drop(name)
	}
	return out
}

// fileChange is what happened to a file.
type fileChange int

const (
	fileCreated fileChange = iota + 1
	fileChanged
	fileDeleted
)

// changeOf reads an fsnotify event; 0 for one that changes nothing read.
func changeOf(ev fsnotify.Event) fileChange {
	switch {
	case ev.Has(fsnotify.Create):
		return fileCreated
	case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		return fileDeleted
	case ev.Has(fsnotify.Write):
		return fileChanged
	}
	return 0
}

// concerns reports what a change to the file at name means for f's
// repository: follow, whether the repository must follow it (every file
// created or deleted, a manifest's or a .gitignore's content, git's own
// files; not a change of content the rules never read, nor anything in
// .memory or outside the repository); republish, whether a verdict of f's
// references may change with it (see the top of this file), so that the
// folder is checked again once it is followed. at is name as the
// repository spells it.
func concerns(f *folder, name string, ch fileChange) (at string, follow, republish bool) {
	sc := f.scope.Load()
	if sc == nil || ch == 0 {
		return "", false, false // never built: nothing to follow
	}
	name = sc.Spelled(filepath.Dir(f.key), name)
	if sc.InGitDir(name) {
		// Every opening lists the index and reads HEAD: no path to hand
		// over.
		git := sc.IsGitFile(name)
		return "", git, git
	}
	in := f.interest.Load()
	if in != nil && in.LinkedTo(name) {
		// the file an agent's instruction file links to, wherever it is
		return name, true, true
	}
	if !sc.Within(name) || filepath.Base(filepath.Dir(name)) == memory.DirName || filepath.Base(name) == memory.DirName {
		return "", false, false
	}
	base := filepath.Base(name)
	fromTop, inTop := memory.RootRelative(sc.Top, name)
	if !inTop {
		fromTop = base
	}
	manifest := memory.VerdictFile(fromTop)
	if ch == fileChanged && !manifest {
		return "", false, false
	}
	rel, inRoot := memory.RootRelative(sc.Root, name)
	if st := f.repo.Load(); inRoot && st != nil && st.repo != nil && st.repo.Ignored(rel) {
		// Followed all the same: what the rules take for ignored (a
		// subproject's build folder) may be a file git lists.
		return name, true, false
	}
	switch {
	case manifest, in == nil:
		return name, true, true
	case !inRoot:
		// Beside the root in the work tree: a path cited from the top.
		if inTop {
			return name, true, cites(in, fromTop, base)
		}
		return name, true, false
	}
	return name, true, !strings.Contains(rel, "/") || cites(in, rel, base)
}

// cites reports whether what an entry cites may read otherwise now that
// rel (named base) came or went: rel itself or one of its folders, a file
// of a cited name, a file in a cited folder (its first, docs/adr/), or a
// cited path with an extension (src/utils.ts for `src/utils`).
func cites(in *memory.Interest, rel, base string) bool {
	return in.Paths[rel] || in.Names[base] || in.Cited[path.Dir(rel)] || in.Cited[strings.TrimSuffix(rel, path.Ext(rel))]
}

// codeChanged hands the change of name to the repository of each folder in
// owners it concerns, after the watcher's debounce.
func (s *Server) codeChanged(owners []*folder, name string, ch fileChange) {
	for _, f := range owners {
		if at, follow, republish := concerns(f, name, ch); follow && s.isServed(f) {
			var paths []string
			if at != "" {
				paths = []string{at}
			}
			s.repoChanged(f, paths, at == "", republish, codeDebounce)
		}
	}
}

// clientCodeChanges hands the client's events for files that are not
// memory files to the repository of each served folder they concern, at
// once: the client gathered them already.
func (s *Server) clientCodeChanges(changes []protocol.FileEvent) {
	type work struct {
		paths          []string
		git, republish bool
	}
	folders := s.served()
	todo := map[*folder]*work{}
	for _, ch := range changes {
		p, err := pathOf(ch.URI)
		if err != nil || memory.IsMemoryFile(p) {
			continue
		}
		var c fileChange
		switch ch.Type {
		case protocol.FileChangeTypeCreated:
			c = fileCreated
		case protocol.FileChangeTypeChanged:
			c = fileChanged
		case protocol.FileChangeTypeDeleted:
			c = fileDeleted
		}
		for _, f := range folders {
			at, follow, republish := concerns(f, p, c)
			if !follow {
				continue
			}
			w := todo[f]
			if w == nil {
				w = &work{}
				todo[f] = w
			}
			if at != "" {
				w.paths = append(w.paths, at)
			} else {
				w.git = true
			}
			w.republish = w.republish || republish
		}
	}
	for _, f := range folders {
		if w := todo[f]; w != nil {
			s.repoChanged(f, w.paths, w.git, w.republish, 0)
		}
	}
}
