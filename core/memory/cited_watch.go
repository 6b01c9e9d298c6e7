package memory

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/budget"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Which changes to the code can move a citation's verdict, for a process
// that follows them (the language server): the files whose content a
// verdict reads, and the places each citation makes worth watching.

// VerdictFile reports whether the file at rel (slash-separated, relative to
// the work tree's top; a bare name outside it) is one whose content a
// verdict reads: a command manifest, a version pin, ignore rules, a CI
// workflow (refs.ParseWorkflowPins), or an agent's instruction file, whose
// size the load budgets measure and whose lines cross-file reads. Any
// other file's content is never judged, only its existence.
func VerdictFile(rel string) bool {
	base := path.Base(rel)
	return refs.IsManifest(base) || refs.PinFile(base) || base == ".gitignore" || refs.WorkflowFile(rel) ||
		budget.IsInstructionFile(rel)
}

// VerdictFileGlobs are glob patterns for the files VerdictFile accepts,
// each once, for a watcher that matches names (a client's file watch).
func VerdictFileGlobs() []string {
	names := []string{".gitignore"}
	for t := refs.Make; t <= refs.Task; t++ {
		names = append(names, refs.ManifestNames(t)...)
	}
	names = append(names, refs.PinFileGlobs...)
	slices.Sort(names)
	var globs []string
	for _, n := range slices.Compact(names) {
		globs = append(globs, "**/"+n)
	}
	globs = append(globs, ".github/workflows/*.yml", ".github/workflows/*.yaml")
	for _, p := range budget.InstructionPatterns() {
		// a workspace below the client's folder has them too
		globs = append(globs, "**/"+p)
	}
	return globs
}

// InstructionLinks are the files that the agents' instruction files at
// root are symbolic links to (AGENTS.md → docs/agents.md), resolved to
// absolute paths, each once: a write to one changes what an agent loads
// and what cross-file reads, though its own name is no instruction file's
// and its folder may be watched by nobody. Nested instruction files below
// root are not followed.
func InstructionLinks(root string) []string {
	var out []string
	for _, p := range budget.InstructionPatterns() {
		for _, name := range store.Glob(filepath.Join(root, filepath.FromSlash(p))) {
			if !store.IsSymlink(name) {
				continue
			}
			if target, err := store.RealPath(name); err == nil && !slices.Contains(out, target) {
				out = append(out, target)
			}
		}
	}
	return out
}

// Interest is what a folder's entries cite, to tell which creations and
// deletions can change a verdict.
type Interest struct {
	// Paths are the cited paths, their folders, the folders commands run
	// in, and where the cited paths that exist are, relative to the root.
	Paths map[string]bool
	// Cited are the cited paths themselves (without a trailing slash) and
	// where a cited path was moved: a file that comes or goes in one (a
	// cited folder's first file) or beside one with an extension
	// (src/utils.ts for `src/utils`) may change its verdict, where one
	// anywhere below a folder of a cited path does not.
	Cited map[string]bool
	// Names are the last elements of cited paths: a bare name holds
	// wherever a file of that name is.
	Names map[string]bool
	// Links are the absolute paths InstructionLinks found: a change to
	// one is a change to an agent's instruction file.
	Links map[string]bool
}

// LinkedTo reports whether name is one of in.Links: as it is spelled, or
// resolved, since a root reached through a link (/var and /private/var)
// spells its files otherwise than InstructionLinks does.
func (in *Interest) LinkedTo(name string) bool {
	if len(in.Links) == 0 {
		return false
	}
	if in.Links[name] {
		return true
	}
	real, err := store.RealPath(name)
	return err == nil && in.Links[real]
}

// ReadAtCheck reports whether the file at p is one a check of the folder
// whose workspace root is root reads from disk itself, whatever a
// repository makes of it: an agent's instruction file there, or a file one
// links to (in's Links). A change to it calls for a check even when the
// repository answers as before (a root reached through a link, which the
// repository spells otherwise).
func (in *Interest) ReadAtCheck(root, p string) bool {
	if rel, ok := RootRelative(root, p); ok && budget.IsInstructionFile(rel) {
		return true
	}
	return in != nil && in.LinkedTo(p)
}

// NewInterest is an Interest in nothing yet.
func NewInterest() *Interest {
	return &Interest{Paths: map[string]bool{}, Cited: map[string]bool{}, Names: map[string]bool{}, Links: map[string]bool{}}
}

// AddPath notes p and its folders.
func (in *Interest) AddPath(p string) {
	for p != "" && p != "." && !in.Paths[p] {
		in.Paths[p] = true
		p = path.Dir(p)
	}
}

// CitedDirs are the folders to watch for ref, with what it cites noted in
// in: the folder of a cited path that exists (or the nearest existing
// folder of one that does not, to see it come back), of the manifest a
// command names, of each file that pins a version. root is the workspace
// root; within reports whether a path lies in the repository, whose
// folders alone are watched.
func CitedDirs(repo rules.Repo, root string, within func(abs string) bool, ref refs.Ref, in *Interest) []string {
	var out []string
	// located watches the folder of p where it exists and says where
	located := func(p string) (string, bool) {
		if repo == nil {
			return "", false
		}
		abs, ok := repo.Locate(p)
		if !ok || !within(abs) {
			return "", false
		}
		out = append(out, filepath.Dir(abs))
		if rel, ok := RootRelative(root, abs); ok {
			in.AddPath(rel)
		}
		return abs, true
	}
	switch ref.Kind {
	case refs.Path:
		in.AddPath(ref.Path)
		in.Cited[strings.TrimSuffix(ref.Path, "/")] = true
		in.Names[path.Base(ref.Path)] = true
		if abs, ok := located(ref.Path); ok {
			// a cited folder: what comes and goes in it is what it holds
			// (git lists no empty folder)
			if isDir, ok := repo.Stat(ref.Path); ok && isDir {
				out = append(out, abs)
			}
			break
		}
		// the path itself when it is a folder git does not list (empty):
		// its first file is what the verdict waits for
		out = append(out, nearestDir(root, filepath.Join(root, filepath.FromSlash(ref.Path))))
		// gone, and said where it went: the verdict rests on that place
		// too ("moved to X", "which does not exist either")
		if to, ok := movedTo(repo, ref.Path); ok {
			in.Cited[to] = true
			if _, ok := located(to); !ok {
				in.AddPath(to)
				// to is root-relative below the root, else top-relative:
				// the repository finds its folder either way
				if dir, ok := repo.Locate(path.Dir(to)); ok && within(dir) {
					out = append(out, dir)
				}
			}
		}
	case refs.Command:
		if ref.In != "" {
			in.AddPath(ref.In)
		}
		n := len(out)
		if repo != nil {
			if m, ok := repo.Manifest(ref.Tool, ref.In); ok {
				located(m.File)
			}
		}
		if len(out) == n {
			out = append(out, nearestDir(root, filepath.Join(root, filepath.FromSlash(ref.In))))
		}
	case refs.Version:
		if repo != nil {
			for _, p := range repo.Pins(ref.Subject) {
				located(p.File)
			}
		}
	}
	return out
}

// movedTo is where the history says p was moved, if it was.
func movedTo(repo rules.Repo, p string) (string, bool) {
	if repo == nil {
		return "", false
	}
	m, ok := repo.Moved(p)
	return m.To, ok && m.To != ""
}

// nearestDir is dir, or its nearest folder that exists, not above root.
func nearestDir(root, dir string) string {
	for store.Within(root, dir) && dir != root {
		if store.IsDir(dir) {
			return dir
		}
		dir = filepath.Dir(dir)
	}
	return root
}
