package search

import (
	"bytes"
	"encoding/binary"
	"sort"
)

// A long-lived process keeps a segment per memory file for as long as the
// file is unchanged, so a segment's size is resident memory. Its two
// largest parts, the postings and the term sequences, are kept as
// uvarints: a posting as an 8-byte struct was 6.6 MB and the sequences as
// int32s 3.3 MB of a server's live heap at 100,000 entries, where most doc
// gaps and term ids fit in one or two bytes. They are decoded as they are
// read; a search reads the postings of its few terms only.

// postingLists are the postings of a segment's terms, by term id: each
// list's docs ascending, each posting a uvarint of its doc's gap to the
// previous doc (the first's to -1, so never 0) shifted left by one, the
// low bit set when a uvarint of its term frequency follows (tf 1, the most
// common, is the bit clear).
type postingLists struct {
	b   []byte
	off offsets // term id's list is b[off.at(id):off.at(id+1)]
	df  []int32 // term id's number of postings
}

// packPostings lays lists out, term id by term id, in an array of their
// size.
func packPostings(lists [][]posting) postingLists {
	size := 0
	for _, l := range lists {
		prev := int32(-1)
		for _, p := range l {
			size += uvarintLen(uint64(p.doc-prev) << 1)
			if p.tf != 1 {
				size += uvarintLen(uint64(p.tf))
			}
			prev = p.doc
		}
	}
	pl := postingLists{b: make([]byte, 0, size), df: make([]int32, len(lists))}
	pl.off.low = make([]uint32, 0, len(lists)+1)
	pl.off.add(0)
	for id, l := range lists {
		prev := int32(-1)
		for _, p := range l {
			v := uint64(p.doc-prev) << 1
			if p.tf != 1 {
				v |= 1
			}
			pl.b = binary.AppendUvarint(pl.b, v)
			if p.tf != 1 {
				pl.b = binary.AppendUvarint(pl.b, uint64(p.tf))
			}
			prev = p.doc
		}
		pl.df[id] = int32(len(l))
		pl.off.add(len(pl.b))
	}
	return pl
}

// uvarintLen is the length of v as a uvarint.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// of is an iterator over term id's postings.
func (pl *postingLists) of(id int32) postingIter {
	return postingIter{b: pl.b[pl.off.at(int(id)):pl.off.at(int(id)+1)], doc: -1}
}

// postingIter reads one list of postingLists.
type postingIter struct {
	b   []byte
	i   int // the next posting's first byte
	doc int32
}

// more reports whether a posting is left to read.
func (it *postingIter) more() bool { return it.i < len(it.b) }

// next reads the next posting, of which there must be one.
func (it *postingIter) next() posting {
	var one [1]posting
	it.read(one[:])
	return one[0]
}

// read decodes the next postings into buf, as many as it holds or are
// left, and returns how many; 0 after the last. A search reads a long list
// in blocks: a call per posting would cost as much as the decoding.
func (it *postingIter) read(buf []posting) int {
	b, i, doc := it.b, it.i, it.doc
	n := 0
	for ; n < len(buf) && i < len(b); n++ {
		v := uint64(b[i])
		i++
		if v >= 0x80 {
			r := b[i-1:]
			v = readUvarint(&r)
			i = len(b) - len(r)
		}
		doc += int32(v >> 1)
		buf[n] = posting{doc: doc, tf: 1}
		if v&1 != 0 {
			r := b[i:]
			buf[n].tf = uint16(readUvarint(&r))
			i = len(b) - len(r)
		}
	}
	it.i, it.doc = i, doc
	return n
}

// readUvarint reads the uvarint at the start of *b, which this package
// wrote, and moves *b past it.
func readUvarint(b *[]byte) uint64 {
	if c := (*b)[0]; c < 0x80 {
		*b = (*b)[1:]
		return uint64(c)
	}
	v, k := binary.Uvarint(*b)
	*b = (*b)[k:]
	return v
}

// sequences are the main term sequences of a segment's docs: doc d's is
// its term ids plus one (0 for a term the segment does not hold), as
// uvarints, in b[off.at(d):off.at(d+1)].
type sequences struct {
	b   []byte
	off offsets
}

// appendID adds term id (-1 for none of the segment's) to the sequence of
// the doc being written.
func (s *sequences) appendID(id int32) {
	s.b = binary.AppendUvarint(s.b, uint64(id+1))
}

// endDoc closes the sequence of the doc being written.
func (s *sequences) endDoc() { s.off.add(len(s.b)) }

// of decodes doc d's sequence into buf.
func (s *sequences) of(d int32, buf []int32) []int32 {
	b := s.b[s.off.at(int(d)):s.off.at(int(d)+1)]
	buf = buf[:0]
	for len(b) > 0 {
		buf = append(buf, int32(readUvarint(&b))-1)
	}
	return buf
}

// encode appends ids as a sequence holds them.
func (s *sequences) encode(b []byte, ids []int32) []byte {
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id+1))
	}
	return b
}

// hasRun reports whether doc d's sequence holds run, encoded ids
// (encode), as consecutive terms: where its bytes occur in the sequence's
// at the start of a term, not inside one (a uvarint's last byte is the
// only one below 0x80, so a term starts after one, or at the start).
func (s *sequences) hasRun(d int32, run []byte) bool {
	b := s.b[s.off.at(int(d)):s.off.at(int(d)+1)]
	for at := 0; ; {
		i := bytes.Index(b[at:], run)
		if i < 0 {
			return false
		}
		if i += at; i == 0 || b[i-1] < 0x80 {
			return true
		}
		at = i + 1
	}
}

// offsets is a non-decreasing list of byte offsets in four bytes each:
// the low 32 bits, and the few indices from which the high part grows
// (none below 4 GiB, which no memory file's index comes near, but a
// larger one must still read back exactly, not wrapped).
type offsets struct {
	low []uint32
	// wraps[k] is the first index whose offset is at least (k+1)<<32.
	wraps []int32
}

// add appends v, which is not below the last offset added.
func (o *offsets) add(v int) {
	for uint64(v)>>32 > uint64(len(o.wraps)) {
		o.wraps = append(o.wraps, int32(len(o.low)))
	}
	o.low = append(o.low, uint32(v))
}

// at is offset i.
func (o *offsets) at(i int) int {
	if len(o.wraps) == 0 {
		return int(o.low[i])
	}
	hi := sort.Search(len(o.wraps), func(k int) bool { return int(o.wraps[k]) > i })
	return int(uint64(hi)<<32 | uint64(o.low[i]))
}

// len is the number of offsets.
func (o *offsets) len() int { return len(o.low) }
