package memory

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

// UpdatableRepo is a rules.Repo that follows changes to the code without
// being opened again: the one OpenRepo returns.
type UpdatableRepo interface {
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

var _ UpdatableRepo = (*repo)(nil)

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
	n := &repo{ctx: r.ctx, p: p, rootRel: r.rootRel, memRel: r.memRel, depth: r.depth,
		names: r.names, ignoring: r.ignoring, moves: r.moves, pins: r.pins,
		manifestsBelow: r.manifestsBelow, manifestsThen: r.manifestsThen, blames: r.blames, changes: r.changes,
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
	if d.Ignore || slices.ContainsFunc(files, func(f string) bool { return path.Base(f) == ".gitignore" }) {
		n.ignoring = new(lazy[[]string])
	}
	if d.History {
		n.moves, n.blames, n.changes = new(lazy[map[string]store.Move]), new(lazyMap[[]time.Time]), new(lazyMap[lastChange])
		n.manifestsThen = new(lazyMap[manifestRead])
	}
	// A manifest is read again when it changed, came or went; the pins
	// when a file directly in the root or the top did, a pin file or a
	// workflow anywhere, or a folder (which may hold a subproject's).
	touched := slices.Concat(d.Named, files)
	n.manifests = r.manifests.without(func(f string) bool {
		return slices.ContainsFunc(touched, func(t string) bool { return t == f || strings.HasPrefix(f, t+"/") })
	})
	if slices.ContainsFunc(files, isManifestName) {
		n.manifestsBelow = new(lazyMap[[]string])
	}
	if slices.ContainsFunc(touched, func(t string) bool {
		return !strings.Contains(t, "/") || path.Dir(t) == r.rootRel || refs.PinFile(path.Base(t)) ||
			refs.WorkflowFile(t) || !strings.Contains(path.Base(t), ".")
	}) {
		n.pins = new(lazy[pinSets])
	}
	return n, d, nil
}

// isManifestName reports whether f is named as some tool's manifest.
func isManifestName(f string) bool {
	for t := refs.Make; t <= refs.Task; t++ {
		if slices.Contains(refs.ManifestNames(t), path.Base(f)) {
			return true
		}
	}
	return false
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
