package rules

import (
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// Repo is the code beside the memory folder, which the reference rules
// (stale-path, stale-command, version-drift) judge entries against. A
// check without one, or with one whose HasCode is false, leaves those
// rules silent: there is nothing to check against.
type Repo interface {
	refs.Repo
	// Written is when line (1-based, as HackLM counts lines) of the memory
	// file at path was last written: its commit's time, or the zero time
	// when it is not committed (an open buffer's new line, a file git does
	// not track). A path the history shows gone already before the entry
	// was written is one the entry speaks of as gone (refs.Move.Before).
	Written(path string, line int) time.Time
	// ManifestAt is tool's manifest in dir ("" for the root) as it was in
	// the newest commit made before at: asked with the time a line was
	// written, what its author read. ok is false outside git, or when there
	// was none then.
	ManifestAt(tool refs.Tool, dir string, at time.Time) (m refs.Manifest, ok bool)
	// RootAt is whether the root held name (one element), and whether as a
	// folder, in the newest commit made before at: asked with the time a
	// line was written, what its author saw. ok is false when it did not,
	// or outside git.
	RootAt(name string, at time.Time) (isDir, ok bool)
	// Locate is the absolute path of a cited path that exists (from the
	// workspace root, else from the git top level, else the one existing
	// path it ends), for a link or a go-to-definition; ok is false when
	// there is no such file or folder.
	Locate(path string) (abs string, ok bool)
	// LastChange is the last commit that changed an existing path, for a
	// hover ("last changed 3 days ago in abc1234"); ok is false outside
	// git or for a path no commit touched.
	LastChange(path string) (commit string, when time.Time, ok bool)
}

// CheckWithRepo is Check with the repository the reference rules judge
// entries against (nil: they stay silent).
func CheckWithRepo(files []File, cfg config.Config, repo Repo) []Finding {
	return (&Checker{Repo: repo}).Check(files, cfg)
}
