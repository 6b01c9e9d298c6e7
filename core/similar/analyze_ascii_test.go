package similar

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// TestAnalyzeASCIIMatchesGeneral holds the one-pass ASCII analysis to the
// general path on texts built from the characters each rule looks at.
func TestAnalyzeASCIIMatchesGeneral(t *testing.T) {
	pieces := []string{"Don't", "never", "NOT", "over", "rather", "than", "instead", "of", "YAML", "Postgres",
		"v1.2", "(V2),", "1,000", "eu-west-1", "a", "-", "--x", "x86_64", "<", "<=", "<5", ">", "->", "=>",
		"Vec<u8>", "depth", "x<5", ".", "!", "?", ":", "Use", "the", "cache", "on-call", "\t", "\r", "\v",
		"1.8", "1..2", "but", "ABC", "Ab", "caching-layer-for-the-win-forever", "\x00", "\x7f", "#", "`go`"}
	seps := []string{" ", "", "  ", ". ", ", ", "\n", "-"}
	check := func(s string) {
		t.Helper()
		got, ok := analyzeASCII(s)
		if !ok {
			t.Fatalf("analyzeASCII(%q) refused ASCII text", s)
		}
		want := analyzeGeneral(s)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("analyzeASCII(%q) =\n%+v\nwant\n%+v", s, got, want)
		}
		// Pairs reads a shared backing array as "Core is Keys"
		if sameSlice(got.Core(), got.Keys()) != sameSlice(want.Core(), want.Keys()) {
			t.Errorf("analyzeASCII(%q): Core shares Keys differently", s)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(14) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		check(b.String())
	}
	g := newEntryGen(7, 500)
	for range 5000 {
		if s := g.next(); text.IsASCII(s) {
			check(s)
		}
	}
	for _, s := range []string{"", " ", "...", "!!!", strings.Repeat("word ", 200), strings.Repeat("ab", 300)} {
		check(s)
	}
	if _, ok := analyzeASCII("café"); ok {
		t.Error("analyzeASCII accepted non-ASCII text")
	}
}
