package memory

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/search"
	"github.com/memory-lsp/memory-lsp/core/similar"
)

// HackLM's queryMemory limits: 10 by default, never more than 20.
const (
	DefaultQueryLimit = 10
	MaxQueryLimit     = 20
)

// Catalog is every entry of a workspace in HackLM's read order (category
// order, then line order) with a search index over them. Build it once per
// workspace state and query it many times; a Warm builds the next one from
// the files that changed.
type Catalog struct {
	// parts are the category files' entries and segments in read order;
	// fileOf[i] is parts[i]'s index in files, base[i] its first entry's
	// number, n the number of entries.
	parts  []*catalogPart
	fileOf []int
	base   []int
	n      int
	index  *search.Index

	// files, cfg and repo, when repo is set (JudgeWith), mark each hit
	// with what is stale about it.
	files []rules.File
	cfg   config.Config
	repo  func() rules.Repo
}

// catalogPart is one category file's entries and their search segment. It
// depends only on the file's path and bytes, so catalogs of later states
// share it while those stay the same (Warm). Its entries are read from the
// parse when a query returns them, not kept as CatalogEntry values: a
// long-lived process keeps a part of every file, and those would hold
// 120 bytes an entry more than the parse does.
type catalogPart struct {
	path, name string
	cat        category.Category
	doc        *memfile.Document
	// seg indexes the entries, in order.
	seg *search.Segment
}

// CatalogEntry is one entry with its location and pruning score.
type CatalogEntry struct {
	EntryRef
	Cat   category.Category `json:"-"`
	Path  string            `json:"path"`
	Score int               `json:"score"`
	// at is where the entry is among the files the catalog was built from.
	at rules.EntryAt
}

// NewCatalog indexes the entries of the category files among files.
func NewCatalog(files []rules.File) *Catalog {
	return joinCatalog(files, func(fi int) *catalogPart { return newPart(files[fi]) }, nil)
}

// newPart indexes the entries of category file f.
func newPart(f rules.File) *catalogPart {
	return &catalogPart{path: f.Path, name: f.Name, cat: f.Category, doc: f.Doc, seg: segmentOf(f)}
}

// segmentOf indexes the entries of category file f.
func segmentOf(f rules.File) *search.Segment {
	es := f.Doc.Entries
	docs := make([]search.Doc, len(es))
	for i, e := range es {
		docs[i] = search.Doc{Category: f.Category, Content: e.Content}
		if e.HasSlug {
			docs[i].Slug = e.Slug
		}
	}
	return search.NewSegment(docs)
}

// holds reports whether p is the part of category file f: the same path
// and the same bytes (the same parse, or a new parse of equal bytes).
func (p *catalogPart) holds(f rules.File) bool {
	return p.path == f.Path && (p.doc == f.Doc || bytes.Equal(p.doc.Src, f.Doc.Src))
}

// joinCatalog is the catalog of files whose category file at index fi has
// the part part(fi); with the parts of last, in the same order, it shares
// last's index.
func joinCatalog(files []rules.File, part func(fi int) *catalogPart, last *Catalog) *Catalog {
	c := &Catalog{files: files}
	for fi, f := range files {
		if !isCatalogued(f) {
			continue
		}
		c.parts = append(c.parts, part(fi))
		c.fileOf = append(c.fileOf, fi)
		c.base = append(c.base, c.n)
		c.n += len(c.parts[len(c.parts)-1].doc.Entries)
	}
	if last != nil && slices.Equal(last.parts, c.parts) {
		c.index = last.index
		return c
	}
	var segs []*search.Segment
	for _, p := range c.parts {
		segs = append(segs, p.seg)
	}
	c.index = search.Join(segs...)
	return c
}

// isCatalogued reports whether f's entries are in the catalog.
func isCatalogued(f rules.File) bool { return f.IsCategory && f.Doc != nil }

// Len is the number of entries.
func (c *Catalog) Len() int { return c.n }

// entry is entry number i in read order.
func (c *Catalog) entry(i int) CatalogEntry {
	// The last part starting at or before i: parts without entries share
	// the next one's base, and the last of those holds i.
	k := sort.Search(len(c.base), func(k int) bool { return c.base[k] > i }) - 1
	p, ei := c.parts[k], i-c.base[k]
	return catalogEntry(p.cat, p.name, p.path, p.doc.Entries[ei], rules.EntryAt{File: c.fileOf[k], Entry: ei})
}

// Entries are the first max entries in read order (all of them when max
// is negative).
func (c *Catalog) Entries(max int) []CatalogEntry {
	if max < 0 || max > c.n {
		max = c.n
	}
	out := make([]CatalogEntry, max)
	for i := range out {
		out[i] = c.entry(i)
	}
	return out
}

// List is listMemories: the entries in read order with their pruning
// scores, of one category when cat is not empty (an unknown category is an
// input error). Never nil. It builds no search index.
func List(files []rules.File, cat string) ([]CatalogEntry, error) {
	var only *category.Category
	if cat != "" {
		c, err := category.Parse(cat)
		if err != nil {
			return nil, &InputError{Field: "category", Problem: err.Error()}
		}
		only = &c
	}
	out := []CatalogEntry{}
	for fi, f := range files {
		if isCatalogued(f) && (only == nil || f.Category == *only) {
			out = append(out, fileEntries(f, fi)...)
		}
	}
	return out, nil
}

// fileEntries lists the entries of category file f, the fi-th file.
func fileEntries(f rules.File, fi int) []CatalogEntry {
	out := make([]CatalogEntry, len(f.Doc.Entries))
	for ei, e := range f.Doc.Entries {
		out[ei] = catalogEntry(f.Category, f.Name, f.Path, e, rules.EntryAt{File: fi, Entry: ei})
	}
	return out
}

// catalogEntry is entry e of the category file cat at path, named name.
func catalogEntry(cat category.Category, name, path string, e memfile.Entry, at rules.EntryAt) CatalogEntry {
	return CatalogEntry{EntryRef: *ref(cat, name, e), Cat: cat, Path: path, Score: similar.Score(cat, e.Content), at: at}
}

// QueryRequest is queryMemory's input (HackLM's schema).
type QueryRequest struct {
	Query    string `json:"query"`
	Category string `json:"category,omitempty"`
	Limit    *int   `json:"limit,omitempty"`
}

// QueryHit is one result.
type QueryHit struct {
	CatalogEntry
	// Relevance is the search score; as JSON it is "score", shadowing the pruning score.
	Relevance float64 `json:"score"`
	// Stale says what the entry cites that the repository contradicts
	// (the reference rules' messages), so that an agent does not follow
	// outdated advice. Empty when nothing is, or nothing was judged.
	Stale []string `json:"stale,omitempty"`
}

// JudgeWith makes the catalog's queries judge each hit's references
// against the repository repo returns, asked for only when a hit cites
// something (opening a repository lists its files).
func (c *Catalog) JudgeWith(cfg config.Config, repo func() rules.Repo) {
	c.cfg, c.repo = cfg, repo
}

// markStale sets the Stale notes of the hits.
func (c *Catalog) markStale(hits []QueryHit) {
	if c.repo != nil {
		markStale(hits, c.cfg, c.repo, func(at []rules.EntryAt) ([]rules.File, []rules.EntryAt) { return c.files, at })
	}
}

// markStale sets the Stale notes of hits, judged against the repository
// repo returns, which is asked for only when a hit cites something; files
// returns the files the hits' places index, asked for only then too, given
// the places of the hits that cite something: only their files need be
// parsed.
func markStale(hits []QueryHit, cfg config.Config, repo func() rules.Repo, files func(citing []rules.EntryAt) ([]rules.File, []rules.EntryAt)) {
	if len(hits) == 0 || !rules.ReadsRepo(cfg) {
		return
	}
	var at []rules.EntryAt // of the hits that cite something, read once
	for _, h := range hits {
		if len(refs.Extract(h.Content)) > 0 {
			at = append(at, h.at)
		}
	}
	if len(at) == 0 {
		return // rules.CheckReferences would find nothing without a repository
	}
	r := repo()
	if r == nil || !r.HasCode() {
		return // nothing to judge against (rules.CheckReferences finds nothing): no file need be read
	}
	fs, in := files(at)
	findings := rules.CheckReferences(fs, in, cfg, r)
	for k, h := range at {
		i := slices.IndexFunc(hits, func(x QueryHit) bool { return x.at == h })
		p := in[k]
		for _, f := range findings {
			// information is what the rules cannot tell (a path the
			// history never had): an agent told "stale" would distrust an
			// entry that may well be right
			if f.File != p.File || f.Severity > rules.Warning {
				continue
			}
			e := &fs[p.File].Doc.Entries[p.Entry]
			if e.LineSpan.Start <= f.Span.Start && f.Span.End <= e.LineSpan.End {
				hits[i].Stale = append(hits[i].Stale, f.Message)
			}
		}
	}
}

// QueryResult carries the hits and HackLM's reply text.
type QueryResult struct {
	Results []QueryHit `json:"results"`
	Message string     `json:"message"`
}

// Query searches the catalog. A limit outside 1..20 and an unknown category
// are input errors; HackLM silently accepts them and misbehaves (§11).
func (c *Catalog) Query(req QueryRequest) (QueryResult, error) {
	q, opt, err := req.options()
	if err != nil {
		return QueryResult{}, err
	}
	return answer(req, c.index.Search(q, opt), c.entry, c.markStale), nil
}

// options are the trimmed query and the search options of req, or the
// input error that refuses it.
func (req QueryRequest) options() (string, search.Options, error) {
	q := strings.TrimSpace(req.Query)
	if q == "" {
		return "", search.Options{}, &InputError{Field: "query", Problem: "query is empty"}
	}
	opt := search.Options{Limit: DefaultQueryLimit}
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > MaxQueryLimit {
			return "", search.Options{}, &InputError{Field: "limit", Problem: fmt.Sprintf("limit %d is out of range: use 1 to %d", *req.Limit, MaxQueryLimit)}
		}
		opt.Limit = *req.Limit
	}
	if req.Category != "" {
		cat, err := category.Parse(req.Category)
		if err != nil {
			return "", search.Options{}, &InputError{Field: "category", Problem: err.Error()}
		}
		opt.Category = &cat
	}
	return q, opt, nil
}

// answer is the result of req whose search found hits: entry(id) is the
// entry of hit id, and stale marks the hits with what is stale in them.
func answer(req QueryRequest, hits []search.Hit, entry func(int) CatalogEntry, stale func([]QueryHit)) QueryResult {
	res := QueryResult{Results: make([]QueryHit, 0, len(hits))}
	for _, h := range hits {
		res.Results = append(res.Results, QueryHit{CatalogEntry: entry(h.ID), Relevance: h.Score})
	}
	stale(res.Results)
	res.Message = queryMessage(req.Query, res.Results)
	return res
}

// queryMessage is HackLM's reply — "Found N memories:", a blank line, then
// "[Category] content" per hit, or "No memories found matching "<query>"."
// — in good English ("Found 1 memory:"), with each hit's place and slug
// after its content, so that an agent reading only the text can cite it
// or update it by slug: "[Decision] Use Postgres. (decisions.md:3, slug db)".
func queryMessage(query string, hits []QueryHit) string {
	if len(hits) == 0 {
		return fmt.Sprintf("No memories found matching %s.", quote(query))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Found %s:\n", Plural(len(hits), "memory", "memories"))
	for _, h := range hits {
		fmt.Fprintf(&b, "\n[%s] %s (%s:%d", h.Category, h.Content, h.File, h.Line)
		if h.Slug != "" {
			fmt.Fprintf(&b, ", slug %s", h.Slug)
		}
		b.WriteString(")")
		if len(h.Stale) > 0 {
			fmt.Fprintf(&b, " (stale: %s)", strings.Join(h.Stale, "; "))
		}
	}
	return b.String()
}
