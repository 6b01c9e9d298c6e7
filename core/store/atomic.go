package store

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// ErrReadOnly is returned for a file that has no write permission bit.
var ErrReadOnly = errors.New("read-only file")

// NewFileMode is the mode of a file that did not exist before.
const NewFileMode fs.FileMode = 0o644

// tempMarker is part of every temp file's name: `.<base>.tmp-<hex>`. The
// leading dot and the hex tail mean it never ends in `.md`, so no reader
// (ours or HackLM's) mistakes it for a memory file.
const tempMarker = ".tmp-"

// maxTempTail bounds the random tail isTempName accepts: 16 hex digits now,
// up to 10 decimal digits from os.CreateTemp in earlier versions.
const maxTempTail = 20

// stage is a point inside a write transaction at which a test can stop the
// writer (Workspace.hook) to see what a crash there leaves behind.
type stage int

const (
	// stageLocked: the lock is held; nothing has been read yet.
	stageLocked stage = iota + 1
	// stageTempSynced: the new content is in a temp file, fsynced, not yet
	// renamed over the target.
	stageTempSynced
	// stageRenamed: the temp file has replaced the target; the directory is
	// not fsynced yet.
	stageRenamed
	// stageWritten: every change is written; the lock is still held.
	stageWritten
)

func (s stage) String() string {
	switch s {
	case stageLocked:
		return "locked"
	case stageTempSynced:
		return "temp-synced"
	case stageRenamed:
		return "renamed"
	case stageWritten:
		return "written"
	}
	return fmt.Sprintf("stage(%d)", int(s))
}

// isTempName reports whether name is one of our temp files:
// `.<base>.tmp-<tail>` with a non-empty base and a tail of 1 to maxTempTail
// lowercase hex digits. Nothing else we or HackLM write looks like that
// (`.lock`, `.lock.break`, `*.md`, `*.log`), so a match is safe to delete.
func isTempName(name string) bool {
	i := strings.LastIndex(name, tempMarker)
	if i < 2 || name[0] != '.' {
		return false
	}
	tail := name[i+len(tempMarker):]
	if tail == "" || len(tail) > maxTempTail {
		return false
	}
	for _, c := range []byte(tail) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// createTemp makes a new, empty temp file for base in dir. The name is ours
// (not os.CreateTemp's) so that isTempName can recognise exactly the files we
// create.
func createTemp(dir, base string) (*os.File, error) {
	var err error
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s%s%016x", base, tempMarker, rand.Uint64()))
		var f *os.File
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, err
}

// removeTemps deletes the temp files WriteFileAtomic left in dir, best
// effort. Call it only while holding dir's lock. Temp files are created only
// inside Update, under the lock, and a holder renames or removes its own
// before it releases the lock; so any temp file present while we hold the
// lock belongs to a writer that died (kill -9, power loss) or that held the
// lock past Stale and was overtaken. Removing the latter's also makes its
// late rename fail instead of replacing newer content. Only regular files
// whose name matches isTempName are touched; a leftover we fail to remove
// costs disk space only, as no reader takes it for memory.
func removeTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Type().IsRegular() && isTempName(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

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
//
// Inside `.memory/` write only through Workspace.Update: the next lock holder
// deletes any temp file it finds there as left by a dead writer.
func WriteFileAtomic(path string, data []byte) error {
	return writeFileAtomic(path, data, nil, nil)
}

// writeFileAtomic is WriteFileAtomic with a test hook (nil in production)
// called at stageTempSynced and stageRenamed, and a guard (nil: none)
// called at the last moment before the file is replaced; an error from it
// abandons the write, leaving the file as it was.
//
// A file with more than one hard link is written in place instead (see
// writeInPlace): a rename would give this name a new inode and leave the
// other names holding the old text.
func writeFileAtomic(path string, data []byte, hook func(stage), guard func() error) (err error) {
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
	if orig != nil && linkCount(orig) > 1 {
		return writeInPlace(path, target, data, hook, guard)
	}

	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := createTemp(dir, base)
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
	if hook != nil {
		hook(stageTempSynced)
	}
	if guard != nil {
		if err = guard(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err = os.Rename(tmp, target); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if hook != nil {
		hook(stageRenamed)
	}
	// The new content is in place; a failed directory sync only weakens
	// durability, but report it.
	if serr := syncDir(dir); serr != nil {
		return fmt.Errorf("writing %s: fsync of directory: %w", path, serr)
	}
	return nil
}

// writeInPlace replaces the content of target, a file with other hard links,
// keeping its inode so that every name sees the new text, as HackLM's
// writeFileSync does. It overwrites from the start, truncates to the new
// length and fsyncs. Unlike the rename, a reader may see a torn file while
// it runs, and a crash part-way leaves one; writers cannot, as each holds
// the lock. It is the price of keeping the links, which the user made on
// purpose.
func writeInPlace(path, target string, data []byte, hook func(stage), guard func() error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("writing %s in place: %w", path, err)
	}
	defer f.Close()
	if hook != nil {
		hook(stageTempSynced)
	}
	if guard != nil {
		if err := guard(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return fmt.Errorf("writing %s in place: %w", path, err)
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return fmt.Errorf("writing %s in place: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("writing %s in place: fsync: %w", path, err)
	}
	if hook != nil {
		hook(stageRenamed)
	}
	return f.Close()
}
