package memfile

import "bytes"

// Reparse is Parse(src) for a src that is most often old.Src itself or
// old.Src changed near its end, as a store leaves a file (an entry
// appended): the lines old read before the first byte that differs, and
// their entries, are taken from old, and only the rest is read. A long-lived
// process re-reads a file of 10,000 entries after each of its own stores,
// where a full parse costs 5 ms and the change is one line. Parse reads
// line by line, and the only state it carries from a line to the next is
// whether a fence is open, so a line that src holds, LF included, where
// old.Src held it reads the same.
//
// The result shares the entries' strings with old; neither is changed. For
// src equal to old.Src it is old. old must be a parse (Parse's or
// Reparse's), not an empty Document standing for an unread file.
func Reparse(old *Document, src []byte) *Document {
	if bytes.Equal(old.Src, src) {
		return old
	}
	same := commonPrefix(old.Src, src)
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
	n := bytes.Count(src[start:], []byte{'\n'}) + 1
	d := &Document{Src: src, Lines: make([]Line, kept, kept+n), Entries: make([]Entry, entries, entries+maxEntries(src[start:]))}
	copy(d.Lines, old.Lines[:kept])
	copy(d.Entries, old.Entries[:entries])
	d.parseFrom(start, kept+1, inFence)
	return d
}

// commonPrefix is the length of the longest common prefix of a and b,
// compared a block at a time.
func commonPrefix(a, b []byte) int {
	const block = 4096
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
