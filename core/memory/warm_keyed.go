package memory

import (
	"github.com/memory-lsp/memory-lsp/core/similar"
)

// keyedFile is what the dedup of the last store into a file read in its
// entries, and the contents it read them in (not the parse: that would
// keep a superseded parse alive).
type keyedFile struct {
	contents []string
	k        *similar.Keyed
	// free: the room behind k's readings is still to take (the next
	// store extends k in place); taken by the first that does.
	free bool
}

// Dedup gives what a store's dedup reads in each entry of a parse of its
// category file (PlanStoreParsing); nil: the dedup reads the entries.
type Dedup func(contents []string) *similar.Keyed

// Dedup is Keyed for the file at path.
func (w *Warm) Dedup(path string) Dedup {
	return func(contents []string) *similar.Keyed { return w.Keyed(path, contents) }
}

// Keyed is what a store's dedup reads in each of contents, the entries of
// the file at path: read again only for the entries after those of the
// last store (similar.Keyed.Extend), when contents holds those first, as
// after a store that appended one.
func (w *Warm) Keyed(path string, contents []string) *similar.Keyed {
	w.mu.Lock()
	was := w.keyed[path]
	own := was != nil && was.free
	if own {
		was.free = false
	}
	w.mu.Unlock()
	var k *similar.Keyed
	switch {
	case was == nil || !holdsFirst(contents, was.contents):
		k = similar.NewKeyed(contents)
	case own:
		k = was.k.ExtendInPlace(contents)
	default:
		k = was.k.Extend(contents)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.keyed == nil {
		w.keyed = map[string]*keyedFile{}
	}
	// k is new, a copy, or written into the room this call took: the room
	// behind it is free either way.
	w.keyed[path] = &keyedFile{contents: contents, k: k, free: true}
	return k
}

// holdsFirst reports whether contents begin with first.
func holdsFirst(contents, first []string) bool {
	if len(contents) < len(first) {
		return false
	}
	for i, c := range first {
		if contents[i] != c {
			return false
		}
	}
	return true
}
