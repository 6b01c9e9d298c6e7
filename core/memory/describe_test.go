package memory

import (
	"reflect"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

func TestDescribeEntry(t *testing.T) {
	const src = "# Decisions\n\n" +
		"- [db] Use Postgres for the main database.\n" + // entry 0, line 3
		"- Use Postgres for the analytics database.\n" + // 1, line 4
		"- Use Postgres for the main database.\n" + // 2, line 5
		"- Never use Postgres for the main database.\n" + // 3, line 6
		"- Deploy with blue green releases.\n" + // 4, line 7
		"-   \n" // 5, line 8: no content
	f := rules.NewFile("/w/.memory/decisions.md", []byte(src))
	at := func(line string) int { return strings.Index(src, line+"\n") }
	var (
		dup      = SimilarEntry{Line: 5, Start: at("- Use Postgres for the main database."), Similarity: 1, Note: "duplicate, identical text", Content: "Use Postgres for the main database."}
		reversal = SimilarEntry{Line: 6, Start: at("- Never use Postgres for the main database."), Similarity: 1, Note: "conflict, reversal", Content: "Never use Postgres for the main database."}
		// one term swapped: a sibling at any similarity (issue 27)
		other = SimilarEntry{Line: 4, Start: at("- Use Postgres for the analytics database."), Similarity: 0.5, Note: `sibling: "analytics" vs "main"`, Content: "Use Postgres for the analytics database."}
	)
	described := func(slug string, similar ...SimilarEntry) EntryDescription {
		return EntryDescription{Slug: slug, HasSlug: slug != "", Category: category.Decision, Score: 30, Weight: 15, Brevity: 15, Count: 6, Limit: 40, Similar: similar}
	}
	tests := []struct {
		name       string
		entry, max int
		want       EntryDescription
	}{
		{"the most similar first: a duplicate and a reversal before a weaker pair", 0, 3, described("db", dup, reversal, other)},
		{"at most max", 0, 1, described("db", dup)},
		{"equals in file order", 1, 3, described("",
			SimilarEntry{Line: 3, Start: at("- [db] Use Postgres for the main database."), Similarity: 0.5, Note: `sibling: "main" vs "analytics"`, Content: "Use Postgres for the main database."},
			SimilarEntry{Line: 5, Start: dup.Start, Similarity: 0.5, Note: `sibling: "main" vs "analytics"`, Content: dup.Content},
			SimilarEntry{Line: 6, Start: reversal.Start, Similarity: 0.5, Content: reversal.Content})},
		{"nothing alike", 4, 3, described("")},
		{"no content, nothing to compare", 5, 3, described("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeEntry(&f, tt.entry, config.Default(), tt.max); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
