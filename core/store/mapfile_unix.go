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
	f, fi, err := openRegular(name)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", name, err)
	}
	defer f.Close()
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
