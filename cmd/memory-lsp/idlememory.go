package main

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A long-lived server (serve, mcp) looks after its memory once a second:
//
//   - It gives the heap's free memory back to the system once it has been
//     idle for a while after work. The collector lets the heap grow to
//     twice what was live at its last cycle and its scavenger returns the
//     rest only slowly, so a language server that checked a 100,000-entry
//     workspace would otherwise sit all day at twice what it holds. The
//     release is a full collection (tens of milliseconds at 100,000
//     entries, on the ticker's goroutine) and happens at most once per
//     quiet spell, and only after enough allocation to be worth it.
//   - It keeps the soft memory limit a guard above what is live. The
//     limit the server starts with keeps a small workspace's heap small;
//     under a live heap larger than it (100,000 entries hold about
//     140 MB) the collector would start a full mark at the first
//     allocation after each one, up to half the CPU: a store at 100,000
//     entries cost three times the server CPU (BenchmarkStoreBinary's
//     server-cpu-ms/op). So the limit
//     follows the live heap at a quarter again its size, plus the
//     runtime's memory beside the heap (stacks, the collector's own),
//     which the limit counts too, and comes back to the starting one when
//     the live heap shrinks. A quarter, not the collector's own doubling
//     or the half it was: with an 8 MiB file open the server's peak is
//     that live heap and this room, and a half kept it over 100 MB where
//     a quarter checks as fast (issue 26; BenchmarkServerMemoryFullFile,
//     figures in BENCHMARKS.md).
const (
	idleTick = time.Second
	// idleAllocation is what a tick may allocate and still count as idle.
	idleAllocation = 1 << 20
	// releaseAfter is the allocation since the last release that makes
	// another worth its collection.
	releaseAfter = 16 << 20
)

// idleReleaser decides, a tick at a time, when to release and where the
// soft limit is.
type idleReleaser struct {
	allocated func() uint64 // bytes allocated since the process started
	// heap is the heap live at the last collection, and the runtime's
	// memory that is not the heap's.
	heap      func() (live, other uint64)
	release   func()
	setLimit  func(int64) // nil: the limit is the user's (GOMEMLIMIT) or off
	baseLimit int64       // the limit the process started with
	limit     int64       // the limit set now
	lastTick  uint64      // allocated at the last tick
	released  uint64      // allocated after the last release
}

func newIdleReleaser() *idleReleaser {
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	heap := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	r := &idleReleaser{
		allocated: func() uint64 {
			metrics.Read(allocs)
			return sampled(allocs[0])
		},
		heap: func() (live, other uint64) {
			metrics.Read(heap)
			v := func(i int) uint64 { return sampled(heap[i]) }
			heapTotal := v(2) + v(3) + v(4) + v(5)
			if v(1) > heapTotal {
				other = v(1) - heapTotal
			}
			return v(0), other
		},
		release: debug.FreeOSMemory,
	}
	if base := debug.SetMemoryLimit(-1); os.Getenv("GOMEMLIMIT") == "" && base < math.MaxInt64 {
		r.setLimit = func(l int64) { debug.SetMemoryLimit(l) }
		r.baseLimit, r.limit = base, base
	}
	return r
}

// sampled is s's value, 0 when this runtime does not measure it (a
// Value of another kind would panic).
func sampled(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// tick moves the soft limit with the live heap, and releases when the
// last tick was quiet and enough was allocated since the last release.
func (r *idleReleaser) tick() {
	if r.setLimit != nil {
		live, other := r.heap()
		need := int64(min(live+live/4+other, math.MaxInt64/2))
		if l := max(r.baseLimit, need); l != r.limit {
			r.setLimit(l)
			r.limit = l
		}
	}
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
