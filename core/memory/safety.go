package memory

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// FileTooLargeError refuses a write that would have to plan edits in a
// memory file over the limits (rules.MaxFileBytes, rules.MaxFileLines):
// such a file is never parsed, so no edit to it can be placed, and it is
// left byte for byte as it is. With Grown or GrownLines set it refuses a
// write that would take a file within the limits over them: every reader
// (this tool's and the editor's server alike) would then pass the file by,
// and a buffer of it saved later would drop what the write added, so the
// write is refused before anything is written.
type FileTooLargeError struct {
	// Op is what was refused: "store into", "fix", "clean up".
	Op   string
	Path string
	Size int64
	// Lines is the file's line count when that is what is over the limit
	// (0 when it was not counted).
	Lines int
	// Grown and GrownLines are the size and line count the refused write
	// would have made of the file; 0 when the file is over the limits
	// already.
	Grown      int64
	GrownLines int
}

func (e *FileTooLargeError) Error() string {
	switch {
	case e.Grown > rules.MaxFileBytes:
		return fmt.Sprintf("refusing to %s %s: it is %d bytes, and this would make it %d bytes, over the limit of a memory file (%d MiB, %d bytes) past which it is not read; nothing was written — trim it or split it first",
			e.Op, e.Path, e.Size, e.Grown, rules.MaxFileBytes>>20, rules.MaxFileBytes)
	case e.GrownLines > 0:
		return fmt.Sprintf("refusing to %s %s: it holds %d lines, and this would make it %d, over the limit of a memory file (%d lines) past which it is not read; nothing was written — trim it or split it first",
			e.Op, e.Path, e.Lines, e.GrownLines, rules.MaxFileLines)
	}
	return fmt.Sprintf("refusing to %s %s: it %s, so it is not parsed and nothing is written — trim it or split it first", e.Op, e.Path, memfile.LimitProblem(e.Size, e.Lines))
}

// tooLarge is the FileTooLargeError refusing op on f, which is TooLarge.
func tooLarge(op string, f *rules.File) *FileTooLargeError {
	return &FileTooLargeError{Op: op, Path: f.Path, Size: f.Size(), Lines: f.Lines()}
}

// RefuseGrowth returns a *FileTooLargeError with Grown or GrownLines when
// after, the new bytes of the file at path (now before), is over
// rules.MaxFileBytes or rules.MaxFileLines, or nil. A file of exactly that
// many bytes or lines is still read, parsed and checked
// (rules.File.TooLarge), so a write may fill it to the byte and the line.
func RefuseGrowth(op, path string, before, after []byte) error {
	if len(after) > rules.MaxFileBytes {
		return &FileTooLargeError{Op: op, Path: path, Size: int64(len(before)), Grown: int64(len(after))}
	}
	if n := memfile.Lines(after); n > rules.MaxFileLines {
		return &FileTooLargeError{Op: op, Path: path, Size: int64(len(before)), Lines: memfile.Lines(before), Grown: int64(len(after)), GrownLines: n}
	}
	return nil
}

// RefuseGrown is RefuseGrowth for the first file, in file order, that
// after (new bytes by index into files, as FixAll, PlanAssignSlugs and
// PlanCleanup give them) would take over the limit: one file refused
// refuses the whole write, which plans across the files.
func RefuseGrown(op string, files []rules.File, after map[int][]byte) error {
	for i := range files {
		if b, ok := after[i]; ok {
			if err := RefuseGrowth(op, files[i].Path, files[i].Doc.Src, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// RefuseTooLarge returns a FileTooLargeError for the first category file
// over the limit, or nil. Fix and cleanup plan across the category files (slugs
// unique over all of them, merges and prunes per category), so one file
// they cannot read stops them before anything is written. Other files over
// the limit are simply not read: nothing plans edits in them.
func RefuseTooLarge(op string, files []rules.File) error {
	for _, f := range files {
		if f.IsCategory && f.TooLarge() {
			return tooLarge(op, &f)
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
