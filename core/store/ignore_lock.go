package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// lockPattern is the line IgnoreLock adds to the workspace's .gitignore:
// HackLM's ADR 0018 asks every project that tracks .memory/ to ignore its
// lock, a file that exists only while a writer holds it (issue 28).
const lockPattern = DirName + "/" + LockFile

// IgnoreLock adds lockPattern to the .gitignore in root, the folder that
// holds .memory, when root is in a git repository that does not ignore the
// lock already (by any rule: a parent .gitignore, info/exclude, a global
// file). It returns the .gitignore's path when it added the line. Without
// git, or outside a repository, it does nothing: there is nothing to
// commit.
func IgnoreLock(root string) (string, error) {
	if _, err := git(context.Background(), root, "rev-parse", "--is-inside-work-tree"); err != nil {
		return "", nil
	}
	if check, _ := gitCommand(context.Background(), root, "check-ignore", "-q", lockPattern); check.Run() == nil {
		return "", nil // ignored already
	}
	path := filepath.Join(root, ".gitignore")
	have, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	add := "# HackLM's lock file, held only while a writer writes (memory-lsp init)\n" + lockPattern + "\n"
	if len(have) > 0 && have[len(have)-1] != '\n' {
		add = "\n" + add
	}
	if err := WriteFileCreatingDirs(path, append(have, add...)); err != nil {
		return "", err
	}
	return path, nil
}
