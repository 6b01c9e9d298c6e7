// Package refstest holds a map-backed refs.Repo for tests.
package refstest

import (
	"path"
	"slices"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs"
)

// At names a manifest: the tool and the folder ("" for the root).
type At struct {
	Tool refs.Tool
	Dir  string
}

// Repo is a repository described in memory. The zero value is a
// repository with code but no files.
type Repo struct {
	// NoCode says the root holds nothing but .memory/.
	NoCode bool
	// Files are the tracked files, slash-separated; their folders exist.
	Files []string
	// Ignore are .gitignore lines of the simple kinds: "dist/" (a folder
	// name anywhere), "*.log" or ".env" (a name glob anywhere),
	// "/build" (a root entry).
	Ignore    []string
	Manifests map[At]refs.Manifest
	// Then are the manifests as they were when the entry judged was
	// written (ManifestThen), and at any time asked (ManifestAt).
	Then map[At]refs.Manifest
	// Lost maps a manifest to the names its history shows it lost, with
	// the commit that removed each (ManifestLost).
	Lost map[At]map[string]refs.Move
	// Gone maps a path that no longer exists to what the history says
	// of it; a name without a slash is looked up by its last element too.
	Gone map[string]refs.Move
	// Had are the root's files and folders (a folder with a trailing
	// slash) when the entry judged was written (RootHad), and at any time
	// asked (RootAt).
	Had []string
	// PinsOf maps a subject to its pins.
	PinsOf map[string][]refs.Pin
	// InHead are the files the newest commit holds that the index lost
	// since (a move not committed yet); their folders count too.
	InHead []string
}

func (r *Repo) Children(dir string) []string {
	prefix := ""
	if dir != "" {
		prefix = strings.TrimSuffix(dir, "/") + "/"
	}
	var out []string
	for _, f := range r.Files {
		if rest, ok := strings.CutPrefix(f, prefix); ok {
			name, _, _ := strings.Cut(rest, "/")
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func (r *Repo) Committed(p string) bool {
	p = strings.TrimSuffix(p, "/")
	for _, f := range r.InHead {
		if f == p || strings.HasPrefix(f, p+"/") {
			return true
		}
	}
	return false
}

func (r *Repo) HasCode() bool { return !r.NoCode }

func (r *Repo) Stat(p string) (isDir, ok bool) {
	for _, f := range r.Files {
		if f == p {
			return false, true
		}
		if strings.HasPrefix(f, p+"/") {
			isDir, ok = true, true
		}
	}
	return isDir, ok
}

func (r *Repo) Endings(p string) int {
	seen := map[string]bool{}
	for _, f := range r.Files {
		for full := f; full != "." && full != ""; full = path.Dir(full) {
			if !seen[full] && (full == p || strings.HasSuffix(full, "/"+p)) {
				seen[full] = true
			}
			if !strings.Contains(full, "/") {
				break
			}
		}
	}
	return min(len(seen), 2)
}

func (r *Repo) Ignored(p string) bool {
	segs := strings.Split(p, "/")
	for _, pat := range r.Ignore {
		switch {
		case strings.HasPrefix(pat, "/"):
			if m, _ := path.Match(strings.TrimSuffix(pat[1:], "/"), segs[0]); m {
				return true
			}
		case strings.HasSuffix(pat, "/"):
			name := strings.TrimSuffix(pat, "/")
			for _, s := range segs {
				if m, _ := path.Match(name, s); m {
					return true
				}
			}
		default:
			for _, s := range segs {
				if m, _ := path.Match(pat, s); m {
					return true
				}
			}
		}
	}
	return false
}

func (r *Repo) Manifest(t refs.Tool, dir string) (refs.Manifest, bool) {
	m, ok := r.Manifests[At{t, dir}]
	return m, ok
}

func (r *Repo) ListedBelow(t refs.Tool, name string) bool {
	for at, m := range r.Manifests {
		if at.Tool == t && at.Dir != "" && slices.Contains(m.Names, name) {
			return true
		}
	}
	return false
}

func (r *Repo) ManifestThen(t refs.Tool, dir string) (refs.Manifest, bool) {
	m, ok := r.Then[At{t, dir}]
	return m, ok
}

func (r *Repo) ManifestLost(t refs.Tool, dir, name string) (refs.Move, bool) {
	m, ok := r.Lost[At{t, dir}][name]
	return m, ok
}

// ManifestAt is ManifestThen at any time: the rules.Repo form of it.
func (r *Repo) ManifestAt(t refs.Tool, dir string, _ time.Time) (refs.Manifest, bool) {
	return r.ManifestThen(t, dir)
}

func (r *Repo) RootHad(name string) (isDir, ok bool) {
	for _, h := range r.Had {
		if h == name || h == name+"/" {
			return h != name, true
		}
	}
	return false, false
}

// RootAt is RootHad at any time: the rules.Repo form of it.
func (r *Repo) RootAt(name string, _ time.Time) (isDir, ok bool) { return r.RootHad(name) }

func (r *Repo) Stem(p string) bool {
	for _, f := range r.Files {
		if rest, ok := strings.CutPrefix(f, p+"."); ok && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

func (r *Repo) Moved(p string) (refs.Move, bool) {
	if m, ok := r.Gone[p]; ok {
		return m, true
	}
	if strings.Contains(p, "/") {
		return refs.Move{}, false
	}
	for old, m := range r.Gone {
		if path.Base(old) == p {
			m.ByName = true
			return m, true
		}
	}
	return refs.Move{}, false
}

func (r *Repo) Pins(subject string) []refs.Pin { return r.PinsOf[subject] }
