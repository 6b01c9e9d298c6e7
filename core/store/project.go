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

// Project is the code beside a .memory folder, as the reference rules see
// it (does the path an entry cites exist, is it ignored): the project's
// files, listed once. Inside a git work tree the list is git's (tracked
// files and new ones git does not ignore); elsewhere a walk of the root that
// honours the .gitignore files it meets, bounded by MaxProjectFiles.
type Project struct {
	// Root is the workspace root, the folder holding .memory/.
	Root string
	// Top is the git top level, or Root outside a work tree. Files are
	// relative to it.
	Top string
	// Git is whether git listed the files.
	Git bool
	// Files are the project's files, slash-separated, relative to Top,
	// sorted, without the .memory folder's.
	Files []string
	// Truncated: the walk stopped at MaxProjectFiles, so a missing path
	// proves nothing.
	Truncated bool

	dirs   map[string]bool
	ignore gitignore.Matcher
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
	p := &Project{Root: abs, Top: abs}
	if top, files, err := gitFiles(ctx, abs); err == nil {
		p.Top, p.Files, p.Git = top, files, true
	} else if err := p.walk(ctx); err != nil {
		return nil, err
	}
	if mem, ok := p.memoryRel(); ok {
		p.Files = slices.DeleteFunc(p.Files, func(f string) bool { return f == mem || strings.HasPrefix(f, mem+"/") })
	}
	slices.Sort(p.Files)
	p.Files = slices.Compact(p.Files)
	p.index()
	p.ignore = gitignore.NewMatcher(p.ignorePatterns())
	return p, nil
}

// memoryRel is the workspace's .memory folder relative to Top.
func (p *Project) memoryRel() (string, bool) {
	mem, err := filepath.Rel(p.Top, filepath.Join(p.Root, DirName))
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(mem), true
}

// inMemory reports whether a listed file lies in the workspace's .memory.
func (p *Project) inMemory(rel string) bool {
	mem, ok := p.memoryRel()
	return ok && (rel == mem || strings.HasPrefix(rel, mem+"/"))
}

// gitFiles asks git for the work tree holding dir and its files: those in
// the index that the work tree still has, and the new ones git does not
// ignore. One listing tags each file, so that a file deleted from the work
// tree but not from the index (listed as cached and as deleted) is left out
// without a stat per file, which a repository of 100,000 files would feel.
func gitFiles(ctx context.Context, dir string) (top string, files []string, err error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", nil, err
	}
	top = strings.TrimRight(string(out), "\r\n")
	if top == "" {
		return "", nil, errors.New("git named no top level")
	}
	out, err = git(ctx, top, "ls-files", "-z", "-t", "--cached", "--deleted", "--others", "--exclude-standard")
	if err != nil {
		return "", nil, err
	}
	var deleted map[string]bool
	for f := range bytes.SplitSeq(out, []byte{0}) {
		if len(f) < 3 || f[1] != ' ' {
			continue
		}
		name := string(f[2:])
		switch f[0] {
		case 'R': // deleted from the work tree
			if deleted == nil {
				deleted = map[string]bool{}
			}
			deleted[name] = true
		case 'S': // outside a sparse checkout: not in the work tree
		default:
			files = append(files, name)
		}
	}
	if deleted != nil {
		files = slices.DeleteFunc(files, func(f string) bool { return deleted[f] })
	}
	return filepath.Clean(top), files, nil
}

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
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

// index records every folder that holds a listed file.
func (p *Project) index() {
	p.dirs = map[string]bool{}
	for _, f := range p.Files {
		for d := path.Dir(f); d != "." && !p.dirs[d]; d = path.Dir(d) {
			p.dirs[d] = true
		}
	}
}

// Stat reports whether rel (slash-separated, relative to Top) is a listed
// file or a folder holding one.
func (p *Project) Stat(rel string) (isDir, ok bool) {
	rel = strings.TrimSuffix(path.Clean(rel), "/")
	if p.dirs[rel] {
		return true, true
	}
	_, found := slices.BinarySearch(p.Files, rel)
	return false, found
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

// ReadFile reads a listed file (a manifest: Makefile, package.json, …),
// bounded like a memory file.
func (p *Project) ReadFile(rel string) ([]byte, error) {
	if _, ok := slices.BinarySearch(p.Files, rel); !ok {
		return nil, fmt.Errorf("%s: not a file of the project", rel)
	}
	return ReadOne(filepath.Join(p.Top, filepath.FromSlash(rel)))
}
