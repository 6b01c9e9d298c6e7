package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Following a project as it changes, without listing it again: a language
// server is told which paths changed (created, deleted, renamed, edited)
// and Update answers the project as OpenProject would list it now, doing
// work for those paths only. In git, Files is the index's paths and the
// files git does not ignore; Update rereads the index itself when it
// changed (gitindex.go: a `git mv`, `git add`, a commit), asks `git
// check-ignore` about new files the index does not hold, and `git ls-files
// --others` under a new folder or one whose .gitignore changed. Outside git
// it walks only what appeared. Whatever it cannot follow (too many paths at
// once, an index it does not read, a .gitignore outside git, a truncated
// walk) is listed again as a whole, which Delta.Relisted says.

// maxUpdatePaths is the most paths one Update follows one by one; more (a
// checkout of another branch, an install) are cheaper to list again.
const maxUpdatePaths = 1024

// Delta is what an Update changed.
type Delta struct {
	// Named are the changed paths Update followed, relative to Top: a
	// file's content may have changed without it entering or leaving Files
	// (a manifest edited).
	Named []string
	// Added and Removed are the files that entered or left Files, sorted.
	Added, Removed []string
	// Ignore: the ignore rules may answer otherwise (a .gitignore changed).
	Ignore bool
	// History: HEAD, its log or the packed refs moved (a commit, a
	// checkout, a reset), so Moves, Blame and LastChange may answer
	// otherwise.
	History bool
	// Relisted: the project was listed again as a whole.
	Relisted bool
}

// Changed reports whether anything the project answers may have changed.
func (d Delta) Changed() bool {
	return len(d.Named) > 0 || len(d.Added) > 0 || len(d.Removed) > 0 || d.Ignore || d.History || d.Relisted
}

// fileMark is what a stat says of one of git's files, which git replaces
// by a rename: any write makes a new one.
type fileMark struct{ fi fs.FileInfo }

func markFile(name string) fileMark {
	fi, _ := os.Stat(name)
	return fileMark{fi}
}

func (m fileMark) same(o fileMark) bool {
	if m.fi == nil || o.fi == nil {
		return m.fi == nil && o.fi == nil
	}
	return SameStat(m.fi, o.fi)
}

// HistoryFiles are the files of git's folder that every commit, checkout
// and reset writes: a change to one means the history moved (a watcher of
// git's folder watches them and the index).
var HistoryFiles = [...]string{"HEAD", "packed-refs", filepath.Join("logs", "HEAD")}

type historyMark [len(HistoryFiles)]fileMark

func markHistory(gitDir string) historyMark {
	var m historyMark
	for i, name := range HistoryFiles {
		m[i] = markFile(filepath.Join(gitDir, name))
	}
	return m
}

func (m historyMark) same(o historyMark) bool {
	for i := range m {
		if !m[i].same(o[i]) {
			return false
		}
	}
	return true
}

// Update returns the project after changes at the paths named (absolute,
// as a watcher names them; both names of a rename; a folder stands for
// everything below it), and what changed. Git's own files need not be
// named: the index and the history are checked on every call. p itself is
// not changed, and shares what did not change with the result, so a
// reader of p is never disturbed. An error means the project could not be
// listed at all.
func (p *Project) Update(ctx context.Context, changed []string) (*Project, Delta, error) {
	rels, ignoreFiles := p.relChanges(changed)
	var np *Project
	var d Delta
	var err error
	switch {
	case len(rels) > maxUpdatePaths, p.Truncated, !p.Git && ignoreFiles:
		np, d, err = p.relist(ctx)
	case !p.Git:
		np, d, err = p.updateWalk(ctx, rels)
	default:
		np, d, err = p.updateGit(ctx, rels)
	}
	if err != nil {
		return nil, d, err
	}
	d.Named = rels
	// Whichever way the files were followed, a .gitignore that came, went or
	// changed (or a folder that took one with it) changes the rules.
	if !d.Relisted && (d.Ignore || slices.ContainsFunc(slices.Concat(d.Added, d.Removed), isIgnoreFile)) {
		d.Ignore = true
		np.ignore = gitignore.NewMatcher(np.ignorePatterns())
	}
	return np, d, nil
}

// relist lists the project again as a whole.
func (p *Project) relist(ctx context.Context) (*Project, Delta, error) {
	np, err := OpenProject(ctx, p.Root)
	if err != nil {
		return nil, Delta{}, err
	}
	d := Delta{Ignore: true, History: true, Relisted: true}
	d.Removed, d.Added = diffSorted(p.Files, np.Files)
	return np, d, nil
}

// relChanges are the changed paths relative to Top, sorted, each once,
// without git's folders and the workspace's .memory; ignoreFiles says one
// is a .gitignore.
func (p *Project) relChanges(changed []string) (rels []string, ignoreFiles bool) {
	rootRel := p.RootRel()
	for _, abs := range changed {
		rel, ok := RelativePath(p.Top, abs)
		if !ok {
			// Named through the root's own spelling (a symlink above it).
			r, ok := RelativePath(p.Root, abs)
			if !ok {
				continue
			}
			rel = filepath.Join(filepath.FromSlash(rootRel), r)
		}
		rel = filepath.ToSlash(rel)
		if rel == "." || !filepath.IsLocal(rel) || p.inMemory(rel) || slices.Contains(strings.Split(rel, "/"), ".git") {
			continue
		}
		rels = append(rels, rel)
		ignoreFiles = ignoreFiles || path.Base(rel) == ".gitignore"
	}
	return sortedSet(rels), ignoreFiles
}

// updateGit follows changes in a git work tree: the index as it is now, and
// the files outside it at the changed paths.
func (p *Project) updateGit(ctx context.Context, rels []string) (*Project, Delta, error) {
	np := *p
	var d Delta
	np.history = markHistory(p.gitDir)
	d.History = !np.history.same(p.history)
	cands := rels
	var left, joined []string
	if mark := markFile(filepath.Join(p.gitDir, "index")); !mark.same(p.index) {
		var err error
		left, joined, err = indexDiff(filepath.Join(p.gitDir, "index"), p.hashSize, p.Files, p.untracked, p.inMemory)
		if err != nil {
			return p.relist(ctx)
		}
		// A path that left the index may stay as a file git does not
		// ignore; one that joined it is no longer among the others.
		cands = sortedSet(slices.Concat(cands, left, joined))
		np.index = mark
	}
	// tracked says whether the index lists x now.
	tracked := func(x string) bool {
		if _, ok := slices.BinarySearch(joined, x); ok {
			return true
		}
		if _, ok := slices.BinarySearch(left, x); ok {
			return false
		}
		_, listed := slices.BinarySearch(p.Files, x)
		_, other := slices.BinarySearch(p.untracked, x)
		return listed && !other
	}
	// A changed .gitignore changes which files below its folder git lists
	// as others: they are listed again there.
	var relist []string
	for _, c := range cands {
		if path.Base(c) == ".gitignore" {
			relist = append(relist, path.Dir(c))
			d.Ignore = true
		} else if p.holdsIgnoreFile(c) {
			// A folder removed or brought back with the .gitignore the
			// index still lists (rm -r, a checkout): its rules went or came
			// with it, though no .gitignore was named.
			relist = append(relist, c)
			d.Ignore = true
		}
	}
	var files, dirs []string
	for _, c := range cands {
		fi, err := os.Lstat(filepath.Join(p.Top, filepath.FromSlash(c)))
		switch {
		case err != nil:
		case fi.IsDir():
			dirs = append(dirs, c)
		default:
			if !tracked(c) && !p.inNestedRepo(c) {
				files = append(files, c)
			}
		}
	}
	dirs = append(dirs, relist...)
	others, err := p.notIgnored(ctx, files)
	if err != nil {
		return p.relist(ctx)
	}
	below, err := p.othersBelow(ctx, dirs)
	if err != nil {
		return p.relist(ctx)
	}
	gone := slices.Concat(cands, dirs)
	np.untracked = sortedSet(slices.Concat(withoutBelow(p.untracked, gone), others, below))
	// What entered or left Files: the paths whose standing may have moved.
	ul, uj := diffSorted(p.untracked, np.untracked)
	for _, x := range sortedSet(slices.Concat(left, joined, ul, uj)) {
		_, was := slices.BinarySearch(p.Files, x)
		_, other := slices.BinarySearch(np.untracked, x)
		switch now := other || tracked(x); {
		case now && !was:
			d.Added = append(d.Added, x)
		case was && !now:
			d.Removed = append(d.Removed, x)
		}
	}
	np.Files = applyDelta(p.Files, d.Added, d.Removed)
	return &np, d, nil
}

func isIgnoreFile(f string) bool { return path.Base(f) == ".gitignore" }

// holdsIgnoreFile reports whether the listed files hold a .gitignore below
// the folder dir.
func (p *Project) holdsIgnoreFile(dir string) bool {
	prefix := dir + "/"
	i, _ := slices.BinarySearch(p.Files, prefix)
	for ; i < len(p.Files) && strings.HasPrefix(p.Files[i], prefix); i++ {
		if isIgnoreFile(p.Files[i]) {
			return true
		}
	}
	return false
}

// inNestedRepo reports whether rel lies in another repository below Top (a
// submodule, a clone inside the work tree), whose files git lists as that
// folder alone.
func (p *Project) inNestedRepo(rel string) bool {
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		if _, err := os.Lstat(filepath.Join(p.Top, filepath.FromSlash(d), ".git")); err == nil {
			return true
		}
	}
	return false
}

// notIgnored are the files among rels (none in the index) that git's
// ignore rules do not match: the others `git ls-files --others
// --exclude-standard` would list. `git check-ignore --no-index` answers
// without reading the index, a millisecond where ls-files takes ten.
func (p *Project) notIgnored(ctx context.Context, rels []string) ([]string, error) {
	if len(rels) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, r := range rels {
		in.WriteString(r)
		in.WriteByte(0)
	}
	cmd, stderr := gitCommand(ctx, p.Top, "check-ignore", "--no-index", "-z", "--stdin")
	cmd.Stdin = &in
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: none is ignored
		return nil, fmt.Errorf("git check-ignore: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	ignored := map[string]bool{}
	for f := range bytes.SplitSeq(out, []byte{0}) {
		ignored[string(f)] = true
	}
	return slices.DeleteFunc(slices.Clone(rels), func(r string) bool { return ignored[r] }), nil
}

// othersBelow lists the files git does not track nor ignore below each of
// dirs ("." or "" for the whole work tree).
func (p *Project) othersBelow(ctx context.Context, dirs []string) ([]string, error) {
	if len(dirs) == 0 {
		return nil, nil
	}
	args := []string{"--literal-pathspecs", "ls-files", "-z", "--others", "--exclude-standard", "--"}
	for _, d := range sortedSet(dirs) {
		if d == "" || d == "." {
			args = args[:len(args)-1] // everything
			break
		}
		args = append(args, d+"/")
	}
	var out []string
	err := gitRecords(ctx, p.Top, 0, func(f []byte) {
		if len(f) > 0 && !p.inMemory(string(f)) {
			out = append(out, string(f))
		}
	}, args...)
	return out, err
}

// withoutBelow is the sorted names without those that are one of dirs or
// lie below one; names is not changed.
func withoutBelow(names, dirs []string) []string {
	out := slices.Clone(names)
	for _, d := range dirs {
		if d == "" || d == "." {
			return nil
		}
		i, _ := slices.BinarySearch(out, d)
		j := i
		for j < len(out) && (out[j] == d || strings.HasPrefix(out[j], d+"/")) {
			j++
		}
		out = slices.Delete(out, i, j)
	}
	return out
}

// updateWalk follows changes outside git: what is gone is dropped, what
// appeared is walked with the project's ignore rules.
func (p *Project) updateWalk(ctx context.Context, rels []string) (*Project, Delta, error) {
	np := *p
	kept := withoutBelow(p.Files, rels)
	var found []string
	for _, c := range rels {
		fi, err := os.Lstat(filepath.Join(p.Top, filepath.FromSlash(c)))
		if err != nil || p.Ignored(c, fi.IsDir()) || slices.Contains(strings.Split(c, "/"), DirName) {
			continue
		}
		if !fi.IsDir() {
			found = append(found, c)
			continue
		}
		sub, err := p.walkBelow(ctx, c)
		if err != nil {
			return nil, Delta{}, err
		}
		if slices.ContainsFunc(sub, isIgnoreFile) || len(sub)+len(kept) >= MaxProjectFiles {
			return p.relist(ctx) // rules of its own, or past the bound
		}
		found = append(found, sub...)
	}
	np.Files = sortedSet(slices.Concat(kept, found))
	var d Delta
	d.Removed, d.Added = diffSorted(p.Files, np.Files)
	return &np, d, nil
}

// walkBelow lists the files below the folder rel (outside git) that the
// project's ignore rules do not match, as walk would.
func (p *Project) walkBelow(ctx context.Context, rel string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(p.Top, filepath.FromSlash(rel)), func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // gone since, or unreadable: left out
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r, _ := filepath.Rel(p.Top, name)
		r = filepath.ToSlash(r)
		switch {
		case d.IsDir() && (d.Name() == ".git" || d.Name() == DirName || p.Ignored(r, true)):
			return filepath.SkipDir
		case !d.IsDir() && !p.Ignored(r, false):
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// diffSorted compares two sorted lists: what only a holds, what only b
// holds.
func diffSorted(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i++
			j++
		case a[i] < b[j]:
			onlyA = append(onlyA, a[i])
			i++
		default:
			onlyB = append(onlyB, b[j])
			j++
		}
	}
	return append(onlyA, a[i:]...), append(onlyB, b[j:]...)
}

// applyDelta is the sorted files with added (none of them in files) put in
// and removed (all of them in files) taken out: one pass of copies between
// the places a binary search finds.
func applyDelta(files, added, removed []string) []string {
	if len(added) == 0 && len(removed) == 0 {
		return files
	}
	out := make([]string, 0, len(files)+len(added)-len(removed))
	i := 0
	for len(added) > 0 || len(removed) > 0 {
		next := len(files)
		if len(added) > 0 {
			k, _ := slices.BinarySearch(files[i:], added[0])
			next = i + k
		}
		if len(removed) > 0 {
			if k, _ := slices.BinarySearch(files[i:], removed[0]); i+k < next {
				next = i + k
			}
		}
		out = append(out, files[i:next]...)
		i = next
		switch {
		case len(removed) > 0 && i < len(files) && files[i] == removed[0]:
			i++
			removed = removed[1:]
		case len(added) > 0 && (i == len(files) || added[0] < files[i]):
			out = append(out, added[0])
			added = added[1:]
		case len(removed) > 0 && (i == len(files) || removed[0] < files[i]):
			removed = removed[1:] // not there: nothing to take out
		default:
			added = added[1:] // already there
		}
	}
	return append(out, files[i:]...)
}
