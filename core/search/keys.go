package search

import (
	"slices"
	"strings"
)

// sortedKeys is a set of distinct strings kept sorted, back to back in one
// string: a segment's dictionaries (its terms, its slug terms and keys),
// which a long-lived process keeps for as long as their file is unchanged.
// As map keys each was a string of its own and a slot of a map, about 40
// bytes for a term of 9 (5.3 MB of the slug dictionaries at 100,000
// entries); here it is its bytes and a 4-byte offset. A key is found by
// binary search, and its index names it.
type sortedKeys struct {
	b   string
	off offsets // key i is b[off.at(i):off.at(i+1)]
}

// newSortedKeys keeps keys, which must be sorted and distinct.
func newSortedKeys(keys []string) sortedKeys {
	n := 0
	for _, k := range keys {
		n += len(k)
	}
	var b strings.Builder
	b.Grow(n)
	k := sortedKeys{off: offsets{low: make([]uint32, 0, len(keys)+1)}}
	k.off.add(0)
	for _, w := range keys {
		b.WriteString(w)
		k.off.add(b.Len())
	}
	k.b = b.String()
	return k
}

// sortedKeysOf keeps the keys of m, of any order.
func sortedKeysOf[V any](m map[string]V) sortedKeys {
	keys := make([]string, 0, len(m))
	for w := range m {
		keys = append(keys, w)
	}
	slices.Sort(keys)
	return newSortedKeys(keys)
}

// len is the number of keys.
func (k *sortedKeys) len() int { return max(k.off.len()-1, 0) }

// key is key i.
func (k *sortedKeys) key(i int) string { return k.b[k.off.at(i):k.off.at(i+1)] }

// search is the index of the first key not below w.
func (k *sortedKeys) search(w string) int {
	lo, hi := 0, k.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k.key(m) < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// find is the index of key w; false when it is not one.
func (k *sortedKeys) find(w string) (int32, bool) {
	i := k.search(w)
	if i < k.len() && k.key(i) == w {
		return int32(i), true
	}
	return -1, false
}

// all are the keys, in order.
func (k *sortedKeys) all() []string {
	out := make([]string, k.len())
	for i := range out {
		out[i] = k.key(i)
	}
	return out
}
