package memory

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// FileTooLargeError refuses a write that would have to plan edits in a
// memory file over rules.MaxFileBytes: such a file is never parsed, so no
// edit to it can be placed, and it is left byte for byte as it is.
type FileTooLargeError struct {
	// Op is what was refused: "store into", "fix", "clean up".
	Op   string
	Path string
	Size int64
}

func (e *FileTooLargeError) Error() string {
	return fmt.Sprintf("refusing to %s %s: it %s, so it is not parsed and nothing is written — trim it or split it first", e.Op, e.Path, rules.SizeProblem(e.Size))
}

// RefuseTooLarge returns a FileTooLargeError for the first category file
// over the limit, or nil. Fix and cleanup plan across the category files (slugs
// unique over all of them, merges and prunes per category), so one file
// they cannot read stops them before anything is written. Other files over
// the limit are simply not read: nothing plans edits in them.
func RefuseTooLarge(op string, files []rules.File) error {
	for _, f := range files {
		if f.IsCategory && f.TooLarge() {
			return &FileTooLargeError{Op: op, Path: f.Path, Size: f.Size()}
		}
	}
	return nil
}

// checkPointerPath refuses to write path, a file of init's outside
// `.memory` (.github/copilot-instructions.md, AGENTS.md, CLAUDE.md), unless
// the write stays inside the workspace root (store.CheckWorkspaceFile).
func (s *Service) checkPointerPath(path string) error {
	return store.CheckWorkspaceFile(s.WS.Root, path)
}
