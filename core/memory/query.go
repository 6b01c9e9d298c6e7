package memory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
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
// workspace state and query it many times.
type Catalog struct {
	Entries []CatalogEntry
	index   *search.Index

	// files, cfg and repo, when repo is set (JudgeWith), mark each hit
	// with what is stale about it.
	files []rules.File
	cfg   config.Config
	repo  func() rules.Repo
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
	c := &Catalog{Entries: catalogEntries(files, nil), files: files}
	docs := make([]search.Doc, len(c.Entries))
	for i, ce := range c.Entries {
		docs[i] = search.Doc{Category: ce.Cat, Slug: ce.Slug, Content: ce.Content}
	}
	c.index = search.Build(docs)
	return c
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
	return catalogEntries(files, only), nil
}

// catalogEntries lists the entries of the category files among files (of
// category only, when not nil), never nil.
func catalogEntries(files []rules.File, only *category.Category) []CatalogEntry {
	out := []CatalogEntry{}
	for fi, f := range files {
		if !f.IsCategory || f.Doc == nil || (only != nil && f.Category != *only) {
			continue
		}
		for ei, e := range f.Doc.Entries {
			out = append(out, CatalogEntry{EntryRef: *ref(f.Category, f.Name, e), Cat: f.Category, Path: f.Path,
				Score: similar.Score(f.Category, e.Content), at: rules.EntryAt{File: fi, Entry: ei}})
		}
	}
	return out
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
	if c.repo == nil || len(hits) == 0 || !rules.ReadsRepo(c.cfg) {
		return
	}
	at := make([]rules.EntryAt, len(hits))
	for i, h := range hits {
		at[i] = h.at
	}
	var repo rules.Repo
	if slices.ContainsFunc(hits, func(h QueryHit) bool { return len(refs.Extract(h.Content)) > 0 }) {
		repo = c.repo()
	}
	findings := rules.CheckReferences(c.files, at, c.cfg, repo)
	for i := range hits {
		e := &c.files[hits[i].at.File].Doc.Entries[hits[i].at.Entry]
		for _, f := range findings {
			if f.File == hits[i].at.File && e.LineSpan.Start <= f.Span.Start && f.Span.End <= e.LineSpan.End {
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
	q := strings.TrimSpace(req.Query)
	if q == "" {
		return QueryResult{}, &InputError{Field: "query", Problem: "query is empty"}
	}
	opt := search.Options{Limit: DefaultQueryLimit}
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > MaxQueryLimit {
			return QueryResult{}, &InputError{Field: "limit", Problem: fmt.Sprintf("limit %d is out of range: use 1 to %d", *req.Limit, MaxQueryLimit)}
		}
		opt.Limit = *req.Limit
	}
	if req.Category != "" {
		cat, err := category.Parse(req.Category)
		if err != nil {
			return QueryResult{}, &InputError{Field: "category", Problem: err.Error()}
		}
		opt.Category = &cat
	}
	hits := c.index.Search(q, opt)
	res := QueryResult{Results: make([]QueryHit, 0, len(hits))}
	for _, h := range hits {
		res.Results = append(res.Results, QueryHit{CatalogEntry: c.Entries[h.ID], Relevance: h.Score})
	}
	c.markStale(res.Results)
	res.Message = queryMessage(req.Query, res.Results)
	return res, nil
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
