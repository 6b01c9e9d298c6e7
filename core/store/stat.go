package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// What is at a path, for the front ends: whether a folder the user named
// exists, whether a file an editor showed is gone, when a memory file last
// changed, whether the folder a cache was read from still looks the same.

// Stat describes the file at path, a symlink followed.
func Stat(path string) (fs.FileInfo, error) {
	return os.Stat(path)
}

// IsDir reports whether path is a directory, a symlink followed.
func IsDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Exists reports whether something is at path, a symlink followed.
func Exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// IsSymlink reports whether path is a symbolic link (not followed).
func IsSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// Glob is the paths that match pattern (filepath.Glob), none on a
// malformed pattern.
func Glob(pattern string) []string {
	names, _ := filepath.Glob(pattern)
	return names
}

// SameFile reports whether two stats are of one file (os.SameFile: the same
// device and inode where the system has them).
func SameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b)
}

// ModTime is the modification time of the file name in `.memory/` (a
// symlink followed), and whether it exists.
func (w *Workspace) ModTime(name string) (time.Time, bool) {
	fi, err := os.Stat(filepath.Join(w.Dir, name))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}

// DirStat is a stat of a folder and of the files Snapshot would read in it,
// taken without reading any: the folder's own Lstat and the Lstat of each
// of its *.md files, in name order. Two of them compared tell whether a
// snapshot may have changed in between.
type DirStat struct {
	Dir   fs.FileInfo
	Files []fs.FileInfo
}

// StatDir stats dir and its *.md files. dir must be a folder itself: the
// stat of a symlink to one says nothing about the folder behind it.
func StatDir(dir string) (DirStat, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return DirStat{}, err
	}
	if !fi.IsDir() {
		return DirStat{}, fmt.Errorf("%s: not a folder (a symlink is not followed)", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return DirStat{}, err
	}
	st := DirStat{Dir: fi}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".md") {
			continue // Snapshot reads nothing else
		}
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			return DirStat{}, err
		}
		st.Files = append(st.Files, fi)
	}
	return st, nil
}

// RacyWindow is how recently modified a file may be and still be judged
// unchanged by its stat: above the timestamp granularity of every common
// file system (ext4 and most others tick with the kernel's clock, some keep
// 1 or 2 s). A file rewritten within one tick with the same size keeps its
// stat, so a cache must re-read a file modified this recently.
const RacyWindow = 3 * time.Second

// SameFileAndMode reports whether two stats are of one file with the same
// mode, whatever its size and times.
func SameFileAndMode(a, b fs.FileInfo) bool {
	return SameFile(a, b) && a.Mode() == b.Mode()
}

// SameStat reports whether two stats are of one file with the same mode,
// size and modification time.
func SameStat(a, b fs.FileInfo) bool {
	return SameFileAndMode(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// Unchanged reports whether b, taken later, shows the folder of st with
// the same names, each the same file with the same mode, size and
// modification time (the folder's own times change with every lock and
// temp file, so only its identity counts).
func (st DirStat) Unchanged(b DirStat) bool {
	if st.Dir == nil || b.Dir == nil || !SameFile(st.Dir, b.Dir) || len(st.Files) != len(b.Files) {
		return false
	}
	for i, fi := range st.Files {
		if fi.Name() != b.Files[i].Name() || !SameStat(fi, b.Files[i]) {
			return false
		}
	}
	return true
}

// HasSymlink reports whether one of the files is a symlink, whose stat
// says nothing about the bytes behind it.
func (st DirStat) HasSymlink() bool {
	for _, fi := range st.Files {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// Stamp is a stat of one file, for telling later whether it is the file
// that was there then, unchanged (SameStat). The zero Stamp is of no file.
type Stamp struct{ fi fs.FileInfo }

// StampOf is the stamp of the file at path (a symlink followed); the zero
// Stamp when nothing can be stat'ed there.
func StampOf(path string) Stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}
	}
	return Stamp{fi}
}

// IsZero reports whether s is of no file.
func (s Stamp) IsZero() bool { return s.fi == nil }

// Same reports whether s and t are of one file with the same mode, size and
// modification time; never for a zero Stamp.
func (s Stamp) Same(t Stamp) bool { return s.fi != nil && t.fi != nil && SameStat(s.fi, t.fi) }

// IsDir reports whether s is of a directory.
func (s Stamp) IsDir() bool { return s.fi != nil && s.fi.IsDir() }

// SameFile reports whether s and t are of one file, whatever its mode,
// size and times; never for a zero Stamp.
func (s Stamp) SameFile(t Stamp) bool { return s.fi != nil && t.fi != nil && SameFile(s.fi, t.fi) }
