package store

import (
	"errors"
	"fmt"
	"io/fs"
)

// ErrTooLarge is wrapped by ReadOne's error for a file over MaxReadBytes.
var ErrTooLarge = errors.New("memory file too large")

// ReadOne reads one memory file outside any lock, as Snapshot reads each of
// its files: nil data (and no error) when the file is absent, an error
// wrapping ErrTooLarge when it is over MaxReadBytes, and never blocking on a
// pipe. The language server uses it to see, cheaply and without the lock,
// whether the file under an open buffer has changed; every decision that
// follows is made again on a snapshot read inside the lock.
func ReadOne(path string) ([]byte, error) { return ReadOneKnown(path, nil) }

// ReadOneKnown is ReadOne, giving known itself (non-nil) when the file holds
// exactly those bytes: compared, not copied, as Workspace.Known.
func ReadOneKnown(path string, known []byte) ([]byte, error) {
	data, size, _, err := readKnown(path, MaxReadBytes, known)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", path, err)
	case data == nil:
		return nil, fmt.Errorf("reading %s: %d bytes: %w", path, size, ErrTooLarge)
	}
	return data, nil
}
