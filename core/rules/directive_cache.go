package rules

import (
	"bytes"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// FindDirectives reads every line on its own, and an editor's keystroke
// changes one line of a file: a Checker keeps each file's directives with
// the bytes it found them in, and the next call reads again only the lines
// between the bytes the two versions share at their start and at their
// end. Scanning a 10,000-entry file whole took about 10 ms a keystroke.

// directiveScan is what a Checker found in one file's bytes.
type directiveScan struct {
	src   []byte
	found []Directive
}

// directiveCache hands the previous call's scans, by file path, to this
// one and collects this call's. One rule (agent-directive) uses it.
type directiveCache struct {
	old, now map[string]directiveScan
}

// directives is FindDirectives of file fi's bytes, from the previous call's
// scan of the file where the Checker keeps one.
func (w *workspace) directives(fi int) []Directive {
	f := &w.files[fi]
	if w.dirs == nil {
		return FindDirectives(w.idx.source(w.files, fi))
	}
	var found []Directive
	if prev, ok := w.dirs.old[f.Path]; ok {
		found = directivesAfter(prev, f.Doc.Src)
	} else {
		found = FindDirectives(w.idx.source(w.files, fi))
		for i := range found {
			// kept between calls: not a window on the whole file's string
			found[i].Text = strings.Clone(found[i].Text)
		}
	}
	w.dirs.now[f.Path] = directiveScan{src: f.Doc.Src, found: found}
	return found
}

// directivesAfter is FindDirectives(string(src)), given what it found in
// prev.src. The lines that lie, LF included, in the bytes both share at
// their start keep their directives; so do, shifted, those after the
// first LF of the bytes both share at their end; the lines between are
// read again. A directive never leaves its line, so the lists join in
// line order, which is FindDirectives' order.
func directivesAfter(prev directiveScan, src []byte) []Directive {
	old := prev.src
	if bytes.Equal(old, src) {
		return prev.found
	}
	pre := text.CommonPrefix(old, src)
	suf := text.CommonSuffix(old[pre:], src[pre:])
	from := bytes.LastIndexByte(src[:pre], '\n') + 1 // the first line read again
	to, tail := len(src), -1                         // where the lines read again end; the first kept line after them
	if k := bytes.IndexByte(src[len(src)-suf:], '\n'); k >= 0 {
		to = len(src) - suf + k
		tail = to + 1
	}
	shift := len(src) - len(old)
	middle := FindDirectives(string(src[from:to]))
	out := make([]Directive, 0, len(prev.found)+len(middle))
	for _, d := range prev.found {
		if d.Start >= from {
			break
		}
		out = append(out, d)
	}
	for _, d := range middle {
		d.Start, d.End = d.Start+from, d.End+from
		out = append(out, d)
	}
	if tail >= 0 {
		for _, d := range prev.found {
			if d.Start >= tail-shift {
				d.Start, d.End = d.Start+shift, d.End+shift
				out = append(out, d)
			}
		}
	}
	return out
}
