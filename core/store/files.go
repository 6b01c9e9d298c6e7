package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/store/regfile"
)

// Files other than the memory files of a snapshot: the ones init keeps
// pointer blocks in, .gitattributes, the versions of a memory file git hands
// the merge driver. Their callers decide what the bytes mean; reading and
// writing them is done here, and a project's settings file is read here
// through regfile (a --config file, given by the user, by config).

// ReadFile reads the whole file at path, a symlink followed.
func ReadFile(path string) ([]byte, error) {
	return os.ReadFile(path)
}

// ReadIfExists is ReadFile that gives nil data and no error when nothing is
// at path; an existing file, even an empty one, gives non-nil data.
func ReadIfExists(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// WriteFileCreatingDirs is WriteFileAtomic for a file whose folder may not
// exist yet (init's .github/copilot-instructions.md): the missing folders
// are created first.
func WriteFileCreatingDirs(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	return WriteFileAtomic(path, data)
}

// MaxSettingsBytes bounds a settings file read from a project.
const MaxSettingsBytes = 1 << 20

// ReadSettings reads a project's settings file at path: nil when there is
// none; an error when it is no regular file or over MaxSettingsBytes (a
// repository could name a pipe or a huge file there).
func ReadSettings(path string) ([]byte, error) {
	data, err := regfile.Read(path, MaxSettingsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the project's settings %s: %w", path, err)
	}
	return data, nil
}
