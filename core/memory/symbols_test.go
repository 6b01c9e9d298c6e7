package memory

import (
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// TestEntrySymbols: a picker's name is the slug, else the start of the
// content; an entry's span stops before CR LF; an offset or a
// line finds its entry and nothing else does.
func TestEntrySymbols(t *testing.T) {
	long := strings.Repeat("word ", 20)
	src := "# Decisions\r\n\r\n- [db] Use Postgres.\r\n- " + long + "\r\n- [only-slug]\r\nstray\r\n- [] Empty slug.\r\n"
	d := memfile.Parse([]byte(src))
	if len(d.Entries) != 4 {
		t.Fatalf("%d entries, want 4", len(d.Entries))
	}
	for i, want := range []struct {
		name      string
		keyed     bool
		line, sel string
	}{
		{"db", true, "- [db] Use Postgres.", "db"},
		{strings.TrimSpace(long[:40]) + "…", false, "- " + long, strings.TrimSpace(long)},
		{"[only-slug]", false, "- [only-slug]", "[only-slug]"}, // a slug alone is content
		{"[] Empty slug.", false, "- [] Empty slug.", "[] Empty slug."},
	} {
		s := EntrySymbol(d, i)
		line := src[s.Line.Start:s.Line.End]
		sel := src[s.Selection.Start:s.Selection.End]
		if s.Name != want.name || s.Keyed != want.keyed || strings.TrimRight(line, " ") != strings.TrimRight(want.line, " ") || strings.TrimSpace(sel) != want.sel {
			t.Errorf("entry %d: %+v (line %q, selection %q), want %+v", i, s, line, sel, want)
		}
		if got := EntryAtOffset(d, s.Line.End); got != i {
			t.Errorf("entry %d: EntryAtOffset(its line's end) = %d", i, got)
		}
		if got := EntryOnLine(d, d.Entries[i].Line); got != i {
			t.Errorf("entry %d: EntryOnLine = %d", i, got)
		}
	}
	if got := EntryAtOffset(d, 0); got != -1 {
		t.Errorf("EntryAtOffset(the heading) = %d, want -1", got)
	}
	if got := EntryOnLine(d, 1); got != -1 {
		t.Errorf("EntryOnLine(the heading's line) = %d, want -1", got)
	}
	if got := EntryOnLine(d, 2); got != -1 {
		t.Errorf("EntryOnLine(a blank line) = %d, want -1", got)
	}
	if got := EntryOnLine(d, 3); got != 0 {
		t.Errorf("EntryOnLine(the first entry's line) = %d, want 0", got)
	}
}

// TestSymbolName: a found entry is named by its line after the marker, and
// never by nothing, which pickers reject.
func TestSymbolName(t *testing.T) {
	for _, c := range []struct {
		slug, content, want string
	}{
		{"db-port", "Postgres listens on 5433.", "[db-port] Postgres listens on 5433."},
		{"", "Postgres listens on 5433.", "Postgres listens on 5433."},
		{"db-port", "", "[db-port] "},
		{"", "", "(empty entry)"},
	} {
		ce := CatalogEntry{EntryRef: EntryRef{Slug: c.slug, Content: c.content}}
		if got := ce.SymbolName(); got != c.want {
			t.Errorf("SymbolName(%q, %q) = %q, want %q", c.slug, c.content, got, c.want)
		}
	}
}
