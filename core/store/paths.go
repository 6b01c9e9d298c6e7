package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Where a path leads. Paths that decide what is read or written (a memory
// file, `.memory` itself, a command's root, a file init writes beside
// `.memory`) come from repositories, editors and agents, and a symlink among
// them may lead anywhere. Each such check is made the same way: look at the
// path without following it (ResolveIn), and when it is a symlink, resolve
// it and the folder it must stay in and compare the two (Within). The
// callers word the refusal, since each names a different thing.
//
// os.Root would refuse an escaping link as well, but it cannot say where the
// link leads, and every refusal names the target: a `.memory/x.md` linked to
// a file elsewhere is something users keep, and they need to be told which
// file was left alone. The price is that ResolveIn looks before the caller
// opens, so a link swapped in between is not caught.

// Within reports whether path is dir or lies below it, both clean and
// absolute, compared as written: no symlink is followed, so to decide what
// may be read or written, compare resolved paths (ResolveIn does). The test
// is filepath.IsLocal's, which on Windows also counts a reserved name (NUL,
// COM1) or a colon as outside: no file to be written may have one.
func Within(dir, path string) bool {
	_, ok := RelativePath(dir, path)
	return ok
}

// RelativePath is path relative to dir when path is dir or lies below it
// (Within), for naming a file to a reader (SARIF's root-relative uris, the
// CLI's paths relative to the current folder): symlinks are deliberately
// not followed, so the name the user gave is the one shown.
func RelativePath(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !(rel == "." || filepath.IsLocal(rel)) {
		return "", false
	}
	return rel, true
}

// Resolved is what ResolveIn found at a path.
type Resolved struct {
	// Info is the path's own Lstat: for a symlink, the link's.
	Info fs.FileInfo
	// Link is, for a symlink, where it leads with every symlink resolved;
	// "" for anything else.
	Link string
	// Inside reports whether the path stays in the folder: always for a path
	// that is not a symlink (it lies in the folder by name); for a symlink,
	// whether Link lies within the folder, symlinks resolved.
	Inside bool
}

// ResolveStep is the step of ResolveIn that failed.
type ResolveStep int

const (
	// LookingAtPath: the Lstat of the path (fs.ErrNotExist: nothing there).
	LookingAtPath ResolveStep = iota
	// ResolvingLink: resolving the symlink the path is (fs.ErrNotExist: a
	// dangling link).
	ResolvingLink
	// ResolvingBase: resolving the folder the path should stay in.
	ResolvingBase
)

// ResolveError is ResolveIn's error. Its text is the underlying error's, so
// that callers wrap it in their own words.
type ResolveError struct {
	Step ResolveStep
	Path string // the path the failed step looked at
	Err  error
}

func (e *ResolveError) Error() string { return e.Err.Error() }
func (e *ResolveError) Unwrap() error { return e.Err }

// ResolveIn looks at path, which lies in folder base by name, without
// following it. When path is a symlink, it and base are resolved (base only
// then, so a caller may pass base as it has it), and Inside says whether the
// link stays in base. Errors are *ResolveError.
func ResolveIn(base, path string) (Resolved, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return Resolved{}, &ResolveError{Step: LookingAtPath, Path: path, Err: err}
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return Resolved{Info: fi, Inside: true}, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return Resolved{}, &ResolveError{Step: ResolvingLink, Path: path, Err: err}
	}
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return Resolved{}, &ResolveError{Step: ResolvingBase, Path: base, Err: err}
	}
	return Resolved{Info: fi, Link: real, Inside: Within(realBase, real)}, nil
}

// FailedStep is the step at which ResolveIn failed with err.
func FailedStep(err error) ResolveStep {
	var re *ResolveError
	if errors.As(err, &re) {
		return re.Step
	}
	return LookingAtPath
}

// CheckWorkspaceFile refuses to write path, a file a command writes in
// workspace root outside `.memory/` (init's pointer blocks in
// .github/copilot-instructions.md, AGENTS.md and CLAUDE.md, init --git's
// .gitattributes), unless the write stays inside the root: path must lie
// below the root, no existing folder on the way nor the file itself may be a
// symlink that leads out of the root, and an existing file must be a regular
// file. A repository could otherwise point such a command at any file its
// user may write (a `.github` symlink to the home folder, the file linked to
// ~/.bashrc), and init appends to it. Call it before anything is written, so
// that a refusal writes nothing.
func CheckWorkspaceFile(root, path string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", root, err)
	}
	rel, ok := RelativePath(root, path)
	if !ok || rel == "." {
		return fmt.Errorf("refusing to write %s: not a file inside the workspace %s", path, root)
	}
	p := root
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		p = filepath.Join(p, part)
		r, err := ResolveIn(realRoot, p)
		switch {
		case err == nil:
		case FailedStep(err) == LookingAtPath && errors.Is(err, fs.ErrNotExist):
			return nil // created from here on, inside what was checked
		case FailedStep(err) == LookingAtPath:
			return fmt.Errorf("checking %s: %w", p, err)
		default:
			return fmt.Errorf("refusing to write %s: %s is a symlink that cannot be resolved: %w", path, p, err)
		}
		fi := r.Info
		if r.Link != "" {
			if !r.Inside {
				return fmt.Errorf("refusing to write %s: %s is a symlink to %s, outside the workspace %s", path, p, r.Link, root)
			}
			if fi, err = os.Stat(r.Link); err != nil {
				return fmt.Errorf("checking %s: %w", p, err)
			}
		}
		if i == len(parts)-1 && !fi.Mode().IsRegular() {
			return fmt.Errorf("refusing to write %s: not a regular file", path)
		}
	}
	return nil
}

// PathProblem is the reason of a file-system error without the operation
// and path that the message around it already names.
func PathProblem(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return errors.New("it does not exist")
		}
		return pe.Err
	}
	return err
}

// RealPath is path with every symlink resolved (filepath.EvalSymlinks).
func RealPath(path string) (string, error) { return filepath.EvalSymlinks(path) }
