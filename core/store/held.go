package store

import (
	"errors"
	"fmt"
	"io/fs"
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

// readHeld reads the review queue of the folder at dir (nil: none).
func readHeld(dir string) ([]byte, error) {
	path := filepath.Join(dir, HeldName)
	data, size, _, err := readAtMost(path, MaxHeldBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the review queue %s: %w", path, err)
	case data == nil && size > MaxHeldBytes:
		return nil, fmt.Errorf("the review queue %s is %d bytes, over its limit of %d: approve or reject what it holds (memory-lsp review) before anything more is held", path, size, MaxHeldBytes)
	}
	return data, nil
}
