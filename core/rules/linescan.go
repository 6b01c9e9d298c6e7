package rules

import (
	"bytes"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/directive"
	"github.com/memory-lsp/memory-lsp/core/secret"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// directive.Find and secret.Find read every line on its own (no directive
// and no credential they report leaves its line, and none's finding depends
// on another line), and an editor's keystroke changes one line of a file: a
// Checker keeps each file's directives and credentials with the bytes it
// found them in, and the next call reads again only the lines between the
// bytes the two versions share at their start and at their end. Scanning a
// 10,000-entry file whole (directives, and credentials with a lower-cased
// copy of the file) was most of a keystroke's check
// (BenchmarkCheckerOneChange10k, BenchmarkFindDirectives10k).

// lineScan is what one such scan found in one file's bytes.
type lineScan[T any] struct {
	src   []byte
	found []T
}

// lineScans hand the previous call's scans, by file path, to this one and
// collect this call's. One rule uses each.
type lineScans[T any] struct {
	old, now map[string]lineScan[T]
}

func newLineScans[T any](old map[string]lineScan[T]) *lineScans[T] {
	return &lineScans[T]{old: old, now: make(map[string]lineScan[T], len(old))}
}

// lineScanner is a scan that reads each line on its own, and how to move
// what it finds.
type lineScanner[T any] struct {
	scan  func(string) []T
	start func(T) int
	shift func(T, int) T
	// keep, if set, makes a whole file's findings fit to be kept between
	// calls (not windows on the whole file's string).
	keep func([]T)
}

var (
	directiveScanner = lineScanner[directive.Match]{
		scan:  directive.Find,
		start: func(d directive.Match) int { return d.Start },
		shift: func(d directive.Match, by int) directive.Match { d.Start, d.End = d.Start+by, d.End+by; return d },
		keep: func(ds []directive.Match) {
			for i := range ds {
				ds[i].Text = strings.Clone(ds[i].Text)
			}
		},
	}
	secretScanner = lineScanner[secret.Match]{
		scan:  secret.Find,
		start: func(m secret.Match) int { return m.Start },
		shift: func(m secret.Match, by int) secret.Match { m.Start, m.End = m.Start+by, m.End+by; return m },
	}
)

// directives is directive.Find of file fi's bytes.
func (w *workspace) directives(fi int) []directive.Match {
	return scanFile(w, fi, w.dirs, directiveScanner)
}

// secrets is secret.Find of file fi's bytes.
func (w *workspace) secrets(fi int) []secret.Match {
	return scanFile(w, fi, w.creds, secretScanner)
}

// scanFile is sc.scan of file fi's bytes, from the previous call's scan of
// the file where c, the Checker's, keeps one.
func scanFile[T any](w *workspace, fi int, c *lineScans[T], sc lineScanner[T]) []T {
	f := &w.files[fi]
	if c == nil {
		return sc.scan(w.idx.source(w.files, fi))
	}
	var found []T
	if prev, ok := c.old[f.Path]; ok {
		found = rescan(prev, f.Doc.Src, sc)
	} else {
		found = sc.scan(w.idx.source(w.files, fi))
		if sc.keep != nil {
			sc.keep(found)
		}
	}
	c.now[f.Path] = lineScan[T]{src: f.Doc.Src, found: found}
	return found
}

// rescan is sc.scan(string(src)), given what it found in prev.src. The
// lines that lie, LF included, in the bytes both share at their start keep
// their findings; so do, shifted, those after the first LF of the bytes
// both share at their end; the lines between are read again. The scan
// reports in line order, so the lists join in its order.
func rescan[T any](prev lineScan[T], src []byte, sc lineScanner[T]) []T {
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
	middle := sc.scan(string(src[from:to]))
	out := make([]T, 0, len(prev.found)+len(middle))
	for _, d := range prev.found {
		if sc.start(d) >= from {
			break
		}
		out = append(out, d)
	}
	for _, d := range middle {
		out = append(out, sc.shift(d, from))
	}
	if tail >= 0 {
		for _, d := range prev.found {
			if sc.start(d) >= tail-shift {
				out = append(out, sc.shift(d, shift))
			}
		}
	}
	return out
}
