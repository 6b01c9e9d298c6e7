package memfile

import (
	"bytes"
	"sort"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Reparse is Parse(src) for a src that is most often old.Src with a few
// lines changed: after a store (an entry appended near the end) or an
// editor's keystroke (one line changed anywhere). The lines old read
// before the first byte that differs, and their entries, are taken from
// old; so are, renumbered and shifted, the lines after the first LF of the
// bytes old.Src and src share at their end, when the lines read between
// leave a fence as open or closed as old had it there; only the lines
// between are read. A long-lived process re-reads a file of 10,000 entries
// after each of its own stores and each keystroke in an editor, where a
// full parse reads every line and the change is one
// (BenchmarkEditing10kBinary). Parse reads line by line, and the only
// state it carries from a line to the next is whether a fence is open, so
// a line that src holds, LF included, where old.Src held it (or, after the
// change, at the same distance from the end) reads the same.
//
// The result shares the entries' strings with old; neither is changed. The
// strings of the lines it reads are copies, not views of src (see viewOf). For
// src equal to old.Src it is old. old must be a parse (Parse's or
// Reparse's), not an empty Document standing for an unread file.
func Reparse(old *Document, src []byte) *Document {
	if bytes.Equal(old.Src, src) {
		return old
	}
	same := text.CommonPrefix(old.Src, src)
	kept, entries, inFence := 0, 0, false
	for _, ln := range old.Lines {
		if !ln.HasLF || ln.Span.End >= same {
			break
		}
		kept++
		if ln.Kind == KindEntry {
			entries++
		} else if ln.Kind == KindFence {
			inFence = !inFence
		}
	}
	start := 0
	if kept > 0 {
		start = old.Lines[kept-1].Span.End + 1
	}
	// The lines after the first LF in the shared end: src's from offset
	// tail on, old's from line keep on.
	tail, keep := len(src)+1, len(old.Lines)
	shift := len(src) - len(old.Src)
	end := text.CommonSuffix(old.Src[same:], src[same:])
	if k := bytes.IndexByte(src[len(src)-end:], '\n'); k >= 0 {
		tail = len(src) - end + k + 1
		keep = sort.Search(len(old.Lines), func(i int) bool { return old.Lines[i].Span.Start >= tail-shift })
	}
	oldFence, oldEntries := false, 0 // before line keep
	for _, ln := range old.Lines[:keep] {
		if ln.Kind == KindEntry {
			oldEntries++
		} else if ln.Kind == KindFence {
			oldFence = !oldFence
		}
	}
	n := bytes.Count(src[start:min(tail, len(src))], []byte{'\n'}) + 1 // lines read, at most
	// The lines hold no pointers: copying them is a plain move.
	d := &Document{Src: src, Lines: make([]Line, kept, kept+n+len(old.Lines)-keep)}
	copy(d.Lines, old.Lines[:kept])
	d.Entries = make([]Entry, entries, entries+maxEntries(src[start:min(tail, len(src))])+len(old.Entries)-oldEntries)
	copy(d.Entries, old.Entries[:entries])
	inFence = d.parseUntil(start, kept+1, inFence, tail, "")
	if keep == len(old.Lines) {
		return d
	}
	if inFence != oldFence {
		// a fence opened or closed: the kept lines would read otherwise
		d.parseUntil(tail, len(d.Lines)+1, inFence, len(src)+1, "")
		return d
	}
	lines, ents := len(d.Lines)-keep, len(d.Entries)-oldEntries
	for _, ln := range old.Lines[keep:] {
		ln.Num += lines
		ln.Span = shifted(ln.Span, shift)
		if ln.Entry >= 0 {
			ln.Entry += ents
		}
		d.Lines = append(d.Lines, ln)
	}
	for _, e := range old.Entries[oldEntries:] {
		e.Line, e.LineIndex = e.Line+lines, e.LineIndex+lines
		e.LineSpan, e.TailSpan = shifted(e.LineSpan, shift), shifted(e.TailSpan, shift)
		e.SlugSpan, e.ContentSpan = shifted(e.SlugSpan, shift), shifted(e.ContentSpan, shift)
		d.Entries = append(d.Entries, e)
	}
	return d
}

func shifted(sp text.Span, by int) text.Span {
	return text.Span{Start: sp.Start + by, End: sp.End + by}
}
