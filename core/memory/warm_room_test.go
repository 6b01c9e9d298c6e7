package memory

import (
	"fmt"
	"sync"
	"testing"
)

// TestWarmAppendsShareNoRoom: stores planned from the same bytes at the
// same moment (a store done again after its lock was taken over, a dry
// run, the MCP server's and a writer's plans) may each append to them; only
// one may write into the room behind them, so every result handed out, the
// earlier ones included, still holds its own bytes. It fails if the room is
// taken twice.
func TestWarmAppendsShareNoRoom(t *testing.T) {
	const path = "/m/.memory/decisions.md"
	var w Warm
	type got struct {
		want string
		b    []byte
	}
	var mu sync.Mutex
	var all []got
	cur := []byte("# Decisions\n\n")
	for i := range 300 {
		// The bytes of the last store, whose room is the next store's.
		base := w.Append(path, cur, fmt.Sprintf("- Round %d.\n", i))
		results := make([][]byte, 4)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for k := range results {
			wg.Go(func() {
				<-start
				tail := fmt.Sprintf("- Entry %d, planned by %d.\n", i, k)
				b := w.Append(path, base, tail)
				mu.Lock()
				all = append(all, got{string(base) + tail, b})
				mu.Unlock()
				results[k] = b
			})
		}
		close(start)
		wg.Wait()
		cur = results[i%len(results)] // the one that was written
		if i%50 == 49 {
			cur = append([]byte(nil), cur[:len(cur)/2]...) // another writer's bytes
		}
	}
	for k, g := range all {
		if string(g.b) != g.want {
			t.Fatalf("result %d holds %q, want %q", k, g.b, g.want)
		}
	}
}

// TestWarmAppendsInPlace: stores one after the other, each from the bytes
// the last one made, copy the file only when its room is used up.
func TestWarmAppendsInPlace(t *testing.T) {
	const path = "/m/.memory/decisions.md"
	var w Warm
	cur := []byte("# Decisions\n\n")
	var all [][]byte
	copies := 0
	for i := range 2000 {
		next := w.Append(path, cur, fmt.Sprintf("- Entry number %d of a long burst of stores.\n", i))
		if !sameBytes(next[:len(cur)], cur) {
			copies++
		}
		all = append(all, next)
		cur = next
	}
	for i, b := range all {
		if want := string(all[len(all)-1][:len(b)]); string(b) != want {
			t.Fatalf("result %d changed: %q", i, b)
		}
	}
	if copies > 20 {
		t.Errorf("%d of 2000 stores copied the file; want it copied only when its room is used up", copies)
	}
}
