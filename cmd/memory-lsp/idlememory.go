package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A long-lived server (serve, mcp) gives the heap's free memory back to
// the system once it has been idle for a while after work. The collector
// lets the heap grow to twice what was live at its last cycle and its
// scavenger returns the rest only slowly, so a language server that
// checked a 100,000-entry workspace would otherwise sit all day at twice
// what it holds. The release is a full collection (tens of milliseconds
// at 100,000 entries, on this goroutine) and happens at most once per
// quiet spell, and only after enough allocation to be worth it.
const (
	idleTick = time.Second
	// idleAllocation is what a tick may allocate and still count as idle.
	idleAllocation = 1 << 20
	// releaseAfter is the allocation since the last release that makes
	// another worth its collection.
	releaseAfter = 16 << 20
)

// idleReleaser decides, a tick at a time, when to release.
type idleReleaser struct {
	allocated func() uint64 // bytes allocated since the process started
	release   func()
	lastTick  uint64 // allocated at the last tick
	released  uint64 // allocated after the last release
}

func newIdleReleaser() *idleReleaser {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	return &idleReleaser{
		allocated: func() uint64 {
			metrics.Read(sample)
			return sample[0].Value.Uint64()
		},
		release: debug.FreeOSMemory,
	}
}

// tick releases when the last tick was quiet and enough was allocated
// since the last release.
func (r *idleReleaser) tick() {
	now := r.allocated()
	quiet := now-r.lastTick <= idleAllocation
	r.lastTick = now
	if !quiet || now-r.released < releaseAfter {
		return
	}
	r.release()
	r.released = r.allocated()
	r.lastTick = r.released
}

// releaseWhenIdle ticks r until ctx is done.
func releaseWhenIdle(ctx context.Context, r *idleReleaser) {
	t := time.NewTicker(idleTick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.tick()
		}
	}
}
