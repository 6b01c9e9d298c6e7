//go:build unix

package store

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMapFileRefusesAFIFO: a FIFO where a mapped file should be (git's
// index in a hostile or broken repository) is refused at once; opening or
// reading it the ordinary way waits until something writes to it, and the
// command never answered.
func TestMapFileRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.idx")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, unmap, err := mapFile(path)
		if err == nil {
			unmap()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was mapped as a file")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("mapping a FIFO did not return: a command would hang on it")
	}
}
