package lsp

import (
	"bytes"
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// A folder's repository is the code beside its .memory folder, which the
// reference rules judge entries against and the links, definitions and
// hovers of references (references.go) resolve in. Opening it lists the
// project's files and reads its history, which takes long on a large
// repository, so it is built once, lazily, by the folder's first check or
// reference request (never on initialize's path), and kept warm until a
// change to the code voids it (watch_refs.go): the next check or request
// builds it again. A repository that cannot be opened is none (the rules
// stay silent), said once in the log, and tried again after the next change.

// repoState is one build of a folder's repository.
type repoState struct {
	// repo is nil when it could not be opened.
	repo rules.Repo
	// voids is the folder's void count when the build started: a change
	// seen since then makes the build stale.
	voids uint64
	// cfg is the configuration it was opened with (the history depth).
	cfg config.Config
	// git is the state of git's own files after the build, which a commit,
	// a checkout or a staged move changes (watch_refs.go).
	git gitMarks
}

// repoScope is where a folder's repository lies.
type repoScope struct {
	// root is the workspace root, the folder holding .memory: cited paths
	// are relative to it.
	root string
	// top is the folder holding .git (the work tree's top level), root
	// outside git; cited paths may also be relative to it.
	top string
	// gitDir is git's folder, "" outside git. A linked worktree's lies
	// elsewhere (its .git is a file naming it).
	gitDir string
}

// within reports whether path lies in the repository: below its root or
// its top level.
func (sc *repoScope) within(path string) bool {
	return store.Within(sc.root, path) || store.Within(sc.top, path)
}

// repoOf is f's current repository, built now when there is none or a
// change voided it, or when cfg differs from the configuration it was
// opened with.
func (s *Server) repoOf(f *folder, cfg config.Config) *repoState {
	if st := f.repo.Load(); st != nil && st.voids == f.voids.Load() && sameConfig(st.cfg, cfg) {
		return st
	}
	f.repoMu.Lock()
	defer f.repoMu.Unlock()
	voids := f.voids.Load()
	if st := f.repo.Load(); st != nil && st.voids == voids && sameConfig(st.cfg, cfg) {
		return st // built while this call waited
	}
	// The scope first: a change seen while the repository is opened is
	// matched against it, and voids the build.
	sc := findScope(filepath.Dir(f.dir))
	f.scope.Store(sc)
	repo, err := s.opt.OpenRepo(s.life, sc.root, cfg)
	switch {
	case err != nil && s.life.Err() != nil:
		repo = nil // the server is stopping: nothing to report
	case err != nil:
		if !f.repoFailing {
			s.log.Warningf("cannot read the repository at %s (%v): the references its memory cites are not checked until it changes", sc.root, err)
		}
		f.repoFailing, repo = true, nil
	case f.repoFailing:
		s.log.Infof("the repository at %s can be read again", sc.root)
		f.repoFailing = false
	}
	st := &repoState{repo: repo, voids: voids, cfg: cfg, git: statGit(sc.gitDir)}
	f.repo.Store(st)
	return st
}

// voidRepo marks f's repository stale after a change to the code and checks
// the folder again, which builds it anew.
func (s *Server) voidRepo(f *folder) {
	f.voids.Add(1)
	s.schedule(f, watchDebounce)
}

// maxGitSearch bounds the folders findScope climbs looking for .git.
const maxGitSearch = 64

// findScope finds the git work tree around root: the nearest folder at or
// above it holding .git, as git itself searches.
func findScope(root string) *repoScope {
	sc := &repoScope{root: root, top: root}
	for d, n := root, 0; n < maxGitSearch; n++ {
		dotGit := filepath.Join(d, ".git")
		if fi, err := store.Stat(dotGit); err == nil {
			switch {
			case fi.IsDir():
				sc.top, sc.gitDir = d, dotGit
			case fi.Mode().IsRegular():
				if dir := gitDirOf(d, dotGit); dir != "" {
					sc.top, sc.gitDir = d, dir
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

// gitFiles are the files of git's folder whose change means the history or
// the index moved: HEAD (a checkout), the index (git add, git mv, git rm, a
// commit, a checkout), packed-refs and HEAD's log (every commit, reset and
// checkout writes a line to it).
var gitFiles = [...]string{"HEAD", "index", "packed-refs", filepath.Join("logs", "HEAD")}

// gitMarks are the modification time and size of each of gitFiles, zero
// for one that is absent.
type gitMarks [len(gitFiles)]struct{ mod, size int64 }

func statGit(gitDir string) gitMarks {
	var m gitMarks
	if gitDir == "" {
		return m
	}
	for i, name := range gitFiles {
		if fi, err := store.Stat(filepath.Join(gitDir, name)); err == nil {
			m[i].mod, m[i].size = fi.ModTime().UnixNano(), fi.Size()
		}
	}
	return m
}

// isGitFile reports whether path is one of gitFiles in gitDir.
func isGitFile(gitDir, path string) bool {
	for _, name := range gitFiles {
		if path == filepath.Join(gitDir, name) {
			return true
		}
	}
	return false
}
