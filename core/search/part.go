package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A part is the inverted index of one memory file laid out as bytes, so
// that a one-shot process (the CLI's query) can keep it on disk between
// runs and read, of all of it, only the dictionary entries and postings of
// a query's terms, and the lines of the few entries it prints (see
// SearchParts). It holds what Index.Search asks of a segment, and nothing
// of the entries' text but where each entry's line is:
//
//	header   nDocs u32, total u64, nTerms u32, nSlugTerms u32, nSlugKeys u32,
//	         then the offsets of the six sections below and the end, u32 each
//	docs     per doc its length in terms (u32), then per doc its line's start, end
//	         and number (u32 each): a query reads the lengths of all the docs
//	         that can score, the places of the few it returns
//	terms    an offset (u32) per content term in byte order, then the terms:
//	         uvarint length, bytes, uvarint count, per posting uvarint doc delta and uvarint tf
//	slugs    the same for slug terms (doc deltas only)
//	keys     the same for slug keys (a slug's main terms joined by NUL; doc deltas only)
//
// All integers are little-endian. A reader checks every offset, length and
// doc number before it uses it: bytes that are not a part give an error,
// never a panic.

// Loc is where a doc's entry is in its file: the byte span of its line
// (without the LF) and its 1-based line number.
type Loc struct {
	Start, End, Line uint32
}

const (
	partHeaderLen = 4 + 8 + 3*4 + 7*4
	docLenLen     = 4
	locLen        = 12
)

// EncodePart lays out seg, an index of the entries of one file, with locs,
// where each of its docs is in the file, as a part.
func EncodePart(seg *Segment, locs []Loc) ([]byte, error) {
	n := len(seg.docLen)
	if len(locs) != n {
		return nil, fmt.Errorf("encoding a part: %d docs, %d places", n, len(locs))
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("encoding a part: %d docs", n)
	}
	b := make([]byte, partHeaderLen, partHeaderLen+(docLenLen+locLen)*n+16*seg.terms.len()+8*int(seg.total))
	le := binary.LittleEndian
	for d := range n {
		b = le.AppendUint32(b, uint32(seg.docLen[d]))
	}
	for d := range n {
		b = le.AppendUint32(b, locs[d].Start)
		b = le.AppendUint32(b, locs[d].End)
		b = le.AppendUint32(b, locs[d].Line)
	}
	var offs [7]uint32
	section := func(k int, terms []string, post func(string) ([]int32, []uint16)) {
		offs[2*k] = uint32(len(b))
		idx := len(b)
		b = append(b, make([]byte, 4*len(terms))...)
		offs[2*k+1] = uint32(len(b))
		for i, t := range terms {
			le.PutUint32(b[idx+4*i:], uint32(len(b))-offs[2*k+1])
			b = binary.AppendUvarint(b, uint64(len(t)))
			b = append(b, t...)
			docs, tfs := post(t)
			b = binary.AppendUvarint(b, uint64(len(docs)))
			prev := int32(-1)
			for j, d := range docs {
				b = binary.AppendUvarint(b, uint64(d-prev))
				prev = d
				if tfs != nil {
					b = binary.AppendUvarint(b, uint64(tfs[j]))
				}
			}
		}
	}
	section(0, seg.terms.all(), func(t string) ([]int32, []uint16) {
		id, _ := seg.terms.find(t)
		docs, tfs := make([]int32, 0, seg.post.df[id]), make([]uint16, 0, seg.post.df[id])
		for it := seg.post.of(id); it.more(); {
			p := it.next()
			docs, tfs = append(docs, p.doc), append(tfs, p.tf)
		}
		return docs, tfs
	})
	slugs := seg.slugPost.sortedKeys()
	section(1, slugs, func(t string) ([]int32, []uint16) { var one [1]int32; return seg.slugPost.docs(t, &one), nil })
	keys := seg.slugKey.sortedKeys()
	section(2, keys, func(t string) ([]int32, []uint16) { var one [1]int32; return seg.slugKey.docs(t, &one), nil })
	offs[6] = uint32(len(b))
	if int64(len(b)) > math.MaxUint32 {
		return nil, fmt.Errorf("encoding a part: %d bytes", len(b))
	}
	le.PutUint32(b[0:], uint32(n))
	le.PutUint64(b[4:], uint64(seg.total))
	le.PutUint32(b[12:], uint32(seg.terms.len()))
	le.PutUint32(b[16:], uint32(len(slugs)))
	le.PutUint32(b[20:], uint32(len(keys)))
	for i, o := range offs {
		le.PutUint32(b[24+4*i:], o)
	}
	return b, nil
}

// errPart is the error of bytes that are not a well-formed part.
var errPart = errors.New("not a well-formed index part")

// Part is a part read back (ReadPart): a view of its bytes, which must
// not change while it is used. A part of an index file checks each block
// of that file it reads (IndexedFile.ReadPart); one that finds a damaged
// block reads from then on as zeros and errors, and SearchParts fails with
// ErrDamaged.
type Part struct {
	b     []byte
	n     int
	total int64
	terms dict
	slugs dict
	keys  dict
	sums  *blockSums
	at    int // b's offset in the body sums checks
}

// dict is one section of a part: n entries in byte order of their keys.
type dict struct {
	idx  []byte // n offsets into blob
	blob []byte
	n    int
	tf   bool // postings carry a term frequency
	// sums checks idx and blob, at offsets idxAt and blobAt of its body.
	sums          *blockSums
	idxAt, blobAt int
}

// ReadPart checks the layout of a part's header and sections; the entries
// are checked as they are read.
func ReadPart(b []byte) (*Part, error) {
	if len(b) < partHeaderLen {
		return nil, errPart
	}
	le := binary.LittleEndian
	p := &Part{b: b, n: int(le.Uint32(b[0:])), total: int64(le.Uint64(b[4:]))}
	var offs [7]int
	for i := range offs {
		offs[i] = int(le.Uint32(b[24+4*i:]))
	}
	if p.n > math.MaxInt32 || p.total < 0 || offs[6] != len(b) ||
		int64(partHeaderLen)+(docLenLen+locLen)*int64(p.n) != int64(offs[0]) {
		return nil, errPart
	}
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] {
			return nil, errPart
		}
	}
	counts := [3]int{int(le.Uint32(b[12:])), int(le.Uint32(b[16:])), int(le.Uint32(b[20:]))}
	ds := [3]*dict{&p.terms, &p.slugs, &p.keys}
	for k, d := range ds {
		idx, blob := b[offs[2*k]:offs[2*k+1]], b[offs[2*k+1]:offs[min(2*k+2, 6)]]
		if len(idx) != 4*counts[k] {
			return nil, errPart
		}
		*d = dict{idx: idx, blob: blob, n: counts[k], tf: k == 0, idxAt: offs[2*k], blobAt: offs[2*k+1]}
	}
	return p, nil
}

// attach makes p check its reads with sums, p's bytes being at offset at
// of the body sums checks.
func (p *Part) attach(sums *blockSums, at int) {
	p.sums, p.at = sums, at
	for _, d := range [3]*dict{&p.terms, &p.slugs, &p.keys} {
		d.sums, d.idxAt, d.blobAt = sums, at+d.idxAt, at+d.blobAt
	}
}

// Len is the number of docs of the part.
func (p *Part) Len() int { return p.n }

// view is the n bytes at off of the part, nil when a block of them is
// damaged.
func (p *Part) view(off, n int) []byte {
	if !p.sums.ok(p.at+off, n) {
		return nil
	}
	return p.b[off : off+n]
}

// Loc is where doc d's entry is in its file (zeros when damaged).
func (p *Part) Loc(d int) Loc {
	r := p.view(partHeaderLen+docLenLen*p.n+locLen*d, locLen)
	if r == nil {
		return Loc{}
	}
	le := binary.LittleEndian
	return Loc{Start: le.Uint32(r[0:]), End: le.Uint32(r[4:]), Line: le.Uint32(r[8:])}
}

// docLen is doc d's length in terms (0 when damaged).
func (p *Part) docLen(d int) int32 {
	r := p.view(partHeaderLen+docLenLen*d, docLenLen)
	if r == nil {
		return 0
	}
	return int32(min(binary.LittleEndian.Uint32(r), math.MaxInt32))
}

// Holds reports whether content may be doc d's: it has the length in
// terms the part gives doc d. A cheap check that a line read back is the
// one indexed.
func (p *Part) Holds(d int, content string) bool {
	var tk tokenizer
	tk.run(content)
	return int32(len(tk.spans)) == p.docLen(d)
}

// uvarint reads the uvarint at off of the blob, checking the blocks it
// may span; k <= 0 as binary.Uvarint gives for bytes that are not one.
func (d *dict) uvarint(off int) (v uint64, k int) {
	if off >= len(d.blob) || !d.sums.ok(d.blobAt+off, min(binary.MaxVarintLen64, len(d.blob)-off)) {
		return 0, 0
	}
	return binary.Uvarint(d.blob[off:])
}

// key is entry i's key and the offset in the blob of what follows it.
func (d *dict) key(i int) (key []byte, rest int, err error) {
	if !d.sums.ok(d.idxAt+4*i, 4) {
		return nil, 0, errPart
	}
	off := int(binary.LittleEndian.Uint32(d.idx[4*i:]))
	l, k := d.uvarint(off)
	if k <= 0 || l > uint64(len(d.blob)-off-k) || !d.sums.ok(d.blobAt+off+k, int(l)) {
		return nil, 0, errPart
	}
	off += k
	return d.blob[off : off+int(l)], off + int(l), nil
}

// search is the first entry whose key is not below w.
func (d *dict) search(w string) (int, error) {
	lo, hi := 0, d.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		k, _, err := d.key(m)
		if err != nil {
			return 0, err
		}
		if string(k) < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, nil
}

// postings calls fn with each posting of entry i (tf 1 where none is
// kept), docs ascending and below n.
func (d *dict) postings(i, n int, fn func(doc int32, tf uint16)) error {
	_, off, err := d.key(i)
	if err != nil {
		return err
	}
	count, k := d.uvarint(off)
	if k <= 0 || count > uint64(len(d.blob)-off) {
		return errPart
	}
	off += k
	doc := int64(-1)
	for range count {
		delta, k := d.uvarint(off)
		if k <= 0 || delta == 0 || delta > uint64(n) {
			return errPart
		}
		off += k
		if doc += int64(delta); doc >= int64(n) {
			return errPart
		}
		tf := uint64(1)
		if d.tf {
			if tf, k = d.uvarint(off); k <= 0 || tf == 0 || tf > math.MaxUint16 {
				return errPart
			}
			off += k
		}
		fn(int32(doc), uint16(tf))
	}
	return nil
}
