package lsp

import (
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// citedWatch is what the entries of last's files cite and the folders to
// watch for them, each once, in order (the work tree's root and git's
// folders first), read from was, what an earlier call found in each file
// (nil: nothing), and what this call found, to pass to the next. f.pub is
// held.
func (s *Server) citedWatch(f *folder, last *checked, sc *memory.RepoScope, was map[string]*citedFile) (dirs []string, in *memory.Interest, found map[string]*citedFile) {
	repo := last.repo.get()
	if repo != nil {
		repo = &locatedOnce{Repo: repo, at: map[string]located{}}
	}
	in = memory.NewInterest()
	all := []string{sc.Root}
	if sc.GitDir != "" {
		all = append(all, sc.GitDir, filepath.Join(sc.GitDir, "logs"))
	}
	found = make(map[string]*citedFile, len(last.v.files))
	for i := range last.v.files {
		file := &last.v.files[i]
		// by entry, not f.cites.In: the spans are not needed, and a list
		// of every citation is 16 MB at 100,000 entries
		c := citedOf(was[file.Path], last.repo, sc, repo, f.cites.Of(file))
		found[file.Path] = c
		all = append(all, c.dirs...)
		for _, p := range c.paths {
			in.Paths[p] = true
		}
		for _, p := range c.cited {
			in.Cited[p] = true
		}
		for _, n := range c.names {
			in.Names[n] = true
		}
	}
	for _, target := range memory.InstructionLinks(sc.Root) {
		in.Links[target] = true
		all = append(all, filepath.Dir(target))
	}
	seen := make(map[string]bool, len(all))
	for _, d := range all {
		if !seen[d] && filepath.Base(d) != memory.DirName {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs, in, found
}

// citedFile is what the entries of one file cite (memory.CitedDirs of each of
// their references), kept between publishes: after a store the other files'
// references are the same slices, and the stored file's are those of before
// with one entry more, while each pass over all of them located and stat'ed
// every cited path of 100,000 entries again. It holds for one build of the
// repository (a change to the code that can move an answer makes another,
// repo.go) and one scope.
type citedFile struct {
	st      *repoState
	sc      *memory.RepoScope
	entries []memory.EntryCites // the references it was read from (memory.Citations.Of)
	// the folders to watch, each once, in order, and what they cite
	// (interest's paths, cited paths and names), each once: lists, not
	// sets, so that they cost a string each beside the folder's interest,
	// which holds them all too
	dirs, paths, cited, names []string
}

// citedOf is c brought up to entries: c itself when they are the ones it
// was read from, c with the entries added when they begin with those
// (an append), else read afresh. repo is st's repository, as this pass
// locates with it; c may be nil. Without a build nothing is kept: what
// memory.CitedDirs finds then rests on no build that a change would replace.
func citedOf(c *citedFile, st *repoState, sc *memory.RepoScope, repo rules.Repo, entries []memory.EntryCites) *citedFile {
	from := 0
	switch {
	case c == nil || st == nil || c.st != st || c.sc != sc || len(entries) < len(c.entries) || !sameRefs(c.entries, entries[:len(c.entries)]):
		c = &citedFile{st: st, sc: sc}
	case len(entries) == len(c.entries):
		return c
	default:
		from = len(c.entries) // read on: only the pass that replaces c held it
	}
	in := &memory.Interest{Paths: setOf(c.paths), Cited: setOf(c.cited), Names: setOf(c.names)}
	seen := setOf(c.dirs)
	for _, ec := range entries[from:] {
		for _, r := range ec.Refs {
			for _, d := range memory.CitedDirs(repo, sc.Root, sc.Within, r, in) {
				if !seen[d] {
					seen[d] = true
					c.dirs = append(c.dirs, d)
				}
			}
		}
	}
	c.paths = appendNew(c.paths, in.Paths)
	c.cited = appendNew(c.cited, in.Cited)
	c.names = appendNew(c.names, in.Names)
	c.entries = entries
	return c
}

// setOf is the set of list's strings.
func setOf(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// appendNew appends to list, which holds some of set's strings, the others.
func appendNew(list []string, set map[string]bool) []string {
	if len(list) == len(set) {
		return list
	}
	had := setOf(list)
	for s := range set {
		if !had[s] {
			list = append(list, s)
		}
	}
	return list
}

// sameRefs reports whether a and b hold the same entries' reference
// lists (the same slices, as memory.Citations hands out for unchanged entries).
func sameRefs(a, b []memory.EntryCites) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true // the same list: an unchanged file's
	}
	for i := range a {
		if a[i].Entry != b[i].Entry || len(a[i].Refs) != len(b[i].Refs) || (len(a[i].Refs) > 0 && &a[i].Refs[0] != &b[i].Refs[0]) {
			return false
		}
	}
	return true
}
