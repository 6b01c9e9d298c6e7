package main

import "testing"

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
