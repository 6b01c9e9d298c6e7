package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestIdleReleaser: the heap is released on the first quiet tick after
// enough work, once per quiet spell, never while work goes on, and not
// after too little work to be worth a collection.
func TestIdleReleaser(t *testing.T) {
	var allocated uint64
	releases := 0
	r := &idleReleaser{allocated: func() uint64 { return allocated }, release: func() { releases++; allocated += 4 << 10 }}
	steps := []struct {
		name     string
		alloc    uint64 // allocated during the tick before this one
		releases int    // releases so far after this tick
	}{
		{"start, nothing done", 0, 0},
		{"a check", 40 << 20, 0},
		{"still checking", 30 << 20, 0},
		{"quiet after the work", 0, 1},
		{"still quiet", 0, 1},
		{"quiet, a little noise", 512 << 10, 1},
		{"a keystroke's work", 8 << 20, 1},
		{"quiet, but too little since the release", 0, 1},
		{"more keystrokes", 12 << 20, 1},
		{"quiet after enough work", 100 << 10, 2},
		{"busy, steadily", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"busy", 2 << 20, 2},
		{"quiet after a long busy spell", 0, 3},
	}
	for i, s := range steps {
		allocated += s.alloc
		r.tick()
		if releases != s.releases {
			t.Fatalf("step %d (%s): %d releases, want %d", i, s.name, releases, s.releases)
		}
	}
}

// TestSoftLimitFollowsTheLiveHeap: the soft limit stays the one the
// server started with while the live heap fits well under it, rises to
// half again a larger live heap, and comes back down when it shrinks; a
// limit the user set (no setLimit) is never touched.
func TestSoftLimitFollowsTheLiveHeap(t *testing.T) {
	const mb = 1 << 20
	var live uint64
	var set []int64
	r := &idleReleaser{allocated: func() uint64 { return 0 }, heap: func() (uint64, uint64) { return live, 0 }, release: func() {},
		setLimit: func(l int64) { set = append(set, l) }, baseLimit: 44 * mb, limit: 44 * mb}
	for _, s := range []struct {
		live  uint64
		limit int64
	}{{0, 44 * mb}, {16 * mb, 44 * mb}, {29 * mb, 44 * mb}, {40 * mb, 50 * mb}, {140 * mb, 175 * mb}, {140 * mb, 175 * mb}, {20 * mb, 44 * mb}} {
		live = s.live
		r.tick()
		if r.limit != s.limit || (len(set) > 0 && set[len(set)-1] != s.limit) {
			t.Fatalf("live %d MB: limit %d MB (set %v), want %d MB", s.live/mb, r.limit/mb, set, s.limit/mb)
		}
	}
	if len(set) != 3 {
		t.Fatalf("the limit was set %d times (%v), want 3: only when it changes", len(set), set)
	}
	user := &idleReleaser{allocated: func() uint64 { return 0 }, heap: func() (uint64, uint64) { return 500 * mb, 0 }, release: func() {}}
	user.tick() // no setLimit: would panic if it were called
}

// TestSoftLimitAboveTheRealHeap: with the runtime's own figures, a live
// heap that outgrew the starting limit raises it above that heap and the
// room, and the limit comes back once the heap is garbage.
func TestSoftLimitAboveTheRealHeap(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT is set: the releaser leaves the limit alone")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(16 << 20))
	r := newIdleReleaser()
	r.release = func() {}
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20) // 64 MB live, in pieces
	}
	runtime.GC()
	r.tick()
	if got := debug.SetMemoryLimit(-1); got < 80<<20 {
		t.Errorf("with 64 MB live the limit is %d MB; want at least 80", got>>20)
	}
	runtime.KeepAlive(live)
	live = nil
	runtime.GC()
	r.tick()
	if got := debug.SetMemoryLimit(-1); got != 16<<20 {
		t.Errorf("with the live heap gone the limit is %d MB; want the starting 16", got>>20)
	}
}
