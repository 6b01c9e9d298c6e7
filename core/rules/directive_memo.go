package rules

import (
	"bytes"
	"strings"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// directiveMemo keeps, for a Checker, the directives found in each file at
// its previous call, so that the agent-directive rule reads again only the
// lines from the first byte that changed: FindDirectives reads each line on
// its own, so a line the file holds where it held it, LF included, has the
// directives it had. After a store, that is the appended line, where
// reading every line of a 20,000-entry file took a tenth of the server's
// time.
type directiveMemo struct {
	mu       sync.Mutex
	old, now map[string]directiveScan
}

// directiveScan is one file's bytes and the directives found in them, their
// Text cloned so that they do not hold the check's copy of the file.
type directiveScan struct {
	src   []byte
	found []Directive
}

// find is FindDirectives of the file at path, whose bytes are src; source
// gives them as a string when the whole file must be read.
func (m *directiveMemo) find(path string, src []byte, source func() string) []Directive {
	m.mu.Lock()
	prev, ok := m.old[path]
	m.mu.Unlock()
	if ok && bytes.Equal(prev.src, src) {
		m.keep(path, prev)
		return prev.found
	}
	var found []Directive
	if ok {
		found = directivesAfter(prev, src)
	} else {
		found = FindDirectives(source())
	}
	kept := directiveScan{src: src, found: make([]Directive, len(found))}
	for i, d := range found {
		d.Text = strings.Clone(d.Text)
		kept.found[i] = d
	}
	m.keep(path, kept)
	return found
}

// keep makes scan the file's for the next call.
func (m *directiveMemo) keep(path string, scan directiveScan) {
	m.mu.Lock()
	m.now[path] = scan
	m.mu.Unlock()
}

// directivesAfter is FindDirectives(string(src)), given the directives prev
// found in earlier bytes: those on the lines before the first byte that
// differs, and those of the lines read again from that line's start.
func directivesAfter(prev directiveScan, src []byte) []Directive {
	same := memfile.CommonPrefix(prev.src, src)
	from := bytes.LastIndexByte(src[:same], '\n') + 1
	var out []Directive
	for _, d := range prev.found {
		if d.Start >= from {
			break // sorted by position
		}
		out = append(out, d)
	}
	for _, d := range FindDirectives(string(src[from:])) {
		d.Start += from
		d.End += from
		out = append(out, d)
	}
	return out
}
