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
}

// CheckWithRepo is Check with the repository the reference rules judge
// entries against (nil: they stay silent).
func CheckWithRepo(files []File, cfg config.Config, repo Repo) []Finding {
	return (&Checker{Repo: repo}).Check(files, cfg)
}
