package memory

import (
	"context"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// OpenRepo opens the code beside the workspace at root (the folder holding
// .memory/) as the reference rules judge entries against it: the project's
// files listed once (git's list inside a work tree, else a walk honouring
// .gitignore); the rest — the suffix index, the manifests, the pins, the
// history (cfg.HistoryDepth commits) and the blame of memory files — is read
// on first need and kept. ctx bounds those later git runs too. The Repo is
// safe for concurrent use. An error means the project could not be listed
// at all; a caller then checks without the reference rules.
func OpenRepo(ctx context.Context, root string, cfg config.Config) (rules.Repo, error) {
	p, err := store.OpenProject(ctx, root)
	if err != nil {
		return nil, err
	}
	return newRepo(ctx, p, cfg.HistoryDepth), nil
}

// repo is rules.Repo over a store.Project. Paths an entry cites are
// relative to the workspace root; the project's are relative to the git
// top level. A cited path is tried from the root first, then from the top.
type repo struct {
	ctx     context.Context
	p       *store.Project
	rootRel string // the root from the top, "" when they are one folder
	memRel  string // the .memory folder from the top
	depth   int

	namesOnce sync.Once
	byName    map[string][]string // last element → files and folders with it, from the top

	historyOnce sync.Once
	history     history

	pinsOnce sync.Once
	pins     map[string][]refs.Pin

	manifests lazyMap[manifestRead]
	blames    lazyMap[[]time.Time]
	changes   lazyMap[lastChange]
}

func newRepo(ctx context.Context, p *store.Project, depth int) *repo {
	r := &repo{ctx: ctx, p: p, rootRel: p.RootRel(), depth: depth}
	r.memRel = r.fromRoot(store.DirName)
	return r
}

// fromRoot is a root-relative path as the top sees it.
func (r *repo) fromRoot(rel string) string {
	if r.rootRel == "" {
		return rel
	}
	if rel == "" {
		return r.rootRel
	}
	return r.rootRel + "/" + rel
}

// shown is a top-relative path as an entry would cite it: from the root
// when it lies below it, else from the top (which a cited path is tried
// from next).
func (r *repo) shown(top string) string {
	if r.rootRel == "" {
		return top
	}
	if rel, ok := strings.CutPrefix(top, r.rootRel+"/"); ok {
		return rel
	}
	return top
}

// candidates are the top-relative paths a cited path may name: from the
// root, then from the top. A path that leaves the project names nothing.
func (r *repo) candidates(cited string) []string {
	cited = strings.TrimSuffix(cited, "/")
	if cited == "" || path.IsAbs(cited) {
		return nil
	}
	var out []string
	for _, c := range []string{path.Join(r.rootRel, cited), path.Clean(cited)} {
		if c == "." || c == ".." || strings.HasPrefix(c, "../") {
			continue
		}
		if len(out) == 0 || out[0] != c {
			out = append(out, c)
		}
	}
	return out
}

// existing is the first candidate of cited that exists.
func (r *repo) existing(cited string) (rel string, isDir, ok bool) {
	for _, c := range r.candidates(cited) {
		if isDir, ok := r.p.Stat(c); ok {
			return c, isDir, true
		}
	}
	return "", false, false
}

func (r *repo) HasCode() bool { return len(r.p.Files) > 0 }

func (r *repo) Stat(cited string) (isDir, ok bool) {
	_, isDir, ok = r.existing(cited)
	return isDir, ok
}

// Ignored: what .gitignore matches from the root or from the top. The
// workspace's own .memory is never judged (its files are not the code),
// and when the walk outside git stopped at its bound, a path it did not
// list proves nothing either: both read as ignored, which keeps them silent.
func (r *repo) Ignored(cited string) bool {
	cs := r.candidates(cited)
	for _, c := range cs {
		if c == r.memRel || strings.HasPrefix(c, r.memRel+"/") {
			return true
		}
		if r.p.Ignored(c, false) || r.p.Ignored(c, true) {
			return true
		}
	}
	if r.p.Truncated {
		_, _, ok := r.existing(cited)
		return !ok
	}
	return false
}

func (r *repo) EndsWith(cited string) bool {
	return len(r.ending(cited, 1)) > 0
}

// ending returns up to limit files or folders whose path is cited or ends
// with "/" + cited, from the top.
func (r *repo) ending(cited string, limit int) []string {
	cited = strings.Trim(cited, "/")
	if cited == "" {
		return nil
	}
	r.namesOnce.Do(r.indexNames)
	var out []string
	for _, f := range r.byName[path.Base(cited)] {
		if f == cited || strings.HasSuffix(f, "/"+cited) {
			out = append(out, f)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// indexNames maps each last element to the files and folders ending in it:
// one entry per file and folder, where an index of every suffix would hold
// one per path element.
func (r *repo) indexNames() {
	r.byName = make(map[string][]string, len(r.p.Files))
	seen := map[string]bool{}
	for _, f := range r.p.Files {
		r.byName[path.Base(f)] = append(r.byName[path.Base(f)], f)
		for d := path.Dir(f); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			r.byName[path.Base(d)] = append(r.byName[path.Base(d)], d)
		}
	}
}

// Locate: the cited path from the root or the top, else the one path it
// ends (none when several do: a link must not guess).
func (r *repo) Locate(cited string) (string, bool) {
	rel, ok := r.resolve(cited)
	if !ok {
		return "", false
	}
	return filepath.Join(r.p.Top, filepath.FromSlash(rel)), true
}

// resolve is the top-relative path of an existing cited path, as Locate
// finds it.
func (r *repo) resolve(cited string) (string, bool) {
	if rel, _, ok := r.existing(cited); ok {
		return rel, true
	}
	if m := r.ending(cited, 2); len(m) == 1 {
		return m[0], true
	}
	return "", false
}

// lazyMap computes each key's value once, on first need, without holding
// its lock while computing (a git run may take a while, and other keys
// should not wait for it).
type lazyMap[T any] struct {
	mu sync.Mutex
	m  map[string]*lazyValue[T]
}

type lazyValue[T any] struct {
	once sync.Once
	v    T
}

func (l *lazyMap[T]) get(key string, compute func() T) T {
	l.mu.Lock()
	e := l.m[key]
	if e == nil {
		if l.m == nil {
			l.m = map[string]*lazyValue[T]{}
		}
		e = &lazyValue[T]{}
		l.m[key] = e
	}
	l.mu.Unlock()
	e.once.Do(func() { e.v = compute() })
	return e.v
}
