package similar

import (
	"maps"
	"slices"
	"sync"
)

// Keyed is what DecideContents reads in each of a list of contents (the
// entries of a category file), kept so that the next store into the same
// file does not read them all again: a warm process stores into a file of
// 10,000 entries in 5 ms of CPU where 11 were spent reading its entries
// (quickScan) on every store. For each content: its distinct HackLM
// keywords, as ids, a hash of its letters and digits (equal texts hash the
// same; a hash that matches by chance only sends the entry to the full
// comparison, which decides exactly), and whether it is ASCII (others are
// always compared in full). A Keyed is never changed once made; Extend
// makes another.
type Keyed struct {
	// base and added give each keyword its id. base is never changed once
	// made; added, the words read since, only by the Keyed that made it,
	// until one is extended from it, which copies it: a word new to the
	// file then costs a copy of the few words added since base, not of
	// the whole vocabulary (1 MB at 20,000 entries, on most stores). Once
	// added is large beside base the two are merged into a new base.
	base, added map[string]uint32
	ids         []uint32 // content i's keywords are ids[off[i]:off[i+1]]
	off         []uint32
	alnum       []uint64
	ascii       []bool
}

// NewKeyed reads contents.
func NewKeyed(contents []string) *Keyed {
	return (&Keyed{added: map[string]uint32{}, off: []uint32{0}}).extend(contents, false)
}

// Len is the number of contents k read.
func (k *Keyed) Len() int { return len(k.alnum) }

// Extend is NewKeyed(contents) for contents that begin with the k.Len()
// contents k read: only the others are read.
func (k *Keyed) Extend(contents []string) *Keyed {
	return (&Keyed{base: k.base, added: k.added, ids: slices.Clip(k.ids), off: slices.Clip(k.off),
		alnum: slices.Clip(k.alnum), ascii: slices.Clip(k.ascii)}).extend(contents[k.Len():], true)
}

// ExtendInPlace is Extend, writing the new contents' readings into the room
// behind k's (k reads only up to its own length, so it is unchanged): at
// 20,000 entries Extend copies 750 KB for one new entry. The caller must
// own that room: no Keyed was extended from k in place before, and none
// will be after.
func (k *Keyed) ExtendInPlace(contents []string) *Keyed {
	return (&Keyed{base: k.base, added: k.added, ids: k.ids, off: k.off, alnum: k.alnum, ascii: k.ascii}).extend(contents[k.Len():], true)
}

// extend reads contents after those k holds; shared, k's added words are
// copied before it gains a word (an earlier Keyed may be in use).
func (k *Keyed) extend(contents []string, shared bool) *Keyed {
	var q quickScan
	for _, c := range contents {
		_, _, _, ok := q.scan(c, nil, nil, nil)
		k.ascii = append(k.ascii, ok)
		k.alnum = append(k.alnum, alnumHash(c))
		prev := 0
		for _, end := range q.ends {
			if !ok {
				break
			}
			w := string(q.buf[prev:end])
			prev = end
			id, known := k.id(w)
			if !known {
				if shared {
					k.added, shared = maps.Clone(k.added), false
				}
				id = uint32(len(k.base) + len(k.added))
				k.added[w] = id
				if len(k.added) > len(k.base)/mergeShare+mergeMin {
					base := make(map[string]uint32, len(k.base)+len(k.added))
					maps.Copy(base, k.base)
					maps.Copy(base, k.added)
					k.base, k.added = base, map[string]uint32{}
				}
			}
			k.ids = append(k.ids, id)
		}
		k.off = append(k.off, uint32(len(k.ids)))
	}
	return k
}

// Added words are merged into a new base once they are more than a
// mergeShare of it and mergeMin: a copy of the vocabulary in every few
// thousand new words, not in every one.
const (
	mergeShare = 8
	mergeMin   = 256
)

// id is the id of keyword w, if k read it.
func (k *Keyed) id(w string) (uint32, bool) {
	if id, ok := k.added[w]; ok {
		return id, true
	}
	id, ok := k.base[w]
	return id, ok
}

// alnumHash is an FNV-1a hash of the ASCII letters (lowercased) and digits
// of s, which quickScan compares with the new text's.
func alnumHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			h = (h ^ uint64(c)) * 1099511628211
		}
	}
	return h
}

// DecideKeyed is DecideContents(new, contents, th) for contents that k
// read (k.Len() == len(contents), in order): the same decision, reading
// only the entries that may be other than a plain store.
func DecideKeyed(new *Text, contents []string, k *Keyed, th Thresholds) (match int, v Verdict) {
	if len(new.Keys()) == 0 || len(new.Core()) == 0 || new.Norm == "" {
		return DecideContents(new, contents, th)
	}
	// The new text's keywords and Core as ids; one k never saw is in no
	// entry.
	isKey := make(map[uint32]bool, len(new.Keys()))
	isCore := make(map[uint32]bool, len(new.Core()))
	for _, w := range new.Keys() {
		if id, ok := k.id(w); ok {
			isKey[id] = true
		}
	}
	for _, w := range new.Core() {
		if id, ok := k.id(w); ok {
			isCore[id] = true
		}
	}
	// The hash the entries were read with; a non-ASCII new text's letters
	// beyond ASCII are left out of it, which can only send an entry to the
	// full comparison, never past it.
	h := alnumHash(new.Norm)
	coreNeed := storeFloor(new)
	// Each part keeps only its strongest verdict, not one per entry (1.4 MB
	// of strings to zero and scan at 20,000 entries, on every store):
	// stronger is a strict order, so the strongest of the parts' strongest,
	// taken in order, is the strongest of all, the earliest on a tie.
	var mu sync.Mutex
	var parts []strongestOf
	parallel(len(contents), func(from, to int) {
		best := strongestOf{from: from, match: -1, v: Verdict{Action: Store}}
		defer func() {
			mu.Lock()
			parts = append(parts, best)
			mu.Unlock()
		}()
		for i := from; i < to; i++ {
			var v Verdict
			quick := false
			if k.ascii[i] && k.alnum[i] != h {
				inKeys, inCore := 0, 0
				ids := k.ids[k.off[i]:k.off[i+1]]
				for _, id := range ids {
					if isKey[id] {
						inKeys++
						if isCore[id] {
							inCore++
						}
					}
				}
				sim := 0.0
				if inKeys > 0 {
					sim = float64(inKeys) / float64(len(new.Keys())+len(ids)-inKeys)
				}
				if sim < th.Update && sim < th.Skip && inCore < coreNeed {
					v, quick = Verdict{Action: Store, Similarity: sim}, true
				}
			}
			if !quick {
				v = Classify(Analyze(contents[i]), new, th)
			}
			if best.add(i, v) {
				return
			}
		}
	})
	slices.SortFunc(parts, func(a, b strongestOf) int { return a.from - b.from })
	best := make([]Verdict, len(parts))
	for i, p := range parts {
		best[i] = p.v
	}
	if i, v := strongest(best); i >= 0 {
		return parts[i].match, v
	}
	return -1, Verdict{Action: Store}
}

// strongestOf is the strongest verdict of the entries from index from on
// that were added, as strongest finds it.
type strongestOf struct {
	from, match int
	v           Verdict
}

// add takes entry i's verdict, and reports whether it is exact: the
// strongest of the part then, whatever follows.
func (b *strongestOf) add(i int, v Verdict) bool {
	if v.Exact {
		b.match, b.v = i, v
		return true
	}
	if stronger(v, b.v) {
		b.match, b.v = i, v
	}
	return false
}
