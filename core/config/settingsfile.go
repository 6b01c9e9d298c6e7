package config

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxFileBytes is the largest settings file ReadSettingsFile reads: 1 MiB,
// thousands of times a real one (a few hundred bytes). A larger file is a
// mistake, and reading it whole (a multi-gigabyte file) could exhaust memory.
const MaxFileBytes = 1 << 20

// ReadSettingsFile reads a settings file (--config) for ParseSettings;
// errors name the file. The file must be a regular file (a symlink to one is
// fine) of at most MaxFileBytes: `--config /dev/zero` would otherwise be
// read until memory runs out, and a named pipe would block until someone
// writes to it. The type is checked before the open, which would block on a
// pipe; the type and size are checked again on the opened file, and the read
// stops one byte past the limit, so a file swapped or grown in between is
// bounded too.
func ReadSettingsFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	if err := checkSettingsFile(path, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	if err := checkSettingsFile(path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading config %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, tooLarge(path, int64(len(data)))
	}
	return data, nil
}

func checkSettingsFile(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("reading config %s: not a regular file but %s; settings are read from a JSON file", path, kind(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return tooLarge(path, fi.Size())
	}
	return nil
}

func tooLarge(path string, size int64) error {
	return fmt.Errorf("reading config %s: it is %d bytes, over the 1 MiB limit of a settings file", path, size)
}

// kind names a file type that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
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
