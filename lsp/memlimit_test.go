package lsp

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestFitMemoryLimit: the soft limit rises above a live heap that outgrew
// its floor, with room for an eighth more, and is the floor while the live
// heap fits under it.
func TestFitMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const floor = 16 << 20
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20) // 64 MB live, in pieces
	}
	runtime.GC()
	fitMemoryLimit(floor)
	if got := debug.SetMemoryLimit(-1); got < 64<<20+8<<20 {
		t.Errorf("with 64 MB live, the limit is %d MB; want at least 72", got>>20)
	}
	runtime.KeepAlive(live)
	runtime.GC() // live is garbage now
	const high = 1 << 30
	fitMemoryLimit(high)
	if got := debug.SetMemoryLimit(-1); got != high {
		t.Errorf("with the live heap under the floor, the limit is %d MB; want the floor, %d", got>>20, high>>20)
	}
}
