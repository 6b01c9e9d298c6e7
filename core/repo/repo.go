package repo

import (
	"context"
	"iter"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Open opens the code beside the workspace at root (the folder holding
// .memory/) as the reference rules judge entries against it: the project's
// files listed once (git's list inside a work tree, else a walk honouring
// .gitignore); the rest — the name index, the manifests, the pins, the
// history (cfg.HistoryDepth commits) and the blame of memory files — is read
// on first need and kept. ctx bounds those later git runs too. The Repo is
// safe for concurrent use. An error means the project could not be listed
// at all; a caller then checks without the reference rules.
func Open(ctx context.Context, root string, cfg config.Config) (rules.Repo, error) {
	return OpenCaching(ctx, root, cfg, "")
}

// OpenCaching is Open keeping the history's moves in the cache folder
// cacheDir, when given (store.Project.MovesCached): for a one-shot process.
func OpenCaching(ctx context.Context, root string, cfg config.Config, cacheDir string) (rules.Repo, error) {
	p, err := store.OpenProject(ctx, root)
	if err != nil {
		return nil, err // not a nil *repo in a non-nil interface
	}
	r := newRepo(ctx, p, cfg.HistoryDepth)
	r.cacheDir = cacheDir
	return r, nil
}

// Reopener is a rules.Repo that can be opened again after a change to the
// code: the one Open returns.
type Reopener interface {
	rules.Repo
	// Reopen lists the project again, as Open would now. What git's
	// history answered is kept while the history is the same
	// (store.Project.SameHistory): it is most of a repository's cost in a
	// project with a history (BenchmarkReferenceChangeToPublish), and a
	// change to the work tree does not alter it. workTree says paths of the
	// work tree changed, not only git's own files: without, a listing and
	// a history that read as before (a `git status` rewriting the index,
	// a fetch) are no change, and the receiver itself is returned. The
	// receiver is not changed: a check running against it is not
	// disturbed. An error means the project could not be listed at all.
	Reopen(ctx context.Context, workTree bool) (rules.Repo, error)
}

var _ Reopener = (*repo)(nil)

func (r *repo) Reopen(ctx context.Context, workTree bool) (rules.Repo, error) {
	p, err := store.OpenProject(ctx, r.p.Root)
	if err != nil {
		return nil, err
	}
	if !workTree && p.Same(r.p) {
		return r, nil
	}
	n := newRepo(ctx, p, r.depth)
	n.cacheDir = r.cacheDir
	if p.SameHistory(r.p) {
		n.answers = r.answers
	}
	return n, nil
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
	// cacheDir keeps the history's moves between processes ("": not kept).
	cacheDir string

	// What is read on first need.
	names          lazy[nameIndex]
	ignoring       lazy[[]string] // folders below the root that hold a .gitignore
	history        lazy[history]
	pins           lazy[pinSets]
	manifests      lazyMap[manifestRead]
	manifestsBelow lazyMap[[]string] // by tool: its manifests below the root
	// stagedGone are HEAD's files the index lost, and their folders: read
	// with this listing, not kept in answers, which outlive a change of
	// the index that leaves HEAD where it was
	stagedGone lazy[map[string]bool]
	// children are the names in each folder of the listing, from the top,
	// read only for a missing path's folders (a slip of the pen)
	children lazy[map[string][]string]
	answers  *answers
}

// answers are what git's history answered, read on first need: a function
// of the project's history (store.Project.SameHistory) and, for a blame,
// of the memory file's content, so a repository opened again with the same
// history shares them (Reopen).
type answers struct {
	moves         lazy[map[string]store.Move]
	blames        lazyMap[[]time.Time]
	changes       lazyMap[lastChange]
	commitsBefore lazyMap[string]          // by time: HEAD's newest commit before it
	manifestsThen lazyMap[manifestRead]    // by tool, file and commit
	rootsThen     lazyMap[map[string]bool] // the root's names by commit
	manifestsLost lazyMap[lostNames]       // by tool and file
}

func newRepo(ctx context.Context, p *store.Project, depth int) *repo {
	r := &repo{ctx: ctx, p: p, rootRel: p.RootRel(), depth: depth, answers: new(answers)}
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

// Stat asks the work tree, from the root then the top: a file that is there
// exists, ignored or not (a built file an entry names does exist); a folder
// exists when it holds a file of the project (store.Project.Stat).
func (r *repo) Stat(cited string) (isDir, ok bool) {
	_, isDir, ok = r.existing(cited)
	return isDir, ok
}

// Ignored: what .gitignore matches from the root or from the top; and a
// path whose first folder a subproject's own .gitignore keeps out: an
// entry that cites `dist/index.js` where web/.gitignore ignores dist/ names
// web's build, as a bare path may name a deeper file (only a folder counts:
// a subproject's `.env*` says nothing of a `backend/.env.example`). The
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
	if first, _, ok := strings.Cut(path.Clean(cited), "/"); ok && len(cs) > 0 {
		for _, d := range r.ignoringFolders() {
			// A .gitignore that keeps out everything (`*`, as Laravel's
			// storage/ folders hold) names no folder in particular: it
			// would silence every path of the repository (issue 27).
			if r.p.Ignored(d+"/"+first, true) && !r.p.Ignored(d+"/"+unnamedFolder, true) {
				return true
			}
		}
	}
	if r.p.Truncated {
		_, _, ok := r.existing(cited)
		return !ok
	}
	return false
}

// unnamedFolder is a folder name no ignore rule names: a subproject's
// .gitignore that matches it matches any name.
const unnamedFolder = "memory-lsp-unnamed-folder-7f3a9c"

// ignoringFolders are the folders below the root (from the top) that hold
// a .gitignore, found in the project's file list once.
func (r *repo) ignoringFolders() []string {
	return r.ignoring.get(func() []string {
		var out []string
		prefix := ""
		if r.rootRel != "" {
			prefix = r.rootRel + "/"
		}
		i, _ := slices.BinarySearch(r.p.Files, prefix)
		for ; i < len(r.p.Files) && strings.HasPrefix(r.p.Files[i], prefix); i++ {
			f := r.p.Files[i]
			if d := path.Dir(f); path.Base(f) == ".gitignore" && d != "." && d != r.rootRel {
				out = append(out, d)
			}
		}
		return out
	})
}

// Stem: a file of the project, from the root or the top, named as cited
// with an extension added.
func (r *repo) Stem(cited string) bool {
	for _, c := range r.candidates(cited) {
		prefix := c + "."
		i, _ := slices.BinarySearch(r.p.Files, prefix)
		for ; i < len(r.p.Files) && strings.HasPrefix(r.p.Files[i], prefix); i++ {
			if stemOf(c, r.p.Files[i]) {
				return true
			}
		}
	}
	return false
}

func (r *repo) Endings(cited string) int {
	return len(r.ending(cited, 2))
}

// Children: the listing's names in dir, from the root, else from the top.
func (r *repo) Children(dir string) []string {
	kids := r.children.get(func() map[string][]string {
		m := map[string][]string{}
		seen := map[string]bool{}
		for _, f := range r.p.Files {
			for p := f; p != "." && !seen[p]; p = path.Dir(p) {
				seen[p] = true
				d := path.Dir(p)
				if d == "." {
					d = ""
				}
				m[d] = append(m[d], path.Base(p))
			}
		}
		return m
	})
	for _, c := range r.dirCandidates(dir) {
		if k, ok := kids[c]; ok {
			return k
		}
	}
	return nil
}

// dirCandidates are candidates for a folder, the root itself ("") among them.
func (r *repo) dirCandidates(dir string) []string {
	if dir = strings.Trim(dir, "/"); dir == "" {
		return []string{r.rootRel}
	}
	return r.candidates(dir)
}

// ending returns up to limit files or folders whose path is cited or ends
// with "/" + cited, from the top.
func (r *repo) ending(cited string, limit int) []string {
	cited = strings.Trim(cited, "/")
	if cited == "" {
		return nil
	}
	names := r.names.get(func() nameIndex { return newNameIndex(r.p.Files) })
	var out []string
	for f := range names.ending(path.Base(cited)) {
		if f == cited || strings.HasSuffix(f, "/"+cited) {
			out = append(out, f)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// nameIndex finds the files and folders whose last element is a name: one
// entry per file and folder (an index of every suffix would hold one per
// path element), chained by name so that 100,000 files cost one map entry
// per distinct name and no list per name.
type nameIndex struct {
	last  map[string]int32 // name → 1 + the index in paths of the last path with it
	prev  []int32          // for each path, 1 + the index of the previous one with its name
	paths []string
}

func newNameIndex(files []string) nameIndex {
	x := nameIndex{last: make(map[string]int32, len(files)), prev: make([]int32, 0, len(files)), paths: make([]string, 0, len(files))}
	add := func(p string) {
		name := path.Base(p)
		x.prev = append(x.prev, x.last[name])
		x.paths = append(x.paths, p)
		x.last[name] = int32(len(x.paths))
	}
	seen := map[string]bool{}
	for _, f := range files {
		add(f)
		for d := path.Dir(f); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			add(d)
		}
	}
	return x
}

// ending yields the paths whose last element is name.
func (x *nameIndex) ending(name string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := x.last[name]; i > 0; i = x.prev[i-1] {
			if !yield(x.paths[i-1]) {
				return
			}
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

// lazy is a value computed once, on first need.
type lazy[T any] struct {
	once sync.Once
	v    T
}

func (l *lazy[T]) get(compute func() T) T {
	l.once.Do(func() { l.v = compute() })
	return l.v
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

// drop forgets key: what a cancelled read left is no answer to keep.
func (l *lazyMap[T]) drop(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, key)
}

// dropOthers forgets the keys that start with prefix, but keep.
func (l *lazyMap[T]) dropOthers(prefix, keep string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.m {
		if k != keep && strings.HasPrefix(k, prefix) {
			delete(l.m, k)
		}
	}
}

// stemOf reports whether file is stem with an extension (parser.rs of
// parser): its coming or going changes Stem's answer for stem.
func stemOf(stem, file string) bool {
	rest, ok := strings.CutPrefix(file, stem+".")
	return ok && !strings.Contains(rest, "/")
}
