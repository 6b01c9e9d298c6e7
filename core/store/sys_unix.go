//go:build unix

package store

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processAlive signals pid with signal 0. Only ESRCH means dead; EPERM (the
// process exists but belongs to someone else) and any other error count as
// alive, so we never steal a live writer's lock (HackLM treats EPERM as dead,
// §21 B10).
func processAlive(pid int) bool {
	return aliveFromErr(syscall.Kill(pid, 0))
}

func aliveFromErr(err error) bool {
	return !errors.Is(err, syscall.ESRCH)
}

// openRead opens a file for reading without blocking: opening a named pipe
// for reading waits for a writer, so a `.memory/*.md` that is a FIFO (or
// became one after the caller's Lstat) would hang every read. Non-blocking
// mode does not change how a regular file reads.
func openRead(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// syncDir fsyncs a directory so a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil // file systems that cannot sync directories
	}
	return err
}

// copyOwner gives the temp file the original's owner and group, best effort
// (it only works for root or for a group we belong to).
func copyOwner(f *os.File, orig fs.FileInfo) {
	if st, ok := orig.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(st.Uid), int(st.Gid))
	}
}

// linkCount is the number of hard links of a file.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
