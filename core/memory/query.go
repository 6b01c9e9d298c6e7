package memory

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
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
}

// CatalogEntry is one entry with its location and pruning score.
type CatalogEntry struct {
	EntryRef
	Cat   category.Category `json:"-"`
	Path  string            `json:"path"`
	Score int               `json:"score"`
}

// NewCatalog indexes the entries of the category files among files.
func NewCatalog(files []rules.File) *Catalog {
	c := &Catalog{Entries: catalogEntries(files, nil)}
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
	for _, f := range files {
		if !f.IsCategory || f.Doc == nil || (only != nil && f.Category != *only) {
			continue
		}
		for _, e := range f.Doc.Entries {
			out = append(out, CatalogEntry{EntryRef: *ref(f.Category, f.Name, e), Cat: f.Category, Path: f.Path, Score: similar.Score(f.Category, e.Content)})
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
	}
	return b.String()
}
