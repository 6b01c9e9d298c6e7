package search

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// FilePart is the part of one memory file, with the category of its
// entries.
type FilePart struct {
	Part     *Part
	Category category.Category
}

// ErrStale is returned by SearchParts when an entry read back does not
// have the length in terms its part says: the part is not of the bytes
// read, and must not be trusted.
var ErrStale = errors.New("an index part does not match its file")

// ErrDamaged is returned by SearchParts when a block of an index file it
// read does not match its sum (IndexFile.Damaged): the file is to be
// built again.
var ErrDamaged = errors.New("the index file is damaged")

// SearchParts answers query over the docs of parts, numbered in order
// (the docs of parts[0] first), as Index.Search over all those docs would:
// the same hits, in the same order, with bit-identical scores (a test
// holds it to that). It reads, of each part, only the dictionary entries
// of the query's terms and of the longer terms they begin, and their
// postings; content(i, d) is the content of doc d of parts[i], asked only
// for the few docs that hold every term of a phrase query.
//
// It builds the one segment Index.Search would need to rank the docs that
// can score: those with a content term that a query term equals or begins,
// or a slug term a query term equals. Their postings of those terms, their
// lengths, and for phrase queries their main term sequences (the terms
// that are no query term all one unmatched id) are all a search of that
// segment reads, and the whole set's statistics (doc count, average
// length) come from the parts' headers, as Scan.Search does.
func SearchParts(query string, opt Options, parts []FilePart, content func(part, doc int) (string, error)) ([]Hit, error) {
	n, total := 0, int64(0)
	base := make([]int, len(parts))
	for i, p := range parts {
		base[i] = n
		n += p.Part.n
		total += p.Part.total
	}
	qt := analyse(query)
	if n == 0 || qt.distinct == nil {
		return nil, nil
	}
	distinct, phrase := qt.distinct, qt.phrase

	// What each part holds of the query: its content terms that a query
	// term equals or begins, its slug terms a query term equals, and the
	// docs whose slug key is the query's, each a list of global doc
	// numbers with term frequencies.
	type postingList struct {
		docs []int32
		tfs  []uint16
	}
	terms := map[string]*postingList{}
	slugs := map[string]*postingList{}
	var keyDocs postingList
	read := func(d *dict, i, pi int, into *postingList) error {
		return d.postings(i, parts[pi].Part.n, func(doc int32, tf uint16) {
			into.docs = append(into.docs, int32(base[pi])+doc)
			into.tfs = append(into.tfs, tf)
		})
	}
	list := func(m map[string]*postingList, k string) *postingList {
		l := m[k]
		if l == nil {
			l = &postingList{}
			m[k] = l
		}
		return l
	}
	for pi, fp := range parts {
		p := fp.Part
		seen := map[string]bool{} // a term one query term begins may be another
		for _, w := range distinct {
			i, err := p.terms.search(w)
			if err != nil {
				return nil, err
			}
			prefix := utf8.RuneCountInString(w) >= MinPrefix
			for ; i < p.terms.n; i++ {
				k, _, err := p.terms.key(i)
				if err != nil {
					return nil, err
				}
				if string(k) != w && (!prefix || !strings.HasPrefix(string(k), w)) {
					break
				}
				if seen[string(k)] {
					continue
				}
				seen[string(k)] = true
				if err := read(&p.terms, i, pi, list(terms, string(k))); err != nil {
					return nil, err
				}
			}
			if err := lookup(&p.slugs, w, func(i int) error { return read(&p.slugs, i, pi, list(slugs, w)) }); err != nil {
				return nil, err
			}
		}
		if err := lookup(&p.keys, qt.key, func(i int) error { return read(&p.keys, i, pi, &keyDocs) }); err != nil {
			return nil, err
		}
	}

	// The docs that can score, ascending, are the segment's docs. Every
	// list is ascending (a part's postings are, and parts come in order),
	// so they are merged, and each list's docs found in them by one walk.
	var cands []int32
	for _, l := range terms {
		cands = unionSorted(cands, l.docs)
	}
	for _, l := range slugs {
		cands = unionSorted(cands, l.docs)
	}
	cands = unionSorted(cands, keyDocs.docs)
	local := func(docs []int32, fn func(i int, c int32)) {
		c := 0
		for i, g := range docs {
			for cands[c] < g {
				c++
			}
			fn(i, int32(c))
		}
	}
	// partOf is the part holding global doc g: the last whose base is at
	// most g (parts without docs share their base with the next).
	partOf := func(g int32) int {
		i, _ := slices.BinarySearch(base, int(g)+1)
		return i - 1
	}

	seg := &Segment{
		docLen:   make([]int32, len(cands)),
		slugPost: newDocSet(),
		slugKey:  newDocSet(),
	}
	seg.setCategories(len(cands), func(c int) category.Category { return parts[partOf(cands[c])].Category })
	for c, g := range cands {
		pi := partOf(g)
		seg.docLen[c] = parts[pi].Part.docLen(int(g) - base[pi])
	}
	seg.terms = sortedKeysOf(terms)
	postings := make([][]posting, 0, seg.terms.len())
	for _, t := range seg.terms.all() {
		l := terms[t]
		ps := make([]posting, len(l.docs))
		local(l.docs, func(i int, c int32) { ps[i] = posting{doc: c, tf: l.tfs[i]} })
		postings = append(postings, ps)
	}
	seg.post = packPostings(postings)
	for w, l := range slugs {
		local(l.docs, func(_ int, c int32) { seg.slugPost.add([]byte(w), c) })
	}
	local(keyDocs.docs, func(_ int, c int32) { seg.slugKey.add([]byte(qt.key), c) })
	seg.slugPost.freeze()
	seg.slugKey.freeze()
	if len(phrase) >= 2 {
		if err := phraseSequences(seg, phrase, cands, func(g int32) (string, error) {
			pi := partOf(g)
			return content(pi, int(g)-base[pi])
		}); err != nil {
			return nil, err
		}
	}

	avgLen := 1.0
	if total > 0 {
		avgLen = float64(total) / float64(n)
	}
	for _, p := range parts {
		if p.Part.sums.failed() {
			return nil, ErrDamaged
		}
	}
	ix := &Index{segs: []*Segment{seg}, base: []int32{0}, n: n, norm: [][]float64{normalise(seg.docLen, avgLen)}}
	hits := ix.search(qt, opt)
	for i := range hits {
		hits[i].ID = int(cands[hits[i].ID])
	}
	return hits, nil
}

// unionSorted is the ascending docs of a and b, two ascending lists
// without repeats, without repeats.
func unionSorted(a, b []int32) []int32 {
	if len(a) == 0 {
		return slices.Clone(b)
	}
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// lookup calls fn with the entry of d whose key is k, if there is one.
func lookup(d *dict, k string, fn func(i int) error) error {
	i, err := d.search(k)
	if err != nil || i == d.n {
		return err
	}
	got, _, err := d.key(i)
	if err != nil || string(got) != k {
		return err
	}
	return fn(i)
}

// phraseSequences gives the docs of seg that hold every term of phrase
// their main term sequences, read from their content: only they can hold
// the phrase as a run. Terms outside seg are one id no phrase term has.
func phraseSequences(seg *Segment, phrase []string, cands []int32, content func(g int32) (string, error)) error {
	all := make([]int, len(cands)) // per doc: how many phrase terms it has
	var ids []int32
	for _, w := range phrase {
		id, ok := seg.terms.find(w)
		if !ok {
			return nil // no doc holds the phrase
		}
		if slices.Contains(ids, id) {
			continue
		}
		ids = append(ids, id)
		for it := seg.post.of(id); it.more(); {
			p := it.next()
			all[p.doc]++
		}
	}
	seg.seq.off.add(0)
	var tk tokenizer
	for c := range cands {
		if all[c] == len(ids) {
			text, err := content(cands[c])
			if err != nil {
				return err
			}
			tk.reset()
			tk.run(text)
			if int32(len(tk.spans)) != seg.docLen[c] {
				return ErrStale
			}
			for i, sp := range tk.spans {
				if !sp.main {
					continue
				}
				id, ok := seg.terms.find(string(tk.term(i)))
				if !ok {
					id = -1
				}
				seg.seq.appendID(id)
			}
		}
		seg.seq.endDoc()
	}
	return nil
}
