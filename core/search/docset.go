package search

// docSet maps a key (a slug term, or a slug's main terms joined) to the
// docs that have it, in ascending order. Most keys of a slug index name one
// doc: a map of lists would keep a 24-byte header and an array for each
// (8 MB of the 23 MB of a segment's at 100,000 entries), so a key holds its
// doc itself, and only a key of several docs holds an index into lists.
// It is built in a map (add) and kept, once built (freeze), as sortedKeys:
// its keys' bytes and an offset and a value each.
type docSet struct {
	// one, while the set is built, maps a key to its value: its doc when
	// ≥ 0, else -(i+1) for lists[i].
	one   map[string]int32
	keys  sortedKeys // once frozen, the keys
	vals  []int32    // and their values
	lists [][]int32
}

func newDocSet() docSet { return docSet{one: map[string]int32{}} }

// add notes that doc d has key k; d is never below the docs added before.
// Only a set not yet frozen is added to.
func (s *docSet) add(k []byte, d int32) {
	v, ok := s.one[string(k)]
	switch {
	case !ok:
		s.one[string(k)] = d
	case v >= 0:
		if v != d {
			s.lists = append(s.lists, []int32{v, d})
			s.one[string(k)] = -int32(len(s.lists))
		}
	default:
		if l := s.lists[-v-1]; l[len(l)-1] != d {
			s.lists[-v-1] = append(l, d)
		}
	}
}

// freeze moves the set from its map into its sorted keys, to be kept.
func (s *docSet) freeze() {
	s.keys = sortedKeysOf(s.one)
	s.vals = make([]int32, s.keys.len())
	for i := range s.vals {
		s.vals[i] = s.one[s.keys.key(i)]
	}
	s.one = nil
}

// docs are the docs that have key k, in ascending order; buf holds a lone
// doc, so that a lookup allocates nothing.
func (s *docSet) docs(k string, buf *[1]int32) []int32 {
	var v int32
	if s.one != nil {
		var ok bool
		if v, ok = s.one[k]; !ok {
			return nil
		}
	} else {
		i, ok := s.keys.find(k)
		if !ok {
			return nil
		}
		v = s.vals[i]
	}
	if v >= 0 {
		buf[0] = v
		return buf[:]
	}
	return s.lists[-v-1]
}

// sortedKeys are the set's keys, in order.
func (s *docSet) sortedKeys() []string {
	if s.one != nil {
		k := sortedKeysOf(s.one)
		return k.all()
	}
	return s.keys.all()
}
