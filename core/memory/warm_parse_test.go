package memory

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// TestWarmParsesShareNoEntries drives a Warm as the language server does
// after a burst of stores: the writer's parse, the background indexing and
// the check parse the same file's successive bytes from goroutines of their
// own, in any order, some of them from the same earlier parse: every
// document handed out, the earlier ones included, must still equal a fresh
// parse of its bytes.
func TestWarmParsesShareNoEntries(t *testing.T) {
	const path = "/m/.memory/decisions.md"
	var w Warm
	w.Catalog(nil) // a Warm that has served a query keeps its writes warm
	src := "# Decisions\n\n"
	type got struct {
		src string
		doc *memfile.Document
	}
	var mu sync.Mutex
	var docs []got
	keep := func(s string, d *memfile.Document) {
		mu.Lock()
		docs = append(docs, got{s, d})
		mu.Unlock()
	}
	keep(src, w.Parse(path, []byte(src)))
	for i := range 200 {
		if i%37 == 36 {
			src = src[:len(src)/2] + "\n" // now and then a rewrite
		}
		before := src
		src += fmt.Sprintf("- Entry number %d of the burst.\n", i)
		data := []byte(src)
		// Readers of the folder start together from one base, some of
		// them seeing other writers' appends instead of this one: parses
		// of different bytes from one base, at the same moment.
		start := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() { <-start; keep(string(data), w.Parse(path, data)) })
		for k := range 6 {
			b := data
			if k%2 == 1 {
				b = []byte(before + fmt.Sprintf("- Another writer's entry %d.\n", k))
			}
			wg.Go(func() { <-start; keep(string(b), w.Parse(path, b)) })
		}
		close(start)
		wg.Wait()
	}
	for k, g := range docs {
		if want := memfile.Parse([]byte(g.src)); !reflect.DeepEqual(g.doc, want) {
			t.Fatalf("parse %d no longer equals a fresh parse of its bytes (%d entries against %d)", k, len(g.doc.Entries), len(want.Entries))
		}
	}
}
