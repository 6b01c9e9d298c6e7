package memory

import (
	"sort"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Symbol is an entry as an editor's picker lists it.
type Symbol struct {
	// Name is the entry's slug, or the start of its content: never empty,
	// which pickers reject.
	Name   string
	Detail string // the entry's content
	Keyed  bool   // the entry has a slug
	// Line is the entry's line, Selection its slug or else its content.
	Line, Selection text.Span
}

// symbolNameRunes is how much of a slugless entry's content names it.
const symbolNameRunes = 40

// emptySymbol names an entry with no text: pickers reject an empty name.
const emptySymbol = "(empty entry)"

// SymbolName is a found entry as a workspace-wide picker lists it: its
// line after the marker (EntryRef.Text), which a search across folders is
// matched against by eye.
func (ce CatalogEntry) SymbolName() string {
	if t := ce.Text(); t != "" {
		return t
	}
	return emptySymbol
}

// EntrySymbol is entry i of d as a picker lists it.
func EntrySymbol(d *memfile.Document, i int) Symbol {
	e := &d.Entries[i]
	s := Symbol{Name: emptySymbol, Detail: e.Content, Keyed: e.HasSlug, Line: EntrySpan(d, i), Selection: e.ContentSpan}
	switch {
	case e.HasSlug && e.Slug != "":
		s.Name = e.Slug
	case e.Content != "":
		s.Name = text.Clip(e.Content, symbolNameRunes)
	}
	if e.HasSlug {
		s.Selection = e.SlugSpan
	}
	return s
}

// EntrySpan is entry i's line of d without its line ending.
func EntrySpan(d *memfile.Document, i int) text.Span { return d.Body(d.Entries[i].LineIndex) }

// EntryAtOffset is the entry whose line (its ending aside) holds byte
// offset off of d, or -1.
func EntryAtOffset(d *memfile.Document, off int) int {
	for i := range d.Entries {
		if sp := EntrySpan(d, i); sp.Start <= off && off <= sp.End {
			return i
		}
	}
	return -1
}

// EntryOnLine is the entry on line of d (1-based, as memfile numbers
// lines), or -1.
func EntryOnLine(d *memfile.Document, line int) int {
	// Entries are in line order.
	i := sort.Search(len(d.Entries), func(i int) bool { return d.Entries[i].Line >= line })
	if i == len(d.Entries) || d.Entries[i].Line != line {
		return -1
	}
	return i
}
