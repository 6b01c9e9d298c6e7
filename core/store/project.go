package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Project is the code beside a .memory folder, as the reference rules see
// it (does the path an entry cites exist, is it ignored, which files end
// with a name): the project's files, listed once. Inside a git work tree
// the list is git's (the index and the new files git does not ignore);
// elsewhere a walk of the root that honours the .gitignore files it meets,
// bounded by MaxProjectFiles. Whether one path exists is asked of the disk
// (Stat), which is always current.
type Project struct {
	// Root is the workspace root, the folder holding .memory/.
	Root string
	// Top is the git top level, or Root outside a work tree. Files are
	// relative to it.
	Top string
	// Git is whether git listed the files.
	Git bool
	// Files are the project's files, slash-separated, relative to Top,
	// sorted, without the .memory folder's. In git they may hold a file
	// deleted from the work tree but not from the index: asking git to
	// leave those out costs a stat of every file (a third of a second for
	// 100,000), which Stat spends on the few paths entries cite instead.
	Files []string
	// Truncated: the walk stopped at MaxProjectFiles, so a path missing
	// from Files proves nothing.
	Truncated bool

	ignore gitignore.Matcher
	mem    string // the .memory folder from Top and a slash, "" when not below it
	// history names what the history's answers but a blame (history.go)
	// are a function of, read with the listing: in git, the commit HEAD
	// names and where a shallow clone's history is cut; "" outside git and
	// before the first commit. reflog is how far HEAD's reflog had grown,
	// which a blame (HEAD's as it is when it runs) rests on too.
	history, reflog string
}

// MaxProjectFiles bounds a walk outside git, so that a memory folder in a
// home directory does not read the whole disk.
const MaxProjectFiles = 200_000

// maxIgnoreBytes bounds one .gitignore; a larger one is not read.
const maxIgnoreBytes = 1 << 20

// OpenProject lists the project around the workspace at root. Git absent,
// or a repository git cannot read, is no error: the walk is used instead.
func OpenProject(ctx context.Context, root string) (*Project, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("opening the project at %s: %w", root, err)
	}
	p := &Project{Root: abs}
	p.setTop(abs)
	if gitMayFind(abs) && p.listGit(ctx) == nil {
		p.Git = true
	} else if err := p.walk(ctx); err != nil {
		return nil, err
	}
	p.Files = sortedSet(slices.DeleteFunc(p.Files, p.inMemory))
	p.ignore = gitignore.NewMatcher(p.ignorePatterns())
	return p, nil
}

// gitMayFind reports whether git run in dir may find a repository there:
// GIT_DIR is set, or dir or a folder above it holds a .git (a folder, or a
// file in a worktree or submodule) or looks like a git folder itself (a
// bare repository: a HEAD). Both the path as given and the real path are
// walked (git -C walks up from the real one). When it says no, git
// rev-parse would fail, and is not started: the start of a process is
// milliseconds, a third of what a query from the CLI's index takes.
func gitMayFind(dir string) bool {
	if os.Getenv("GIT_DIR") != "" {
		return true
	}
	dirs := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err != nil {
		return true // cannot tell: let git say
	} else if real != dir {
		dirs = append(dirs, real)
	}
	for _, d := range dirs {
		for {
			for _, name := range []string{".git", "HEAD"} {
				if _, err := os.Lstat(filepath.Join(d, name)); err == nil || !errors.Is(err, fs.ErrNotExist) {
					return true
				}
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return false
}

// sortedSet sorts names and drops repeats, in place.
func sortedSet(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}

// setTop fixes Top, and the workspace's .memory folder relative to it.
func (p *Project) setTop(top string) {
	p.Top, p.mem = top, ""
	if mem, err := filepath.Rel(top, filepath.Join(p.Root, DirName)); err == nil && filepath.IsLocal(mem) {
		p.mem = filepath.ToSlash(mem) + "/"
	}
}

// inMemory reports whether a listed file lies in the workspace's .memory.
func (p *Project) inMemory(rel string) bool {
	return p.mem != "" && (strings.HasPrefix(rel, p.mem) || rel == p.mem[:len(p.mem)-1])
}

// listGit asks git for the work tree holding the root, the commit HEAD
// names, and its files: those in the index and the new ones git does not
// ignore. HEAD is read before the listing, and every answer of the history
// but a blame is asked of that commit, not of HEAD (history.go): a commit
// made while the project is in use is seen by the next listing, not half
// by this one. A blame is HEAD's as it is when it runs, so HEAD's reflog
// is part of the key too: a commit made and undone between two listings
// (HEAD back where it was) grows the reflog, and the next listing does
// not keep a blame that may have read the undone commit.
func (p *Project) listGit(ctx context.Context) error {
	// --verify names HEAD's commit; before the first commit it prints
	// nothing for it and exits 1, after the other lines.
	cmd, stderr := gitCommand(ctx, p.Root, "rev-parse", "--show-toplevel", "--git-path", "shallow", "--git-path", "logs/HEAD", "--verify", "-q", "HEAD^{commit}")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return fmt.Errorf("git rev-parse: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimRight(string(out), "\r\n"), "\n")
	want := 4 // the top level, the shallow file, HEAD's reflog, HEAD's commit
	if err != nil {
		want = 3
	}
	if len(lines) != want || lines[0] == "" {
		return errors.New("git named no top level")
	}
	top := filepath.Clean(lines[0])
	gitPath := func(l string) string {
		if l = filepath.FromSlash(l); !filepath.IsAbs(l) {
			l = filepath.Join(p.Root, l)
		}
		return l
	}
	if want == 4 {
		p.history = lines[3]
		// A fetch that deepens a shallow clone rewrites where its history
		// is cut, under the same HEAD.
		if cut, _ := ReadOne(gitPath(lines[1])); len(cut) > 0 {
			sum := sha256.Sum256(cut)
			p.history += " " + hex.EncodeToString(sum[:16])
		}
		// Every move of HEAD appends to its reflog (where one is kept):
		// its size and time stand for the moves since.
		if fi, err := os.Stat(gitPath(lines[2])); err == nil {
			p.reflog = fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	// The names are gathered in one buffer and cut from one string: 100,000
	// strings allocated one by one cost the collector more than the rest of
	// the listing.
	var names []byte
	var ends []int
	err = gitRecords(ctx, top, 0, func(f []byte) {
		if len(f) > 0 {
			names = append(names, f...)
			ends = append(ends, len(names))
		}
	}, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	p.setTop(top)
	all := string(names)
	p.Files = make([]string, len(ends))
	start := 0
	for i, end := range ends {
		p.Files[i], start = all[start:end], end
	}
	return nil
}

// SameHistory reports whether the history answers for p as for o: both
// are of one git work tree, and HEAD named the same commit (with the
// same cut, in a shallow clone) and had not moved since (its reflog the
// same) when each was listed.
func (p *Project) SameHistory(o *Project) bool {
	return p.Git && o.Git && p.Top == o.Top && p.history == o.history && p.reflog == o.reflog
}

// Same reports whether p lists what o listed, with the same history: a
// look at git's own files (the index rewritten by a `git status`, a fetch)
// that changed nothing the rules read.
func (p *Project) Same(o *Project) bool {
	return p.Root == o.Root && p.Top == o.Top && p.Git == o.Git && p.Truncated == o.Truncated &&
		p.history == o.history && p.reflog == o.reflog && slices.Equal(p.Files, o.Files)
}

// gitCommand is git run in dir as every git run of the store is: without
// optional locks (a reader must not contend with the user's git), in the
// C locale (its messages are read), its standard error kept for the error.
func gitCommand(ctx context.Context, dir string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd, stderr := gitCommand(ctx, dir, args...)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gitRecords runs git in dir and hands each record of its standard output,
// up to sep (excluded), to fn as it is read: a listing of 100,000 files is
// never held whole, nor copied as a growing buffer.
func gitRecords(ctx context.Context, dir string, sep byte, fn func([]byte), args ...string) error {
	cmd, stderr := gitCommand(ctx, dir, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("git %s: %w", args[0], err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git %s: %w", args[0], err)
	}
	r := bufio.NewReaderSize(out, 64*1024)
	var readErr error
	for {
		rec, err := r.ReadSlice(sep)
		if errors.Is(err, bufio.ErrBufferFull) {
			// A record longer than the buffer: gather it whole.
			long := append([]byte(nil), rec...)
			for errors.Is(err, bufio.ErrBufferFull) {
				rec, err = r.ReadSlice(sep)
				long = append(long, rec...)
			}
			rec = long
		}
		if len(rec) > 0 {
			fn(bytes.TrimSuffix(rec, []byte{sep}))
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	if readErr != nil {
		return fmt.Errorf("git %s: reading its output: %w", args[0], readErr)
	}
	return nil
}

// walk lists the files under the root that its .gitignore files do not
// ignore; .git and .memory are skipped.
func (p *Project) walk(ctx context.Context) error {
	var patterns []gitignore.Pattern
	err := filepath.WalkDir(p.Root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == p.Root {
				return err
			}
			return nil // an unreadable folder is left out, not fatal
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(p.Root, name)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			patterns = append(patterns, readIgnore(name, nil)...)
			return nil
		}
		parts := strings.Split(rel, "/")
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == DirName || gitignore.NewMatcher(patterns).Match(parts, true) {
				return filepath.SkipDir
			}
			patterns = append(patterns, readIgnore(name, parts)...)
			return nil
		}
		if gitignore.NewMatcher(patterns).Match(parts, false) {
			return nil
		}
		if len(p.Files) >= MaxProjectFiles {
			p.Truncated = true
			return filepath.SkipAll
		}
		p.Files = append(p.Files, rel)
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing the project at %s: %w", p.Root, err)
	}
	return nil
}

// readIgnore reads the .gitignore of dir, whose path from the top is
// domain; a missing or oversized one gives nothing.
func readIgnore(dir string, domain []string) []gitignore.Pattern {
	b, err := ReadOne(filepath.Join(dir, ".gitignore"))
	if err != nil || len(b) > maxIgnoreBytes {
		return nil
	}
	var ps []gitignore.Pattern
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// ignorePatterns are the patterns of every .gitignore among the files and
// of .git/info/exclude, each scoped to its folder.
func (p *Project) ignorePatterns() []gitignore.Pattern {
	var ps []gitignore.Pattern
	if p.Git {
		ps = append(ps, readExclude(p.Top)...)
	}
	ps = append(ps, readIgnore(p.Top, nil)...)
	for _, f := range p.Files {
		if path.Base(f) != ".gitignore" || f == ".gitignore" {
			continue
		}
		dir := path.Dir(f)
		ps = append(ps, readIgnore(filepath.Join(p.Top, filepath.FromSlash(dir)), strings.Split(dir, "/"))...)
	}
	return ps
}

// readExclude reads .git/info/exclude when .git is a folder.
func readExclude(top string) []gitignore.Pattern {
	return readIgnore(filepath.Join(top, ".git", "info"), nil)
}

// Stat reports whether rel (slash-separated, relative to Top) is in the
// work tree now, and whether it is a folder. A file is asked of the disk; a
// symlink counts as what it leads to (a dangling one as a file). A folder
// counts when it holds a listed file, or is listed itself (a symlink to a
// folder): git keeps no empty folders, so one a move left behind is gone,
// and one holding only ignored files is not the project's. A path that
// leaves Top is not in it.
func (p *Project) Stat(rel string) (isDir, ok bool) {
	abs, ok := p.abs(rel)
	if !ok {
		return false, false
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		_, lerr := os.Lstat(abs)
		return false, lerr == nil
	case !fi.IsDir():
		return false, true
	}
	rel = path.Clean(rel)
	if _, listed := slices.BinarySearch(p.Files, rel); listed {
		return true, true
	}
	i, _ := slices.BinarySearch(p.Files, rel+"/")
	holds := i < len(p.Files) && strings.HasPrefix(p.Files[i], rel+"/")
	return holds, holds
}

// abs is the path of rel below Top; ok is false for a path that is empty,
// absolute or leaves Top.
func (p *Project) abs(rel string) (string, bool) {
	rel = filepath.FromSlash(strings.TrimSuffix(rel, "/"))
	if rel == "" || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.Join(p.Top, rel), true
}

// Ignored reports whether the project's ignore files match rel.
func (p *Project) Ignored(rel string, isDir bool) bool {
	rel = strings.Trim(path.Clean(rel), "/")
	if rel == "" || rel == "." {
		return false
	}
	parts := strings.Split(rel, "/")
	// A path below an ignored folder is ignored with it.
	for i := 1; i < len(parts); i++ {
		if p.ignore.Match(parts[:i], true) {
			return true
		}
	}
	return p.ignore.Match(parts, isDir)
}

// RootRel is the path from Top to the workspace root ("" when they are
// the same folder), slash-separated: an entry's path is tried from the root
// first, then from Top.
func (p *Project) RootRel() string {
	rel, err := filepath.Rel(p.Top, p.Root)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

// ReadFile reads a file of the work tree (a manifest: Makefile,
// package.json, …), bounded like a memory file; a symlink that leads out of
// Top is not followed.
func (p *Project) ReadFile(rel string) ([]byte, error) {
	abs, ok := p.abs(rel)
	if !ok {
		return nil, fmt.Errorf("%s: not a path inside %s", rel, p.Top)
	}
	r, err := ResolveIn(p.Top, abs)
	if err != nil {
		return nil, err
	}
	if !r.Inside {
		return nil, fmt.Errorf("%s: a symlink to %s, outside %s", rel, r.Link, p.Top)
	}
	b, err := ReadOne(abs)
	if err == nil && b == nil {
		return nil, fmt.Errorf("reading %s: %w", abs, fs.ErrNotExist)
	}
	return b, err
}
