package similar

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

// sortSpan is a token with its first eight bytes packed big-endian, so most
// comparisons while sorting are one integer compare. Tokens hold no NUL byte,
// so zero padding orders a prefix before its extensions, as string order does.
type sortSpan struct {
	key uint64
	span
}

func newSortSpan(buf []byte, sp span) sortSpan {
	w := buf[sp.start:sp.end]
	var k [8]byte
	copy(k[:], w)
	return sortSpan{binary.BigEndian.Uint64(k[:]), sp}
}

// less is the hot comparison of the sort: one integer compare unless the
// first eight bytes tie.
func (a sortSpan) less(buf []byte, b sortSpan) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.compareTail(buf, b) < 0
}

func (a sortSpan) equal(buf []byte, b sortSpan) bool {
	return a.key == b.key && a.compareTail(buf, b) == 0
}

// compareTail orders two tokens whose first eight bytes are equal.
func (a sortSpan) compareTail(buf []byte, b sortSpan) int {
	if a.end-a.start <= 8 && b.end-b.start <= 8 {
		return 0 // equal packed keys of whole tokens: equal tokens
	}
	return bytes.Compare(buf[a.start:a.end], buf[b.start:b.end])
}

// sortSpans sorts tokens in string order and drops repeats; an insertion sort,
// because an entry has a dozen keywords.
func sortSpans(buf []byte, ks []sortSpan) []sortSpan {
	if len(ks) > 24 {
		slices.SortFunc(ks, func(a, b sortSpan) int {
			if a.key != b.key {
				return cmp.Compare(a.key, b.key)
			}
			return a.compareTail(buf, b)
		})
	} else {
		for i := 1; i < len(ks); i++ {
			x := ks[i]
			j := i
			for j > 0 && x.less(buf, ks[j-1]) {
				ks[j] = ks[j-1]
				j--
			}
			ks[j] = x
		}
	}
	out := ks[:0]
	for i, k := range ks {
		if i == 0 || !out[len(out)-1].equal(buf, k) {
			out = append(out, k)
		}
	}
	return out
}
