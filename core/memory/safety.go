package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/rules"
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
// the write stays inside the workspace root: path must lie below the root,
// no existing folder on the way nor the file itself may be a symlink that
// leads out of the root, and an existing file must be a regular file. A
// repository could otherwise point init at any file its user may write (a
// `.github` symlink to the home folder, the file linked to ~/.bashrc), and
// init appends to it. Call it before anything is written, so that a refusal
// writes nothing.
func (s *Service) checkPointerPath(path string) error {
	return CheckWorkspacePath(s.WS.Root, path)
}

// CheckWorkspacePath is checkPointerPath for any file a command writes
// outside `.memory/` (pointer blocks, `.gitattributes`) in workspace dir.
func CheckWorkspacePath(dir, path string) error {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", dir, err)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || !inside(dir, path) || rel == "." {
		return fmt.Errorf("refusing to write %s: not a file inside the workspace %s", path, dir)
	}
	p := dir
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // created from here on, inside what was checked
		}
		if err != nil {
			return fmt.Errorf("checking %s: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return fmt.Errorf("refusing to write %s: %s is a symlink that cannot be resolved: %w", path, p, err)
			}
			if !inside(root, real) {
				return fmt.Errorf("refusing to write %s: %s is a symlink to %s, outside the workspace %s", path, p, real, dir)
			}
			if fi, err = os.Stat(real); err != nil {
				return fmt.Errorf("checking %s: %w", p, err)
			}
		}
		if i == len(parts)-1 && !fi.Mode().IsRegular() {
			return fmt.Errorf("refusing to write %s: not a regular file", path)
		}
	}
	return nil
}

// inside reports whether path is dir or below it (both absolute and
// resolved).
func inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
