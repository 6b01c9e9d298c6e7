package lsp

import (
	"runtime/debug"
	"runtime/metrics"
)

// A soft memory limit below the live heap is no guard: the collector then
// starts a new cycle at the first allocation after each one ends, so that
// every request of a large workspace marks the whole heap, and pays for it
// in assists (at 100,000 entries, a live heap of about 140 MB against
// MemoryLimit's 44 MiB: a store took 30–50 ms instead of 10–15, the
// collector half of the server's CPU). So when the limit is the server's
// own (Options.FitMemoryLimit), it is kept above what the last collection
// found live, with liveHeadroom of room, and back at MemoryLimit once the
// live heap fits under it again.

// liveHeadroom is the share of the live heap the limit leaves above it: a
// collection every eighth of the live heap allocated, instead of one per
// allocation, for an eighth more memory.
const liveHeadroom = 8

// fitMemoryLimit sets the soft memory limit to floor, or, when the live
// heap with its headroom and the runtime's other memory would not fit
// under it, to that.
func fitMemoryLimit(floor int64) {
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(samples)
	for _, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return // not measured by this runtime: leave the limit alone
		}
	}
	v := func(i int) int64 { return int64(samples[i].Value.Uint64()) }
	live := v(0)
	other := v(1) - v(2) - v(3) - v(4) - v(5) // stacks, the collector's own, …
	debug.SetMemoryLimit(max(floor, live+live/liveHeadroom+max(other, 0)))
}
