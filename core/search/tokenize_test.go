package search

import (
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ...  ???  ---", nil},
		{"the a of to is it", nil},
		{"Cache API responses", []string{"cach", "api", "respons"}},
		{"HELLO World", []string{"hello", "world"}},
		// Compounds: parts plus the joined word.
		{"auto-scaling", []string{"auto", "scale", "autoscal"}},
		{"openapi.yaml", []string{"openapi", "yaml", "openapiyaml"}},
		{"snake_case", []string{"snake", "case", "snakecas"}},
		{"src/core/search", []string{"src", "core", "search", "srccoresearch"}},
		{"state-of-the-art", []string{"state", "art", "stateoftheart"}},
		{"a--b", []string{"b"}},
		{"end-", []string{"end"}},
		// Versions: '.' between digits stays.
		{"Go 1.8.", []string{"go", "1.8"}},
		{"v1.8.2 vs 18", []string{"v1.8.2", "vs", "18"}},
		{"1.21 and 12.1", []string{"1.21", "12.1"}},
		// Apostrophes and symbols.
		{"don't", []string{"dont"}},
		{"don’t", []string{"dont"}},
		{"the user's cache", []string{"user", "cach"}},
		{"C++ and C# not C", []string{"c++", "c#", "not", "c"}},
		{"issue #42", []string{"issu", "42"}},
		// Negations are not stop words.
		{"never no not", []string{"never", "no", "not"}},
		// Unicode.
		{"Ｈｅｌｌｏ　ＷＯＲＬＤ", []string{"hello", "world"}},
		{"Café naïve МОСКВА", []string{"café", "naïve", "москва"}},
		{"更新变更日志", []string{"更新", "新变", "变更", "更日", "日志"}},
		{"日志", []string{"日志"}},
		{"日", []string{"日"}},
		{"API更新の説明", []string{"api", "更新", "新の", "の説", "説明"}},
		{"データベース", []string{"デー", "ータ", "タベ", "ベー", "ース"}},
		{"한국어 문서", []string{"한국", "국어", "문서"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokensInvalidUTF8(t *testing.T) {
	// Must not panic; bad bytes are separators.
	got := Tokens("ab\xffcd \xe4\xb8")
	if !slices.Equal(got, []string{"ab", "cd"}) {
		t.Errorf("got %q", got)
	}
}

// FuzzTokens: never panics, never yields empty terms, is deterministic, and
// every term of a text finds that text.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{"auto-scaling 1.8", "don't C++ c#", "更新变更日志", "a'", "x.1.", "é\u0301-x", "\xff'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokens(s)
		if !slices.Equal(toks, Tokens(s)) {
			t.Fatalf("not deterministic for %q", s)
		}
		for _, w := range toks {
			if w == "" {
				t.Fatalf("empty term in %q", toks)
			}
		}
		if len(toks) == 0 {
			return
		}
		ix := Build([]Doc{{Content: s}})
		if hits := ix.Search(s, Options{}); len(hits) != 1 {
			t.Fatalf("text %q does not find itself: %v", s, hits)
		}
	})
}
