package repo

import (
	"context"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Updatable is a rules.Repo that follows changes to the code without
// being opened again: the one Open returns.
type Updatable interface {
	rules.Repo
	// Update returns the repository after changes at the paths named
	// (absolute; both names of a rename; a folder for all below it; git's
	// own files need not be named, the index and the history are looked at
	// on every call), judging every path, command and version exactly as a
	// repository opened now would. The receiver is not changed: a check
	// running against it is not disturbed, and the result shares with it
	// what the changes did not touch. The Delta says what changed (nothing:
	// the result is the receiver). An error means the project could not be
	// listed at all.
	Update(ctx context.Context, changed []string) (rules.Repo, store.Delta, error)
}

var _ Updatable = (*repo)(nil)

// maxDerivedNames bounds the paths a derived name index keeps apart from
// the part it shares; past it the index is built afresh on next need.
const maxDerivedNames = 4096

func (r *repo) Update(ctx context.Context, changed []string) (rules.Repo, store.Delta, error) {
	p, d, err := r.p.Update(ctx, changed)
	if err != nil {
		return nil, d, err
	}
	if !d.Changed() {
		return r, d, nil
	}
	if d.Relisted {
		return newRepo(r.ctx, p, r.depth), d, nil
	}
	n := &repo{id: new(repoToken), ctx: r.ctx, p: p, rootRel: r.rootRel, memRel: r.memRel, depth: r.depth, cacheDir: r.cacheDir,
		names: r.names, ignoring: r.ignoring, moves: r.moves, pins: r.pins,
		manifestsBelow: r.manifestsBelow, manifestsThen: r.manifestsThen, rootsThen: r.rootsThen, commitsBefore: r.commitsBefore, blames: r.blames, changes: r.changes,
		// Which moved paths are gone, and their folders, is read from the
		// work tree: read again.
		history: new(lazy[history])}
	files := slices.Concat(d.Added, d.Removed)
	if len(files) > 0 {
		n.names = new(lazy[nameIndex])
		if old, ok := r.names.ready(); ok {
			if x, ok := old.derive(r.p.Files, p.Files, d.Added, d.Removed); ok {
				n.names.get(func() nameIndex { return x })
			}
		}
	}
	if d.Ignore {
		n.ignoring = new(lazy[[]string])
	}
	if d.History {
		n.moves, n.blames, n.changes = new(lazy[map[string]store.Move]), new(lazyMap[[]time.Time]), new(lazyMap[lastChange])
		n.commitsBefore = new(lazyMap[string]) // a file at a commit never changes, which commit is newest may
	}
	// A manifest is read again when it changed, came or went; the pins
	// when a file directly in the root or the top did, a pin file or a
	// workflow anywhere, or a folder (which may hold a subproject's).
	touched := slices.Concat(d.Named, files)
	n.manifests = r.manifests.without(func(f string) bool {
		return slices.ContainsFunc(touched, func(t string) bool { return t == f || strings.HasPrefix(f, t+"/") })
	})
	if slices.ContainsFunc(files, func(f string) bool { return refs.IsManifest(path.Base(f)) }) {
		n.manifestsBelow = new(lazyMap[[]string])
	}
	if pinsMayChange(r.rootRel, touched) {
		n.pins = new(lazy[pinSets])
	}
	n.lineage = append(slices.Clone(r.lineage[max(0, len(r.lineage)-maxLineage+1):]), step{from: r.id, d: d})
	return n, d, nil
}

// pinsMayChange reports whether the pins may read otherwise after changes
// at touched (from the top): a file directly in the root or the top did, a
// pin file or a workflow anywhere, or a folder (which may hold a
// subproject's).
func pinsMayChange(rootRel string, touched []string) bool {
	return slices.ContainsFunc(touched, func(t string) bool {
		return !strings.Contains(t, "/") || path.Dir(t) == rootRel || refs.PinFile(path.Base(t)) ||
			refs.WorkflowFile(t) || !strings.Contains(path.Base(t), ".")
	})
}

// A repository remembers the last maxLineage Updates that led to it, so
// that a check judged against any of those ancestors can tell which
// verdicts still hold (ChangesSince).
const maxLineage = 8

// maxChangedPaths bounds the changed paths ChangesSince weighs: past it,
// everything is judged again (that is cheaper than weighing each verdict
// against thousands of paths).
const maxChangedPaths = 256

// step is one Update: the repository it started from, and what changed.
type step struct {
	from *repoToken
	d    store.Delta
}

// repoToken names a repository in its descendants' lineage, by identity: a
// pointer to it keeps nothing else alive (not a byte of size 0, whose
// pointers Go may make equal).
type repoToken struct{ _ byte }

var _ rules.DerivedRepo = (*repo)(nil)

// ChangesSince: old must be the receiver or one of its last maxLineage
// ancestors, and the Updates since must have changed neither the history,
// the ignore rules (a .gitignore) nor the listing as a whole.
func (r *repo) ChangesSince(old rules.Repo) (rules.RepoChange, bool) {
	o, ok := old.(*repo)
	if !ok {
		return nil, false
	}
	if o == r {
		return &repoChange{r: r}, true
	}
	i := slices.IndexFunc(r.lineage, func(s step) bool { return s.from == o.id })
	if i < 0 || r.p.Truncated || o.p.Truncated || r.HasCode() != o.HasCode() || r.rootRel != o.rootRel {
		return nil, false
	}
	var touched []string
	for _, s := range r.lineage[i:] {
		if s.d.History || s.d.Ignore || s.d.Relisted {
			return nil, false
		}
		touched = append(append(append(touched, s.d.Named...), s.d.Added...), s.d.Removed...)
	}
	if len(touched) > maxChangedPaths {
		return nil, false
	}
	return &repoChange{r: r, touched: touched, pins: pinsMayChange(r.rootRel, touched)}, true
}

// repoChange is what changed at the paths touched (from the top), as r
// sees it.
type repoChange struct {
	r       *repo
	touched []string
	pins    bool
	// movedNames: movedNamesBelow, once asked; all: the history was not
	// read, and any bare name may be answered otherwise.
	movedNames map[string]bool
	all        bool
}

// Path: a cited path may be answered otherwise when a changed path is it,
// lies below it or above it (from the root or the top), or ends with it or
// passes through it (Endings and Moved by name count by the last
// elements).
//
// A bare name is also asked of the history by name (Moved): any file or
// folder of that name the history shows gone counts, and a changed folder
// makes every moved path below it come or go. So a bare name is answered
// otherwise, too, when it names an element of a moved path at or below a
// changed path.
func (c *repoChange) Path(cited string) bool {
	if len(c.touched) == 0 {
		return false
	}
	name := strings.Trim(cited, "/")
	if !strings.Contains(name, "/") {
		if below := c.movedNamesBelow(); c.all || below[name] {
			return true
		}
	}
	cs := c.r.candidates(cited)
	within := "/" + name + "/"
	return slices.ContainsFunc(c.touched, func(t string) bool {
		return strings.Contains("/"+t+"/", within) || slices.ContainsFunc(cs, func(x string) bool { return related(x, t) || stemOf(x, t) })
	})
}

// movedNamesBelow are the elements of the paths the history moved or
// deleted that lie at or below a changed path, read once; when the
// history was not read, it sets all: any name may be.
func (c *repoChange) movedNamesBelow() map[string]bool {
	if c.movedNames != nil {
		return c.movedNames
	}
	c.movedNames = map[string]bool{}
	moves, ok := c.r.moves.ready()
	if !ok {
		c.all = true
	}
	for old := range moves {
		if slices.ContainsFunc(c.touched, func(t string) bool { return related(old, t) }) {
			for _, e := range strings.Split(old, "/") {
				c.movedNames[e] = true
			}
		}
	}
	return c.movedNames
}

// Manifest: a manifest of tool for dir is found otherwise, or reads
// otherwise, when a changed path is one of the files Manifest looks for,
// or lies above or below one.
func (c *repoChange) Manifest(tool refs.Tool, dir string) bool {
	for _, folder := range c.r.manifestFolders(dir) {
		for _, name := range refs.ManifestNames(tool) {
			f := join(folder, name)
			if slices.ContainsFunc(c.touched, func(t string) bool { return related(f, t) }) {
				return true
			}
		}
	}
	return false
}

// ListedBelow: a changed path passes through a file named as tool's
// manifest, or may be a folder.
func (c *repoChange) ListedBelow(tool refs.Tool) bool {
	names := refs.ManifestNames(tool)
	return slices.ContainsFunc(c.touched, func(t string) bool {
		return !strings.Contains(path.Base(t), ".") ||
			slices.ContainsFunc(strings.Split(t, "/"), func(e string) bool { return slices.Contains(names, e) })
	})
}

func (c *repoChange) Pins() bool { return c.pins }

// stemOf reports whether file is stem with an extension (parser.rs of
// parser): its coming or going changes Stem's answer for stem.
func stemOf(stem, file string) bool {
	rest, ok := strings.CutPrefix(file, stem+".")
	return ok && !strings.Contains(rest, "/")
}

// related reports whether paths a and b are one, or one lies below the
// other.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}

// derive is the index of the files after added and removed changed before
// into after: x shared, the differences noted apart. ok is false when they
// are too many, and the index is better built afresh.
func (x nameIndex) derive(before, after, added, removed []string) (nameIndex, bool) {
	if len(x.hidden)+len(x.extra)+len(added)+len(removed) > maxDerivedNames {
		return nameIndex{}, false
	}
	n := x
	n.hidden = make(map[string]bool, len(x.hidden)+len(removed))
	for p := range x.hidden {
		n.hidden[p] = true
	}
	n.extra = make(map[string][]string, len(x.extra)+len(added))
	for name, ps := range x.extra {
		n.extra[name] = ps
	}
	remove := func(p string) {
		name := path.Base(p)
		if i := slices.Index(n.extra[name], p); i >= 0 {
			n.extra[name] = slices.Delete(slices.Clone(n.extra[name]), i, i+1)
		} else {
			n.hidden[p] = true
		}
	}
	add := func(p string) {
		if n.hidden[p] {
			delete(n.hidden, p)
			return
		}
		name := path.Base(p)
		n.extra[name] = append(slices.Clip(n.extra[name]), p)
	}
	// A folder is in the index while it holds a file.
	each := func(files, other []string, do func(string)) {
		seen := map[string]bool{}
		for _, f := range files {
			do(f)
			for d := path.Dir(f); d != "." && !seen[d]; d = path.Dir(d) {
				seen[d] = true
				if !holds(other, d) {
					do(d) // gone with its last file, or new with its first
				}
			}
		}
	}
	each(removed, after, remove)
	each(added, before, add)
	return n, true
}

// holds reports whether a sorted list of files has one below folder d.
func holds(files []string, d string) bool {
	i, _ := slices.BinarySearch(files, d+"/")
	return i < len(files) && strings.HasPrefix(files[i], d+"/")
}
