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

// Index is an inverted index over a fixed set of Docs.
type Index struct {
	terms    map[string]int32 // term → term id
	postings [][]posting      // by term id; doc ids ascending
	cats     []category.Category
	docLen   []int32   // number of terms per doc (compounds included)
	norm     []float64 // k1·(1 − b + b·len/avgLen), precomputed
	avgLen   float64
	seq      []int32            // main term sequences of all docs, back to back
	seqOff   []int32            // doc d's sequence is seq[seqOff[d]:seqOff[d+1]]
	slugPost map[string][]int32 // slug term → docs whose slug has it
	slugKey  map[string][]int32 // slug's main terms joined by "\x00" → docs
	sorted   []string           // every content term, sorted: prefix lookups

	// scratch recycles Search's per-doc score accumulators (*[]float64,
	// all zero when put back), so a search costs what it touches, not N.
	scratch sync.Pool
}

// Build indexes docs; a Hit's ID is the index into docs.
func Build(docs []Doc) *Index {
	n := len(docs)
	ix := &Index{
		terms:    make(map[string]int32),
		cats:     make([]category.Category, n),
		docLen:   make([]int32, n),
		norm:     make([]float64, n),
		seqOff:   make([]int32, n+1),
		slugPost: make(map[string][]int32),
		slugKey:  make(map[string][]int32),
	}
	ix.seq = make([]int32, 0, 12*n)
	var (
		tk    tokenizer
		last  []int32 // per term id: 1 + last doc that got a posting
		total int64
		key   []byte
	)
	for d, doc := range docs {
		ix.cats[d] = doc.Category
		tk.reset()
		tk.run(doc.Content)
		for i, sp := range tk.spans {
			w := tk.term(i)
			id, ok := ix.terms[string(w)]
			if !ok {
				id = int32(len(ix.postings))
				ix.terms[string(w)] = id
				ix.postings = append(ix.postings, nil)
				last = append(last, 0)
			}
			if p := ix.postings[id]; last[id] == int32(d)+1 {
				if p[len(p)-1].tf < math.MaxUint16 {
					p[len(p)-1].tf++
				}
			} else {
				ix.postings[id] = append(p, posting{doc: int32(d), tf: 1})
				last[id] = int32(d) + 1
			}
			if sp.main {
				ix.seq = append(ix.seq, id)
			}
		}
		ix.docLen[d] = int32(len(tk.spans))
		total += int64(len(tk.spans))
		ix.seqOff[d+1] = int32(len(ix.seq))

		if doc.Slug == "" {
			continue
		}
		tk.reset()
		tk.run(doc.Slug)
		key = key[:0]
		for i, sp := range tk.spans {
			w := tk.term(i)
			if p := ix.slugPost[string(w)]; len(p) == 0 || p[len(p)-1] != int32(d) {
				ix.slugPost[string(w)] = append(p, int32(d))
			}
			if sp.main {
				if len(key) > 0 {
					key = append(key, 0)
				}
				key = append(key, w...)
			}
		}
		if len(key) > 0 {
			ix.slugKey[string(key)] = append(ix.slugKey[string(key)], int32(d))
		}
	}
	ix.avgLen = 1
	if n > 0 && total > 0 {
		ix.avgLen = float64(total) / float64(n)
	}
	for d := range ix.norm {
		ix.norm[d] = k1 * (1 - b + b*float64(ix.docLen[d])/ix.avgLen)
	}
	ix.sorted = make([]string, 0, len(ix.terms))
	for t := range ix.terms {
		ix.sorted = append(ix.sorted, t)
	}
	slices.Sort(ix.sorted)
	return ix
}

// extensions are the indexed terms that w begins and is not, when w is long
// enough to be a prefix worth matching.
func (ix *Index) extensions(w string) []string {
	if utf8.RuneCountInString(w) < MinPrefix {
		return nil
	}
	i, _ := slices.BinarySearch(ix.sorted, w)
	var out []string
	for ; i < len(ix.sorted) && strings.HasPrefix(ix.sorted[i], w); i++ {
		if ix.sorted[i] != w {
			out = append(out, ix.sorted[i])
		}
	}
	return out
}

// Len is the number of indexed docs.
func (ix *Index) Len() int { return len(ix.docLen) }

// idf is the BM25+ style IDF that never goes negative.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Search returns the docs matching query, best first: score descending, ties
// by ID ascending. A doc matches if it has at least one query term in its
// content or slug. A query with no terms (empty, punctuation, stop words
// only) returns nil.
func (ix *Index) Search(query string, opt Options) []Hit {
	n := len(ix.docLen)
	if n == 0 {
		return nil
	}
	var tk tokenizer
	tk.run(query)
	if len(tk.spans) == 0 {
		return nil
	}

	// Distinct query terms, the phrase (main sequence) and the slug key.
	distinct := make([]string, 0, len(tk.spans))
	var phrase []string
	var key strings.Builder
	for i, sp := range tk.spans {
		w := string(tk.term(i))
		if !slices.Contains(distinct, w) {
			distinct = append(distinct, w)
		}
		if sp.main {
			phrase = append(phrase, w)
			if key.Len() > 0 {
				key.WriteByte(0)
			}
			key.WriteString(w)
		}
	}

	// acc[d] > 0 exactly when d matched something: every contribution is
	// positive (idf > 0, tf ≥ 1, bonuses > 0).
	accp, _ := ix.scratch.Get().(*[]float64)
	if accp == nil {
		buf := make([]float64, n)
		accp = &buf
	}
	acc := *accp
	touched := make([]int32, 0, 64)
	defer func() {
		for _, d := range touched {
			acc[d] = 0
		}
		ix.scratch.Put(accp)
	}()
	add := func(d int32, s float64) {
		if acc[d] == 0 {
			touched = append(touched, d)
		}
		acc[d] += s
	}

	termScore := func(id int32, weight float64) {
		pl := ix.postings[id]
		wt := weight * idf(n, len(pl)) * (k1 + 1)
		for _, p := range pl {
			tf := float64(p.tf)
			add(p.doc, wt*tf/(tf+ix.norm[p.doc]))
		}
	}
	for _, w := range distinct {
		if id, ok := ix.terms[w]; ok {
			termScore(id, 1)
		}
		for _, t := range ix.extensions(w) {
			termScore(ix.terms[t], PrefixWeight)
		}
		for _, d := range ix.slugPost[w] {
			add(d, SlugTermBonus)
		}
	}
	for _, d := range ix.slugKey[key.String()] {
		add(d, SlugExactBonus)
	}

	// Phrase bonus: scan the candidates of the rarest phrase term.
	if len(phrase) >= 2 {
		ids := make([]int32, len(phrase))
		rarest := -1
		for i, w := range phrase {
			id, ok := ix.terms[w]
			if !ok {
				rarest = -1
				break
			}
			ids[i] = id
			if rarest < 0 || len(ix.postings[id]) < len(ix.postings[ids[rarest]]) {
				rarest = i
			}
		}
		if rarest >= 0 {
			bonus := PhraseBonus * float64(len(phrase))
			for _, p := range ix.postings[ids[rarest]] {
				if containsRun(ix.seq[ix.seqOff[p.doc]:ix.seqOff[p.doc+1]], ids) {
					acc[p.doc] += bonus // already touched by the term loop
				}
			}
		}
	}

	// Collect, filter, rank.
	if opt.Limit > 0 {
		h := topK{k: opt.Limit}
		for _, d := range touched {
			if opt.Category != nil && ix.cats[d] != *opt.Category {
				continue
			}
			h.offer(Hit{ID: int(d), Score: acc[d]})
		}
		return h.sorted()
	}
	hits := make([]Hit, 0, len(touched))
	for _, d := range touched {
		if opt.Category != nil && ix.cats[d] != *opt.Category {
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

// containsRun reports whether pat occurs as consecutive elements of seq.
func containsRun(seq, pat []int32) bool {
	for i := 0; i+len(pat) <= len(seq); i++ {
		if seq[i] == pat[0] && slices.Equal(seq[i:i+len(pat)], pat) {
			return true
		}
	}
	return false
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
