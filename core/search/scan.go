package search

import (
	"bytes"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Scan answers one query over docs given one at a time, without indexing
// them: for a one-shot process (the CLI's query), which would otherwise
// index every entry to rank a few. It returns exactly what Index.Search
// returns over the same docs (a test holds it to that).
//
// BM25 needs two things of every doc: its length in terms (for the average
// length) and whether it has a query term. The first is counted by a
// tight pass over the bytes (countTerms) that reproduces the tokenizer's
// term count without stemming or storing terms; the second is ruled out for
// most docs by a substring test on the doc's skeleton (see mayMatch). The
// few remaining candidates are indexed as one segment, and searched with
// the statistics of all docs: every term that can score (a query term or a
// longer term one begins) occurs only in candidates, so its document
// frequency among them is its frequency among all.
type Scan struct {
	keys  [][]byte // per distinct query term: what a doc's skeleton must contain
	n     int
	total int64
	cands []Doc
	ids   []int // the candidates' doc numbers, ascending
	tk    tokenizer
	skel  []byte
}

// NewScan prepares a scan for query.
func NewScan(query string) *Scan {
	s := &Scan{}
	s.tk.run(query)
	for i := range s.tk.spans {
		s.keys = append(s.keys, skeletonKey(s.tk.term(i)))
	}
	return s
}

// skeletonKey is what the skeleton of a doc with a term that w equals or
// begins must contain. Such a term is stem(x) for a part or compound x of
// the doc (see the tokenizer), and the stemmer only cuts x's end and then
// changes or adds at most one letter, so stem(x) without its last byte
// begins x, and w without its last rune begins x too. x is in the doc's
// skeleton with the dots of its versions dropped (as the skeleton drops
// them), so the key is w less its last rune, less its dots.
func skeletonKey(w []byte) []byte {
	_, size := utf8.DecodeLastRune(w)
	return bytes.ReplaceAll(w[:len(w)-size], []byte("."), nil)
}

// Add scans the next doc; docs are numbered from 0 in the order added. It
// reports whether the doc may be a hit: a doc for which it reports false is
// none, so a caller need keep only the others.
func (s *Scan) Add(d Doc) bool {
	id := s.n
	s.n++
	n, ascii := countTerms(d.Content)
	if !ascii {
		s.tk.reset()
		s.tk.run(d.Content)
		n = len(s.tk.spans)
	}
	s.total += int64(n)
	if len(s.keys) == 0 {
		return false
	}
	if !ascii || s.mayMatch(d.Content) || (d.Slug != "" && (!text.IsASCII(d.Slug) || s.mayMatch(d.Slug))) {
		s.cands = append(s.cands, d)
		s.ids = append(s.ids, id)
		return true
	}
	return false
}

// Merge adds the docs o scanned after those s scanned, as if s had scanned
// them itself: so that parts of the docs can be scanned in parallel. Both
// must be scans for the same query.
func (s *Scan) Merge(o *Scan) {
	for i, d := range o.cands {
		s.cands = append(s.cands, d)
		s.ids = append(s.ids, s.n+o.ids[i])
	}
	s.n += o.n
	s.total += o.total
}

// Len is the number of docs scanned.
func (s *Scan) Len() int { return s.n }

// Candidates are the numbers of the docs for which Add reported true, in
// ascending order.
func (s *Scan) Candidates() []int { return s.ids }

// mayMatch reports whether the ASCII text t may have a term that a query
// term equals or begins: whether t's skeleton (lower-cased, without the
// characters the tokenizer drops inside a word: ' - _ / .) contains a key.
func (s *Scan) mayMatch(t string) bool {
	sk := s.skel[:0]
	for i := 0; i < len(t); i++ {
		if c := skeleton[t[i]]; c != 0 {
			sk = append(sk, c)
		}
	}
	s.skel = sk
	for _, k := range s.keys {
		if bytes.Contains(sk, k) {
			return true
		}
	}
	return false
}

// skeleton maps each ASCII byte to what a skeleton holds for it: itself
// lower-cased, or 0 for nothing. Only ASCII text is reduced to a skeleton.
var skeleton = func() (m [utf8.RuneSelf]byte) {
	for c := range m {
		m[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			m[c] += 'a' - 'A'
		}
	}
	for _, c := range "'-_/." {
		m[c] = 0
	}
	m[0] = 0 // a NUL in the text: nothing a key can hold either
	return m
}()

// Search returns the hits of query, which must be the query NewScan was
// given, among the docs added, as Index.Search would.
func (s *Scan) Search(query string, opt Options) []Hit {
	if s.n == 0 || len(s.keys) == 0 {
		return nil
	}
	seg := NewSegment(s.cands)
	ix := &Index{segs: []*Segment{seg}, base: []int32{0}, n: s.n}
	avgLen := 1.0
	if s.total > 0 {
		avgLen = float64(s.total) / float64(s.n)
	}
	ix.norm = [][]float64{normalise(seg.docLen, avgLen)}
	hits := ix.Search(query, opt)
	for i := range hits {
		hits[i].ID = s.ids[hits[i].ID]
	}
	return hits
}

// countTerms is len(Tokens(t)) for ASCII t, and ascii false (with no
// count) for any other: the tokenizer's word rules (tokenize.go) replayed
// on bytes, counting each word part that is no stop word and each word of
// two parts or more (its compound), without lower-casing into a buffer,
// stemming or storing a term.
func countTerms(t string) (n int, ascii bool) {
	var (
		part   [8]byte // the current part's first bytes, lower-cased: enough for isStop
		plen   int     // the current part's length
		prev   class   // class of the last byte added to the part
		nparts int
	)
	add := func(c byte) {
		if plen < len(part) {
			part[plen] = c
		}
		plen++
	}
	endPart := func() {
		if plen == 0 {
			return
		}
		nparts++
		if plen > len(part) || !isStop(part[:plen]) {
			n++
		}
		plen = 0
	}
	endWord := func() {
		endPart()
		if nparts >= 2 {
			n++
		}
		nparts = 0
	}
	at := func(i int) (byte, class) {
		if i >= len(t) {
			return 0, clOther
		}
		return t[i], asciiClass(t[i])
	}
	for i := 0; i < len(t); {
		r := t[i]
		if r >= utf8.RuneSelf {
			return 0, false
		}
		c := asciiClass(r)
		if c != clOther {
			if c == clLetter && r <= 'Z' {
				r += 'a' - 'A'
			}
			add(r)
			prev = c
			i++
			continue
		}
		if plen > 0 {
			nr, nc := at(i + 1)
			switch {
			case r == '.' && prev == clDigit && nc == clDigit:
				add('.')
				i++
				continue
			case r == '\'' && prev == clLetter && nc == clLetter:
				if nr == 's' || nr == 'S' {
					if ar, ac := at(i + 2); ac == clOther && ar < utf8.RuneSelf {
						i += 2 // possessive: drop "'s"
						endWord()
						continue
					}
				}
				i++ // join: don't → dont
				continue
			case r == '+' && nr == '+' && prev == clLetter:
				if ar, ac := at(i + 2); ac == clOther && ar < utf8.RuneSelf {
					add('+')
					add('+')
					i += 2
					endWord()
					continue
				}
			case r == '#' && prev == clLetter && nc == clOther && nr < utf8.RuneSelf:
				add('#')
				i++
				endWord()
				continue
			case (r == '-' || r == '_' || r == '/' || r == '.') && nc != clOther:
				endPart()
				i++
				continue
			}
		}
		endWord()
		i++
	}
	endWord()
	return n, true
}

// asciiClass is classify for an ASCII byte.
func asciiClass(c byte) class { return asciiClasses[c] }

// asciiClasses is classify of each byte below utf8.RuneSelf, clOther
// above (never asked: countTerms stops at the first such byte).
var asciiClasses = func() (m [256]class) {
	for c := range utf8.RuneSelf {
		m[c] = classify(rune(c))
	}
	return m
}()
