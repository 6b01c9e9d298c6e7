package repo

import (
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// history is what the repository's history says of paths that no longer
// exist, read once from the last depth commits.
type history struct {
	// gone maps a removed file or folder (from the top) to what became of it.
	gone map[string]gonePath
	// byName maps a last element to the latest removal of any file or
	// folder of that name.
	byName map[string]gonePath
}

type gonePath struct {
	move refs.Move // To from the top
	seq  int       // store.Move.Seq: lower is newer
	// whole says the folder moved as a whole: To is where its files went.
	whole bool
}

// Moved: what the history says of a cited path that does not exist, from
// the root, then from the top; a bare name by the latest removal of any file
// or folder of that name. To is shown as an entry would cite it. Before is
// left to the caller, who knows when the entry was written.
func (r *repo) Moved(cited string) (refs.Move, bool) {
	h := r.history.get(r.readHistory)
	for i, c := range r.candidates(cited) {
		if g, ok := h.gone[c]; ok {
			if i > 0 {
				// cited from the top: where it went is shown from the
				// top too, as the entry would cite it
				return g.move, true
			}
			return r.shownMove(g.move), true
		}
	}
	if name := strings.Trim(cited, "/"); name != "" && !strings.Contains(name, "/") {
		if g, ok := h.byName[name]; ok {
			m := r.shownMove(g.move)
			m.ByName = true
			return m, true
		}
	}
	return refs.Move{}, false
}

func (r *repo) shownMove(m refs.Move) refs.Move {
	if m.To != "" {
		m.To = r.shown(m.To)
	}
	return m
}

// readHistory turns the project's moves into removed files and folders. A
// folder is gone when no file is left in it; it went where its files went
// when a rename kept the part of a file's path below it (src/auth/x.ts →
// lib/auth/x.ts: src/auth went to lib/auth), else it was deleted. The newest
// such move wins, and a whole-folder move over a deletion.
// The moves themselves, read from git, are kept apart: they change only
// with the history, and the folders they leave gone change with the work
// tree.
func (r *repo) readHistory() history {
	h := history{gone: map[string]gonePath{}, byName: map[string]gonePath{}}
	moves := r.answers.moves.get(func() map[string]store.Move { return r.p.MovesCached(r.ctx, r.depth, r.cacheDir) })
	for old, m := range moves {
		if _, ok := r.p.Stat(old); ok {
			continue // back again (restored, or a new file of that name)
		}
		file := gonePath{move: refs.Move{To: m.New, Commit: m.Commit, When: m.When}, seq: m.Seq}
		h.record(old, file)
		for d := path.Dir(old); d != "."; d = path.Dir(d) {
			if _, ok := r.p.Stat(d); ok {
				break
			}
			h.record(d, folderMove(d, old, m))
		}
	}
	return h
}

// folderMove is what a file's move says of its folder d.
func folderMove(d, old string, m store.Move) gonePath {
	g := gonePath{move: refs.Move{Commit: m.Commit, When: m.When}, seq: m.Seq}
	below := old[len(d):] // "/x.ts"
	if to, ok := strings.CutSuffix(m.New, below); ok && to != "" {
		g.move.To, g.whole = to, true
	}
	return g
}

// record keeps g for p (and its last element) unless a better one is there.
func (h *history) record(p string, g gonePath) {
	if cur, ok := h.gone[p]; !ok || g.better(cur) {
		h.gone[p] = g
	}
	name := path.Base(p)
	if cur, ok := h.byName[name]; !ok || g.better(cur) {
		h.byName[name] = g
	}
}

// better: a whole-folder move over anything else, then the newer; within
// one commit, the first new path by name, so that every run picks the same.
func (g gonePath) better(than gonePath) bool {
	switch {
	case g.whole != than.whole:
		return g.whole
	case g.seq != than.seq:
		return g.seq < than.seq
	}
	return g.move.To < than.move.To
}

// Written is when line of the memory file at path was last committed. The
// file is found by its name in the workspace's .memory (memory files lie
// directly in it, so the name is enough whatever form the caller's path
// takes), and blamed once.
func (r *repo) Written(file string, line int) time.Time {
	rel := r.memRel + "/" + path.Base(filepath.ToSlash(file))
	// Blamed again when the file changed on disk: a save that inserts a
	// line moves every line below it, and the repository outlives saves.
	key := rel
	if fi, err := store.Stat(filepath.Join(r.p.Top, filepath.FromSlash(rel))); err == nil {
		key += "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	}
	times := r.answers.blames.get(key, func() []time.Time {
		t, err := r.p.Blame(r.ctx, rel)
		if err != nil {
			return nil // not committed, or no git: every line is new
		}
		// The file's earlier states are not asked again: a server that
		// lives through thousands of saves keeps one blame a file.
		r.answers.blames.dropOthers(rel+"\x00", key)
		return t
	})
	if line < 1 || line > len(times) {
		return time.Time{}
	}
	return times[line-1]
}

// lastChange is a path's last commit, as LastChange reports it.
type lastChange struct {
	commit string
	when   time.Time
	ok     bool
}

// LastChange is the last commit that changed the path Locate finds.
func (r *repo) LastChange(cited string) (string, time.Time, bool) {
	rel, ok := r.resolve(cited)
	if !ok {
		return "", time.Time{}, false
	}
	c := r.answers.changes.get(rel, func() lastChange {
		commit, when, ok := r.p.LastChange(r.ctx, rel)
		return lastChange{commit, when, ok}
	})
	return c.commit, c.when, c.ok
}
