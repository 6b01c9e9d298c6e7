package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrReadOnly is returned for a file that has no write permission bit.
var ErrReadOnly = errors.New("read-only file")

// NewFileMode is the mode of a file that did not exist before.
const NewFileMode fs.FileMode = 0o644

// tempMarker is part of every temp file's name: `.<base>.tmp-<random>`. The
// leading dot and the random tail mean it never ends in `.md`, so no reader
// (ours or HackLM's) mistakes it for a memory file.
const tempMarker = ".tmp-"

// WriteFileAtomic replaces path with data so that readers see either the old
// or the new content, never a mix: it writes a temp file in the same
// directory, fsyncs it, gives it the existing file's mode (NewFileMode for a
// new file; umask does not apply) and, best effort, its owner, renames it
// over path and fsyncs the directory. If path is a symlink, the file it
// points to is replaced and the link kept. The temp file is removed on every
// error path.
//
// A file without any write permission bit is refused with ErrReadOnly: the
// rename would replace it regardless of its mode (and root may write
// anything), but someone made it read-only on purpose.
func WriteFileAtomic(path string, data []byte) (err error) {
	target := path
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return fmt.Errorf("writing %s: resolving symlink: %w", path, err)
		}
	}
	mode := NewFileMode
	orig, serr := os.Stat(target)
	switch {
	case serr == nil:
		if !orig.Mode().IsRegular() {
			return fmt.Errorf("writing %s: not a regular file", path)
		}
		mode = orig.Mode().Perm()
		if mode&0o222 == 0 {
			return fmt.Errorf("writing %s: the file is read-only (mode %04o); make it writable to change it: %w", path, mode, ErrReadOnly)
		}
	case errors.Is(serr, fs.ErrNotExist):
		orig = nil
	default:
		return fmt.Errorf("writing %s: %w", path, serr)
	}

	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+tempMarker+"*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if orig != nil {
		copyOwner(f, orig)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("writing %s: setting mode: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: fsync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp, target); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// The new content is in place; a failed directory sync only weakens
	// durability, but report it.
	if serr := syncDir(dir); serr != nil {
		return fmt.Errorf("writing %s: fsync of directory: %w", path, serr)
	}
	return nil
}
