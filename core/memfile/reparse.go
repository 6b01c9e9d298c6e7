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
	return reparse(old, src, false)
}

// Extend is Reparse, except that when src keeps every entry of old (an
// append) the new entries are written into the room behind old.Entries
// rather than into a copy of them: at 10,000 entries the copy is 1.3 MB of
// strings the collector must scan, for one new line. old and its result
// then share that array; old reads only up to its own length, so neither
// sees the other change. The caller must own that room: no document was
// extended from old before, and none will be after (a long-lived process
// extends only the latest parse it made of a file). Otherwise, use Reparse.
func Extend(old *Document, src []byte) *Document {
	return reparse(old, src, true)
}

// reparse is Reparse, writing into the room behind old.Entries when extend
// is set and every entry of old is kept.
func reparse(old *Document, src []byte, extend bool) *Document {
	if bytes.Equal(old.Src, src) {
		return old
	}
	same := CommonPrefix(old.Src, src)
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
	// The lines hold no pointers: copying them is a plain move.
	d := &Document{Src: src, Lines: make([]Line, kept, kept+n)}
	copy(d.Lines, old.Lines[:kept])
	if extend && entries == len(old.Entries) {
		d.Entries = old.Entries
	} else {
		d.Entries = make([]Entry, entries, entries+n/2)
		copy(d.Entries, old.Entries[:entries])
	}
	d.parseFrom(start, kept+1, inFence)
	return d
}

// CommonPrefix is the length of the longest common prefix of a and b,
// compared a block at a time.
func CommonPrefix(a, b []byte) int {
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
