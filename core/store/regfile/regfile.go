// Package regfile reads one regular file within a size limit, without
// blocking on a named pipe or reading a device. It is part of the disk
// boundary with store, in a package of its own so that config (which
// store's tests import) can read a settings file through it without an
// import cycle; core/deps_test.go allows both and nothing else in core.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is Read's error for a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file but %s", e.Path, e.Kind())
}

// Kind names the file type: "a directory", "a named pipe", …
func (e *NotRegularError) Kind() string {
	switch m := e.Mode; {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// OverLimitError is Read's error for a file over its limit.
type OverLimitError struct {
	Path  string
	Size  int64 // as far as it is known: the stat's size, or what was read
	Limit int64
}

func (e *OverLimitError) Error() string {
	return fmt.Sprintf("%s: %d bytes, over the limit of %d", e.Path, e.Size, e.Limit)
}

// ReadError is Read's error for a failure while reading the opened
// file (rather than finding or opening it). Its text is the underlying
// error's.
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string { return e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// Read reads the regular file at path (a symlink to one is fine) of
// at most limit bytes. The type is checked on a stat before the open, which
// would block on a named pipe and may act on a device; the type and size
// are checked again on the opened file, and the read stops one byte past the
// limit, so a file swapped or grown in between is bounded too. Errors: a
// *NotRegularError, an *OverLimitError, a *ReadError, or the error of the
// stat or open.
func Read(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(path, fi, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkRegular(path, fi, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &ReadError{Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &OverLimitError{Path: path, Size: int64(len(data)), Limit: limit}
	}
	return data, nil
}

func checkRegular(path string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if fi.Size() > limit {
		return &OverLimitError{Path: path, Size: fi.Size(), Limit: limit}
	}
	return nil
}

// ReadHead is Read that, for a regular file over limit, gives its first
// limit bytes instead of an error, and says so (cut).
func ReadHead(path string, limit int64) (data []byte, cut bool, err error) {
	data, err = Read(path, limit)
	var over *OverLimitError
	if !errors.As(err, &over) {
		return data, false, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false, &NotRegularError{Path: path}
	}
	data, err = io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, false, &ReadError{Path: path, Err: err}
	}
	return data, true, nil
}
