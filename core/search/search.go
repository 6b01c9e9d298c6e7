// Package search ranks memory entries for a query.
//
// HackLM's queryMemory scores substring hits (`use` matches `because`) and
// returns everything unranked for short queries. This package replaces that
// with BM25 over stemmed, Unicode-aware tokens (see Tokens), plus a phrase
// bonus when the query occurs as consecutive terms and a bonus for query terms
// that name the entry's slug. There is no substring matching: a document is
// returned only if it shares a whole term with the query (in its content or
// its slug), or has a term that a query term of at least MinPrefix letters
// begins ("postgres" finds "PostgreSQL", "kube" finds "Kubernetes"; "use"
// never finds "user", and nothing finds "because" by its tail). Such a prefix
// match scores PrefixWeight of a whole-term match. A query without usable
// terms returns nothing.
//
// The package is pure: no file I/O, no global state. Build an Index once,
// then call Search as often as needed; an Index is safe for concurrent use.
package search

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// Scoring constants.
const (
	// BM25 parameters.
	k1 = 1.2
	b  = 0.75
	// PhraseBonus is added per query term when the whole query (two or more
	// terms) occurs as consecutive terms of the content.
	PhraseBonus = 2.0
	// SlugTermBonus is added for each distinct query term that is a term of
	// the entry's slug.
	SlugTermBonus = 1.5
	// SlugExactBonus is added when the query's terms are exactly the slug's
	// ("cache api" or "cache-api" for slug cache-api).
	SlugExactBonus = 3.0
	// MinPrefix is the shortest query term, in letters, that also matches
	// the longer terms it begins.
	MinPrefix = 4
	// PrefixWeight scales a prefix match against a whole-term match, so
	// "cache" ranks an entry about caches above one about a cachet.
	PrefixWeight = 0.5
)

// Doc is one memory entry to index.
type Doc struct {
	Category category.Category
	Slug     string
	Content  string
}

// Options narrow a search.
type Options struct {
	// Category, when non-nil, keeps only entries of that category.
	Category *category.Category
	// Limit caps the number of hits; ≤ 0 means no limit.
	Limit int
}

// Hit is one result: the index of the Doc passed to Build, and its score.
type Hit struct {
	ID    int
	Score float64
}

type posting struct {
	doc int32
	tf  uint16
}

// Segment is the inverted index of one run of Docs, the entries of one
// memory file: an Index is joined from segments (Join), so that a long-lived
// process re-indexes only the files whose bytes changed. A Segment is never
// modified once built and may be shared by many indexes.
type Segment struct {
	terms    sortedKeys          // every content term; its index is its id
	post     postingLists        // by term id; doc ids ascending
	cat      category.Category   // every doc's category, unless cats is set
	cats     []category.Category // per doc, when they are not all cat
	docLen   []int32             // number of terms per doc (compounds included)
	total    int64               // the sum of docLen
	seq      sequences           // main term sequences of the docs
	slugPost docSet              // slug term → docs whose slug has it
	slugKey  docSet              // slug's main terms joined by "\x00" → docs
}

// Index searches a sequence of segments as one set of docs: a Hit's ID
// numbers the docs of all segments in order. The collection statistics BM25
// needs (the number of docs, their average length, each term's document
// frequency) are those of the whole set, so a joined index scores exactly as
// one built from all the docs at once.
type Index struct {
	segs []*Segment
	base []int32     // segs[i]'s first doc ID
	norm [][]float64 // per segment and doc: k1·(1 − b + b·len/avgLen)
	n    int

	// scratch holds Search's per-doc score accumulators (all zero when
	// put back), so a search costs what it touches, not N. Not a
	// sync.Pool: a pool is emptied by every collection, and a server
	// running over its soft heap limit collects all the time, so each
	// search would allocate and clear N floats again (0.8 MB at 100,000
	// entries) and bring the next collection nearer.
	scratchMu sync.Mutex
	scratch   [][]float64
}

// accumulators returns a zeroed slice of a score per doc the segments
// hold, to be given back with release once zeroed again. That is n for a
// joined index, but SearchParts and Scan.Search index only the docs that
// can score and keep n, the whole set's count, for the statistics: sized
// by n, each of their searches allocated and cleared 0.8 MB at 100,000
// entries for a few thousand candidates.
func (ix *Index) accumulators() []float64 {
	ix.scratchMu.Lock()
	defer ix.scratchMu.Unlock()
	if k := len(ix.scratch); k > 0 {
		acc := ix.scratch[k-1]
		ix.scratch = ix.scratch[:k-1]
		return acc
	}
	held := 0
	for _, s := range ix.segs {
		held += len(s.docLen)
	}
	return make([]float64, held)
}

func (ix *Index) release(acc []float64) {
	ix.scratchMu.Lock()
	ix.scratch = append(ix.scratch, acc)
	ix.scratchMu.Unlock()
}

// Build indexes docs; a Hit's ID is the index into docs.
func Build(docs []Doc) *Index { return Join(NewSegment(docs)) }

// Join makes one index of segs, in order: the docs of segs[0] take the first
// IDs, and so on. Only the length normalisation of each doc is computed, so
// joining costs a few nanoseconds per doc, not a re-index.
func Join(segs ...*Segment) *Index {
	ix := &Index{segs: segs, base: make([]int32, len(segs)), norm: make([][]float64, len(segs))}
	var total int64
	for i, s := range segs {
		ix.base[i] = int32(ix.n)
		ix.n += len(s.docLen)
		total += s.total
	}
	avgLen := 1.0
	if ix.n > 0 && total > 0 {
		avgLen = float64(total) / float64(ix.n)
	}
	for i, s := range segs {
		ix.norm[i] = normalise(s.docLen, avgLen)
	}
	return ix
}

// normalise is BM25's length normalisation of docs of the lengths given:
// k1·(1 − b + b·len/avgLen) each.
func normalise(docLen []int32, avgLen float64) []float64 {
	norm := make([]float64, len(docLen))
	for d, l := range docLen {
		norm[d] = k1 * (1 - b + b*float64(l)/avgLen)
	}
	return norm
}

// NewSegment indexes docs; their IDs in an index are the segment's base
// plus their index in docs.
func NewSegment(docs []Doc) *Segment {
	n := len(docs)
	ix := &Segment{
		docLen:   make([]int32, n),
		slugPost: newDocSet(),
		slugKey:  newDocSet(),
	}
	var (
		tk       tokenizer
		ids      = map[string]int32{} // term → id in order of first use
		postings [][]posting          // by that id
		last     []int32              // per that id: 1 + last doc that got a posting
		seq      = make([]int32, 0, 12*n)
		seqOff   = make([]int32, n+1) // doc d's main terms are seq[seqOff[d]:seqOff[d+1]]
		key      []byte
	)
	ix.setCategories(n, func(d int) category.Category { return docs[d].Category })
	for d, doc := range docs {
		tk.reset()
		tk.run(doc.Content)
		for i, sp := range tk.spans {
			w := tk.term(i)
			id, ok := ids[string(w)]
			if !ok {
				id = int32(len(postings))
				ids[string(w)] = id
				postings = append(postings, nil)
				last = append(last, 0)
			}
			if p := postings[id]; last[id] == int32(d)+1 {
				if p[len(p)-1].tf < math.MaxUint16 {
					p[len(p)-1].tf++
				}
			} else {
				postings[id] = append(p, posting{doc: int32(d), tf: 1})
				last[id] = int32(d) + 1
			}
			if sp.main {
				seq = append(seq, id)
			}
		}
		ix.docLen[d] = int32(len(tk.spans))
		ix.total += int64(len(tk.spans))
		seqOff[d+1] = int32(len(seq))

		if doc.Slug == "" {
			continue
		}
		tk.reset()
		tk.run(doc.Slug)
		key = key[:0]
		for i, sp := range tk.spans {
			w := tk.term(i)
			ix.slugPost.add(w, int32(d))
			if sp.main {
				if len(key) > 0 {
					key = append(key, 0)
				}
				key = append(key, w...)
			}
		}
		if len(key) > 0 {
			ix.slugKey.add(key, int32(d))
		}
	}
	ix.slugPost.freeze()
	ix.slugKey.freeze()
	// A term's id is its place in the sorted dictionary.
	ix.terms = sortedKeysOf(ids)
	byID := make([]int32, len(postings)) // first use's id → the term's
	sorted := make([][]posting, len(postings))
	for i := range ix.terms.len() {
		first := ids[ix.terms.key(i)]
		byID[first] = int32(i)
		sorted[i] = postings[first]
	}
	// The postings and sequences in arrays of their length: a long-lived
	// process keeps a segment per memory file, and the room append left
	// would stay with it.
	ix.post = packPostings(sorted)
	ix.seq.b = make([]byte, 0, 2*len(seq))
	ix.seq.off.low = make([]uint32, 0, n+1)
	ix.seq.off.add(0)
	for d := range n {
		for _, id := range seq[seqOff[d]:seqOff[d+1]] {
			ix.seq.appendID(byID[id])
		}
		ix.seq.endDoc()
	}
	ix.seq.b = slices.Clone(ix.seq.b)
	return ix
}

// setCategories sets the category of each of n docs, of doc d cat(d):
// kept once when they are all the same (a memory file's entries), which
// a segment is most often.
func (s *Segment) setCategories(n int, cat func(d int) category.Category) {
	s.cats = nil
	if n == 0 {
		return
	}
	s.cat = cat(0)
	for d := 1; d < n; d++ {
		if c := cat(d); c != s.cat && s.cats == nil {
			s.cats = make([]category.Category, n)
			for e := range d {
				s.cats[e] = s.cat
			}
			s.cats[d] = c
		} else if s.cats != nil {
			s.cats[d] = c
		}
	}
}

// category is doc d's category.
func (s *Segment) category(d int32) category.Category {
	if s.cats != nil {
		return s.cats[d]
	}
	return s.cat
}

// Len is the number of docs in the segment.
func (s *Segment) Len() int { return len(s.docLen) }

// extensions are the indexed terms that w begins and is not, when w is long
// enough to be a prefix worth matching, in ascending order.
func (ix *Index) extensions(w string) []string {
	if utf8.RuneCountInString(w) < MinPrefix {
		return nil
	}
	var out []string
	for _, s := range ix.segs {
		for i := s.terms.search(w); i < s.terms.len() && strings.HasPrefix(s.terms.key(i), w); i++ {
			if t := s.terms.key(i); t != w {
				out = append(out, t)
			}
		}
	}
	if len(ix.segs) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// df is the number of docs that have term w.
func (ix *Index) df(w string) int {
	n := 0
	for _, s := range ix.segs {
		if id, ok := s.terms.find(w); ok {
			n += int(s.post.df[id])
		}
	}
	return n
}

// Len is the number of indexed docs.
func (ix *Index) Len() int { return ix.n }

// idf is the BM25+ style IDF that never goes negative.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Search returns the docs matching query, best first: score descending, ties
// by ID ascending. A doc matches if it has at least one query term in its
// content or slug. A query with no terms (empty, punctuation, stop words
// only) returns nil.
//
// Each doc's score is summed in the same order whatever the segments: per
// distinct query term, its own BM25 term, then its extensions in term
// order, then its slug bonus; then the exact-slug and phrase bonuses. So a
// joined index gives bit for bit the scores of one built at once.
func (ix *Index) Search(query string, opt Options) []Hit {
	return ix.search(analyse(query), opt)
}

// search is Search of the query analysed as qt.
func (ix *Index) search(qt queryTerms, opt Options) []Hit {
	n := ix.n
	if n == 0 {
		return nil
	}
	if qt.distinct == nil {
		return nil
	}
	distinct, phrase := qt.distinct, qt.phrase

	// acc[d] > 0 exactly when d matched something: every contribution is
	// positive (idf > 0, tf ≥ 1, bonuses > 0).
	acc := ix.accumulators()
	touched := make([]int32, 0, 64)
	defer func() {
		for _, d := range touched {
			acc[d] = 0
		}
		ix.release(acc)
	}()
	add := func(d int32, s float64) {
		if acc[d] == 0 {
			touched = append(touched, d)
		}
		acc[d] += s
	}

	var block [128]posting
	termScore := func(w string, weight float64) {
		df := ix.df(w)
		if df == 0 {
			return
		}
		wt := weight * idf(n, df) * (k1 + 1)
		for si, s := range ix.segs {
			id, ok := s.terms.find(w)
			if !ok {
				continue
			}
			base, norm := ix.base[si], ix.norm[si]
			for it := s.post.of(id); ; {
				n := it.read(block[:])
				if n == 0 {
					break
				}
				for _, p := range block[:n] {
					tf := float64(p.tf)
					add(base+p.doc, wt*tf/(tf+norm[p.doc]))
				}
			}
		}
	}
	var lone [1]int32
	for _, w := range distinct {
		termScore(w, 1)
		for _, t := range ix.extensions(w) {
			termScore(t, PrefixWeight)
		}
		for si, s := range ix.segs {
			for _, d := range s.slugPost.docs(w, &lone) {
				add(ix.base[si]+d, SlugTermBonus)
			}
		}
	}
	for si, s := range ix.segs {
		for _, d := range s.slugKey.docs(qt.key, &lone) {
			add(ix.base[si]+d, SlugExactBonus)
		}
	}

	// Phrase bonus: in each segment that has every phrase term, scan the
	// candidates of its rarest one.
	if len(phrase) >= 2 {
		bonus := PhraseBonus * float64(len(phrase))
		ids := make([]int32, len(phrase))
		var run []byte
		for si, s := range ix.segs {
			rarest := -1
			for i, w := range phrase {
				id, ok := s.terms.find(w)
				if !ok {
					rarest = -1
					break
				}
				ids[i] = id
				if rarest < 0 || s.post.df[id] < s.post.df[ids[rarest]] {
					rarest = i
				}
			}
			if rarest < 0 {
				continue
			}
			run = s.seq.encode(run[:0], ids)
			for it := s.post.of(ids[rarest]); ; {
				n := it.read(block[:])
				if n == 0 {
					break
				}
				for _, p := range block[:n] {
					if s.seq.hasRun(p.doc, run) {
						acc[ix.base[si]+p.doc] += bonus // already touched by the term loop
					}
				}
			}
		}
	}

	// Collect, filter, rank.
	cat := func(d int32) category.Category {
		si := ix.segment(d)
		return ix.segs[si].category(d - ix.base[si])
	}
	if opt.Limit > 0 {
		h := topK{k: opt.Limit}
		for _, d := range touched {
			if opt.Category != nil && cat(d) != *opt.Category {
				continue
			}
			h.offer(Hit{ID: int(d), Score: acc[d]})
		}
		return h.sorted()
	}
	hits := make([]Hit, 0, len(touched))
	for _, d := range touched {
		if opt.Category != nil && cat(d) != *opt.Category {
			continue
		}
		hits = append(hits, Hit{ID: int(d), Score: acc[d]})
	}
	if len(hits) == 0 {
		return nil
	}
	slices.SortFunc(hits, cmpHit)
	return hits
}

// queryTerms are what a search asks of a query: its distinct terms, its
// phrase (the main terms in order) and its slug key (the main terms joined
// by NUL). distinct is nil for a query without terms.
type queryTerms struct {
	distinct, phrase []string
	key              string
}

func analyse(query string) queryTerms {
	var tk tokenizer
	tk.run(query)
	if len(tk.spans) == 0 {
		return queryTerms{}
	}
	qt := queryTerms{distinct: make([]string, 0, len(tk.spans))}
	var key strings.Builder
	for i, sp := range tk.spans {
		w := string(tk.term(i))
		if !slices.Contains(qt.distinct, w) {
			qt.distinct = append(qt.distinct, w)
		}
		if sp.main {
			qt.phrase = append(qt.phrase, w)
			if key.Len() > 0 {
				key.WriteByte(0)
			}
			key.WriteString(w)
		}
	}
	qt.key = key.String()
	return qt
}

// segment is the index of the segment holding doc ID d.
func (ix *Index) segment(d int32) int {
	// The last segment starting at or before d: empty segments share
	// their base with the next, which holds d.
	return sort.Search(len(ix.base), func(k int) bool { return ix.base[k] > d }) - 1
}

// cmpHit orders best first: higher score, then lower ID.
func cmpHit(a, b Hit) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

// topK keeps the k best hits in a heap whose root is the worst kept hit.
type topK struct {
	k int
	h []Hit
}

// worse reports whether a ranks below b.
func worse(a, b Hit) bool { return cmpHit(a, b) > 0 }

func (t *topK) offer(x Hit) {
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		// sift up
		i := len(t.h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !worse(t.h[i], t.h[p]) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		return
	}
	if !worse(t.h[0], x) {
		return
	}
	t.h[0] = x
	// sift down
	i, n := 0, len(t.h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && worse(t.h[r], t.h[l]) {
			m = r
		}
		if !worse(t.h[m], t.h[i]) {
			break
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

func (t *topK) sorted() []Hit {
	if len(t.h) == 0 {
		return nil
	}
	slices.SortFunc(t.h, cmpHit)
	return t.h
}
