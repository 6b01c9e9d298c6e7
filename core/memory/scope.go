package memory

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/store"
)

// RepoScope is where a served folder's repository lies, for a process that
// follows changes to the code (the language server).
type RepoScope struct {
	// Root is the workspace root, the folder holding .memory: cited paths
	// are relative to it.
	Root string
	// Top is the folder holding .git (the work tree's top level), Root
	// outside git; cited paths may also be relative to it.
	Top string
	// GitDir is git's folder, "" outside git. A linked worktree's lies
	// elsewhere (its .git is a file naming it).
	GitDir string
}

// Within reports whether path lies in the repository: below its root or
// its top level.
func (sc *RepoScope) Within(path string) bool {
	return store.Within(sc.Root, path) || store.Within(sc.Top, path)
}

// GitDirBeyondRoot reports whether git's folder lies outside the root: a
// linked worktree's, or the repository's of a root below its top level,
// which an editor's watchers over the root's files do not reach.
func (sc *RepoScope) GitDirBeyondRoot() bool {
	return sc.GitDir != "" && !store.Within(sc.Root, sc.GitDir)
}

// InGitDir reports whether path lies in git's folder.
func (sc *RepoScope) InGitDir(path string) bool {
	return sc.GitDir != "" && store.Within(sc.GitDir, path)
}

// Spelled is name as the repository spells it when name is spelled through
// real, the root's resolved path (the root or a folder above it is a
// symlink); name itself otherwise.
func (sc *RepoScope) Spelled(real, name string) string {
	if sc.Within(name) || real == sc.Root {
		return name
	}
	if rel, ok := store.RelativePath(real, name); ok {
		return filepath.Join(sc.Root, rel)
	}
	return name
}

// maxGitSearch bounds the folders FindRepoScope climbs looking for .git.
const maxGitSearch = 64

// FindRepoScope finds the git work tree around root: the nearest folder at
// or above it holding .git, as git itself searches.
func FindRepoScope(root string) *RepoScope {
	sc := &RepoScope{Root: root, Top: root}
	for d, n := root, 0; n < maxGitSearch; n++ {
		dotGit := filepath.Join(d, ".git")
		if fi, err := store.Stat(dotGit); err == nil {
			switch {
			case fi.IsDir():
				sc.Top, sc.GitDir = d, dotGit
			case fi.Mode().IsRegular():
				if dir := gitDirOf(d, dotGit); dir != "" {
					sc.Top, sc.GitDir = d, dir
				}
			}
			return sc
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return sc
}

// maxGitFileBytes bounds the .git file of a linked worktree, one line.
const maxGitFileBytes = 4096

// gitDirOf reads the .git file of a linked worktree or submodule
// ("gitdir: <path>", relative to the folder holding it), or "".
func gitDirOf(top, dotGit string) string {
	fi, err := store.Stat(dotGit)
	if err != nil || fi.Size() > maxGitFileBytes {
		return ""
	}
	data, err := store.ReadFile(dotGit)
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	dir, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("gitdir:"))
	if !ok {
		return ""
	}
	p := filepath.FromSlash(string(bytes.TrimSpace(dir)))
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	return filepath.Clean(p)
}

// gitFiles are the files of git's folder that a `git add`, `mv` or `rm`, a
// commit, an amend, a rebase, a checkout or a reset writes: the index, HEAD
// (a checkout), HEAD's log (every move of HEAD while reflogs are kept) and
// the packed refs (a branch's commit, once packed); and where a shallow
// clone's history is cut, which a `fetch --deepen` moves and nothing else
// does. A change to one has the repository opened again; one that moved
// nothing is no change (store.Project.Same).
var gitFiles = []string{"index", "HEAD", "packed-refs", filepath.Join("logs", "HEAD"), "shallow"}

// GitFiles are the files of git's folder a watcher of the code watches.
func GitFiles() []string { return slices.Clone(gitFiles) }

// IsGitFile reports whether path is one of GitFiles in git's folder.
func (sc *RepoScope) IsGitFile(path string) bool {
	rel, ok := strings.CutPrefix(path, sc.GitDir+string(filepath.Separator))
	return ok && slices.Contains(gitFiles, rel)
}
