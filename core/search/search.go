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
	terms    []string            // every content term, sorted; its index is its id
	post     [][]posting         // by term id; doc ids ascending
	cat      category.Category   // every doc's category, unless cats is set
	cats     []category.Category // per doc, when they are not all cat
	docLen   []int32             // number of terms per doc (compounds included)
	total    int64               // the sum of docLen
	seq      []int32             // the docs' main terms' ids, doc after doc
	seqOff   []int32             // doc d's are seq[seqOff[d]:seqOff[d+1]]
	slugPost map[string][]int32  // slug term → docs whose slug has it
	slugKey  map[string][]int32  // slug's main terms joined by "\x00" → docs
}

// find returns the id of term w, if the segment has it.
func (s *Segment) find(w string) (int32, bool) {
	i, ok := slices.BinarySearch(s.terms, w)
	return int32(i), ok
}

// hasRun reports whether doc d's main terms hold ids as consecutive terms.
func (s *Segment) hasRun(d int32, ids []int32) bool {
	seq := s.seq[s.seqOff[d]:s.seqOff[d+1]]
	for i := 0; i+len(ids) <= len(seq); i++ {
		if slices.Equal(seq[i:i+len(ids)], ids) {
			return true
		}
	}
	return false
}

// addDoc notes that doc d has key k in m; d is never below the docs added
// before.
func addDoc(m map[string][]int32, k []byte, d int32) {
	if l := m[string(k)]; len(l) == 0 || l[len(l)-1] != d {
		m[string(k)] = append(l, d)
	}
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
}

// held is the number of docs the segments hold: n for a joined index, but
// Scan.Search indexes only the docs that can score and keeps n, the whole
// set's count, for the statistics.
func (ix *Index) held() int {
	held := 0
	for _, s := range ix.segs {
		held += len(s.docLen)
	}
	return held
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
		seqOff:   make([]int32, n+1),
		slugPost: map[string][]int32{},
		slugKey:  map[string][]int32{},
	}
	var (
		tk       tokenizer
		ids      = map[string]int32{}     // term → id in order of first use
		postings [][]posting              // by that id
		last     []int32                  // per that id: 1 + last doc that got a posting
		seq      = make([]int32, 0, 12*n) // by first-use id
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
		ix.seqOff[d+1] = int32(len(seq))

		if doc.Slug == "" {
			continue
		}
		tk.reset()
		tk.run(doc.Slug)
		key = key[:0]
		for i, sp := range tk.spans {
			w := tk.term(i)
			addDoc(ix.slugPost, w, int32(d))
			if sp.main {
				if len(key) > 0 {
					key = append(key, 0)
				}
				key = append(key, w...)
			}
		}
		if len(key) > 0 {
			addDoc(ix.slugKey, key, int32(d))
		}
	}
	// A term's id is its place in the sorted dictionary.
	ix.terms = make([]string, 0, len(ids))
	for w := range ids {
		ix.terms = append(ix.terms, w)
	}
	slices.Sort(ix.terms)
	byID := make([]int32, len(postings)) // first use's id → the term's
	ix.post = make([][]posting, len(postings))
	for i, w := range ix.terms {
		first := ids[w]
		byID[first] = int32(i)
		ix.post[i] = postings[first]
	}
	ix.seq = seq
	for k, id := range seq {
		seq[k] = byID[id]
	}
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
		i, _ := slices.BinarySearch(s.terms, w)
		for ; i < len(s.terms) && strings.HasPrefix(s.terms[i], w); i++ {
			if s.terms[i] != w {
				out = append(out, s.terms[i])
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
		if id, ok := s.find(w); ok {
			n += len(s.post[id])
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
	acc := make([]float64, ix.held())
	touched := make([]int32, 0, 64)
	add := func(d int32, s float64) {
		if acc[d] == 0 {
			touched = append(touched, d)
		}
		acc[d] += s
	}

	termScore := func(w string, weight float64) {
		df := ix.df(w)
		if df == 0 {
			return
		}
		wt := weight * idf(n, df) * (k1 + 1)
		for si, s := range ix.segs {
			id, ok := s.find(w)
			if !ok {
				continue
			}
			base, norm := ix.base[si], ix.norm[si]
			for _, p := range s.post[id] {
				tf := float64(p.tf)
				add(base+p.doc, wt*tf/(tf+norm[p.doc]))
			}
		}
	}
	for _, w := range distinct {
		termScore(w, 1)
		for _, t := range ix.extensions(w) {
			termScore(t, PrefixWeight)
		}
		for si, s := range ix.segs {
			for _, d := range s.slugPost[w] {
				add(ix.base[si]+d, SlugTermBonus)
			}
		}
	}
	for si, s := range ix.segs {
		for _, d := range s.slugKey[qt.key] {
			add(ix.base[si]+d, SlugExactBonus)
		}
	}

	// Phrase bonus: in each segment that has every phrase term, scan the
	// candidates of its rarest one.
	if len(phrase) >= 2 {
		bonus := PhraseBonus * float64(len(phrase))
		ids := make([]int32, len(phrase))
		for si, s := range ix.segs {
			rarest := -1
			for i, w := range phrase {
				id, ok := s.find(w)
				if !ok {
					rarest = -1
					break
				}
				ids[i] = id
				if rarest < 0 || len(s.post[id]) < len(s.post[ids[rarest]]) {
					rarest = i
				}
			}
			if rarest < 0 {
				continue
			}
			for _, p := range s.post[ids[rarest]] {
				if s.hasRun(p.doc, ids) {
					acc[ix.base[si]+p.doc] += bonus // already touched by the term loop
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
