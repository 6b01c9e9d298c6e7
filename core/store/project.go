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
	p.Files = slices.DeleteFunc(p.Files, p.inMemory)
	slices.Sort(p.Files)
	p.index()
	p.ignore = gitignore.NewMatcher(p.ignorePatterns())
	return p, nil
}

// inMemory reports whether a listed file lies in the workspace's .memory.
func (p *Project) inMemory(rel string) bool {
	mem, err := filepath.Rel(p.Top, filepath.Join(p.Root, DirName))
	if err != nil {
		return false
	}
	mem = filepath.ToSlash(mem)
	return rel == mem || strings.HasPrefix(rel, mem+"/")
}

// gitFiles asks git for the work tree holding dir and its files.
func gitFiles(ctx context.Context, dir string) (top string, files []string, err error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", nil, err
	}
	top = strings.TrimRight(string(out), "\r\n")
	if top == "" {
		return "", nil, errors.New("git named no top level")
	}
	out, err = git(ctx, top, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return "", nil, err
	}
	for f := range bytes.SplitSeq(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	// A file deleted from the work tree but not from the index is listed
	// by --cached: the reference rules judge the work tree.
	files = slices.DeleteFunc(files, func(f string) bool {
		_, err := os.Lstat(filepath.Join(top, filepath.FromSlash(f)))
		return err != nil
	})
	return filepath.Clean(top), slices.Compact(files), nil
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

// Move is what became of a path that no longer exists: renamed (New is
// where it went, following later renames) or deleted, in Commit.
type Move struct {
	New    string // "" for a deletion
	Commit string // abbreviated hash
}

// Moves reads the renames and deletions of the last depth commits (newest
// first), by old path. Outside git, or when git fails, there are none.
func (p *Project) Moves(ctx context.Context, depth int) map[string]Move {
	if !p.Git || depth <= 0 {
		return nil
	}
	out, err := git(ctx, p.Top, "-c", "core.quotePath=false", "log", "--no-merges", "--format=%x00%h",
		"--name-status", "-M", "--diff-filter=RD", fmt.Sprintf("-n%d", depth), "--")
	if err != nil {
		return nil
	}
	moves := map[string]Move{}
	commit := ""
	for line := range strings.SplitSeq(string(out), "\n") {
		if h, ok := strings.CutPrefix(line, "\x00"); ok {
			commit = h
			continue
		}
		f := strings.Split(line, "\t")
		switch {
		case len(f) == 3 && strings.HasPrefix(f[0], "R"):
			if _, seen := moves[f[1]]; !seen { // a newer move of the same path wins
				moves[f[1]] = Move{New: f[2], Commit: commit}
			}
		case len(f) == 2 && f[0] == "D":
			if _, seen := moves[f[1]]; !seen {
				moves[f[1]] = Move{Commit: commit}
			}
		}
	}
	// A path renamed twice leads to where it is now.
	for old, m := range moves {
		for hops := 0; m.New != "" && hops < 16; hops++ {
			next, ok := moves[m.New]
			if !ok {
				break
			}
			m = Move{New: next.New, Commit: next.Commit}
		}
		moves[old] = m
	}
	return moves
}
