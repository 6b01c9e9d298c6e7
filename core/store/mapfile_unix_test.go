//go:build unix

package store

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMapCacheFileRefusesAFIFO: a FIFO where the query index should be (a
// hostile or broken cache folder) is refused at once; opening or reading
// it the ordinary way waits until something writes to it, and the query
// never answered.
func TestMapCacheFileRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.idx")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, unmap, err := MapCacheFile(path)
		if err == nil {
			unmap()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was mapped as an index file")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("mapping a FIFO did not return: a query would hang on it")
	}
}
