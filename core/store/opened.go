package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
)

// Opened is a category file that OpenSnapshot opened instead of reading,
// for a reader that keeps an index of its bytes elsewhere and reads only
// the lines it needs: its Stamp says whether that index still holds.
// Every read is of the file opened, whatever happens at its path since.
type Opened struct {
	// Index is the file's place in the snapshot's Files; its Data is nil.
	Index int
	// Stamp identifies the bytes of the file opened (git's stat data).
	Stamp Stamp
	fh    interface {
		io.ReaderAt
		io.Closer
		Stat() (fs.FileInfo, error)
	}
}

// Stamp identifies a file's bytes without reading them: its size, the
// times of its last change of content and of metadata (ns), its inode and
// its device. Size is -1 where the system gives no such data: then no
// stamp vouches for anything.
type Stamp struct {
	Size, ModNs, ChangeNs int64
	Ino, Dev              uint64
}

// racyWindow is how close to the moment a file was read its last change
// may be for its stamp to still vouch for the bytes read. A write in the
// same tick of the file system's clock as the one before leaves the stamp
// as it was, so a file changed that near the reading may have changed
// again, unseen (git's "racily clean" entries). Timestamps without a
// fraction of a second (FAT, HFS+, some network file systems) tick in
// seconds or two: RacyWindow; others in a scheduler tick (at most 10 ms on
// Linux), given ten times that.
func (s Stamp) racyWindow() time.Duration {
	if s.ModNs%1e9 == 0 && s.ChangeNs%1e9 == 0 {
		return RacyWindow
	}
	return 100 * time.Millisecond
}

// Vouches reports whether what was read at built (ns) of a file stamped
// was reflects the file now stamped now: the same stamp, and a last change
// that was not racily close to the reading.
func (was Stamp) Vouches(now Stamp, built int64) bool {
	if was != now || was.Size < 0 {
		return false
	}
	edge := built - int64(was.racyWindow())
	return was.ModNs < edge && was.ChangeNs < edge
}

// OpenSnapshot is Snapshot without reading the category files: each one
// Snapshot would read is opened instead and listed in opened, with Data
// nil in the snapshot; everything else (which files exist, which are too
// large, symlinks, errors) is as Snapshot has it. The caller closes the
// files opened (CloseAll).
func (w *Workspace) OpenSnapshot() (*Snapshot, []*Opened, error) {
	return w.snapshot(nil, true)
}

// CloseAll closes the files opened.
func CloseAll(opened []*Opened) { closeAll(opened) }

func closeAll(opened []*Opened) {
	for _, o := range opened {
		if o.fh != nil {
			_ = o.fh.Close()
		}
	}
}

// openFile is readFile's reading of f into o: the file opened, and its
// size, mode and stamp taken of the file opened.
func openFile(f *File, o *Opened) error {
	fh, fi, err := openRegular(f.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, errNotRegular):
		return notRegular(f)
	case err != nil:
		return fmt.Errorf("reading %s: %w", f.Path, err)
	}
	f.Exists, f.Size, f.Mode = true, fi.Size(), fi.Mode().Perm()
	if f.Size > MaxReadBytes {
		fh.Close()
		return nil // too large: listed as Snapshot lists it
	}
	o.fh, o.Stamp = fh, stampOf(fi)
	return nil
}

// Unchanged reports whether the open file still has the stamp it had when
// it was opened: a writer that rewrites a file in place (not by a rename,
// which leaves the open file as it was) between the open and a ReadAt
// changes the bytes under the offsets an index gave, and its stamp.
func (o *Opened) Unchanged() bool {
	fi, err := o.fh.Stat()
	// Where there is no stat data (Size -1) nothing can vouch for the bytes.
	return err == nil && o.Stamp.Size >= 0 && stampOf(fi) == o.Stamp
}

// ReadAt reads len(b) bytes of the file from off.
func (o *Opened) ReadAt(b []byte, off int64) error {
	_, err := o.fh.ReadAt(b, off)
	return err
}

// ReadAll reads the whole file, as Snapshot would have (at most
// MaxReadBytes: a file that grew past that since it was opened is an
// error).
func (o *Opened) ReadAll() ([]byte, error) {
	buf := make([]byte, 0, max(o.Stamp.Size, 0)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := min(cap(buf), MaxReadBytes+1)
		n, err := o.fh.ReadAt(buf[len(buf):end], int64(len(buf)))
		buf = buf[:len(buf)+n]
		if len(buf) > MaxReadBytes {
			return nil, fmt.Errorf("the file grew past %d bytes while it was read", MaxReadBytes)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
