//go:build unix

package store

import (
	"fmt"
	"io"
	"syscall"
)

// mapFile maps the file at name into memory, read-only, for a reading of
// git's index that neither copies 9 MB nor asks the collector for room;
// unmap ends the mapping, after which the bytes must not be used. An empty
// file, which cannot be mapped, is read.
func mapFile(name string) (b []byte, unmap func(), err error) {
	// Without blocking: a FIFO put where the file should be would hold the
	// open (and a read) until something wrote to it.
	f, err := openRead(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("mapping %s: not a regular file", name)
	}
	if fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		b, err := io.ReadAll(f)
		return b, func() {}, err
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}
