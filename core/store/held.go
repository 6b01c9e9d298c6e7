package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HeldName is the file in `.memory/` that keeps the writes waiting for a
// person's review (the `review` setting). A dot file: HackLM reads only the
// category files, our readers only `*.md`, and an agent told to read
// `.memory/` is pointed at the category files, so nothing held is read as
// memory before a person approves it.
const HeldName = ".held"

// MaxHeldBytes bounds the review queue a transaction reads: thousands of
// held writes. A queue that large is not reviewed but flooded, and reading
// it whole into every store would let a flood slow every writer.
const MaxHeldBytes = 1 << 20

// IsHeld reports whether path is the review queue.
func IsHeld(path string) bool { return filepath.Base(path) == HeldName }

// readHeld reads the review queue of the folder at dir (nil: none). The
// queue must be a regular file: a symlink would let what is held be read
// from, or written into, another file (a category file, where agents
// read it).
func readHeld(dir string) ([]byte, error) {
	path := filepath.Join(dir, HeldName)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("the review queue %s is %s, not a regular file: move it aside (memory-lsp keeps held writes only in a regular file)", path, kindOf(fi.Mode()))
	} else if err == nil && linkCount(fi) > 1 {
		return nil, fmt.Errorf("the review queue %s is a hard link (%d names): move it aside (memory-lsp keeps held writes only in a file of its own)", path, linkCount(fi))
	}
	data, size, _, err := readAtMost(path, MaxHeldBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the review queue %s: %w", path, err)
	case data == nil && size > MaxHeldBytes:
		return nil, fmt.Errorf("the review queue %s is %d bytes, over its limit of %d, so it is not read: move it aside, or cut it down by hand, before anything more is held or reviewed", path, size, MaxHeldBytes)
	}
	return data, nil
}
