package search

import (
	"slices"
	"sync"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

func ids(hits []Hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func contents(cs ...string) []Doc {
	docs := make([]Doc, len(cs))
	for i, c := range cs {
		docs[i] = Doc{Category: category.Decision, Content: c}
	}
	return docs
}

// TestSearchMatches checks which docs match at all (order-insensitive).
func TestSearchMatches(t *testing.T) {
	tests := []struct {
		name  string
		docs  []string
		query string
		want  []int // sorted doc ids expected in the result
	}{
		{"no substring: use ⊄ because", []string{"because we cache", "use Redis"}, "use", []int{1}},
		{"no substring: cat ⊄ category", []string{"category names are fixed", "the cat sat"}, "cat", []int{1}},
		{"stem: caching → cache", []string{"Cache API responses", "log everything"}, "caching", []int{0}},
		{"stem: builds → build", []string{"Run the build before pushing", "deploy on Fridays"}, "builds", []int{0}},
		{"stem: all cache forms, and by prefix cachet", []string{"cache", "caches", "cached", "caching", "cachet"}, "cache", []int{0, 1, 2, 3, 4}},
		{"prefix: postgres finds PostgreSQL", []string{"Use PostgreSQL for the ledger", "Use MySQL"}, "postgres", []int{0}},
		{"prefix: kube finds Kubernetes", []string{"Deploy to Kubernetes", "Deploy to Nomad"}, "kube", []int{0}},
		{"prefix: a compound part", []string{"pin the gradle-wrapper version", "pin nothing"}, "wrap", []int{0}},
		{"no prefix under four letters: use ⊄ user", []string{"the user table", "use Redis", "because we cache"}, "use", []int{1}},
		{"no prefix match backwards: postgresql ⊄ postgres", []string{"use postgres"}, "postgresql", nil},
		{"cjk bigram", []string{"更新变更日志", "更新文档"}, "日志", []int{0}},
		{"cjk multi-bigram query", []string{"请更新变更日志", "日常"}, "变更日志", []int{0}},
		{"version 1.8 ≠ 18", []string{"requires Go 18", "requires Go 1.8.", "use 1.80"}, "1.8", []int{1}},
		{"version 18 ≠ 1.8", []string{"requires Go 18", "requires Go 1.8"}, "18", []int{0}},
		{"compound joined query", []string{"enable auto-scaling on prod", "auto deploy; scaling later"}, "autoscaling", []int{0}},
		{"compound part query", []string{"enable auto-scaling on prod", "manual only"}, "scaling", []int{0}},
		{"file name", []string{"edit openapi.yaml first", "yaml is fine"}, "openapi", []int{0}},
		{"negation kept", []string{"never push to main", "push to main"}, "never", []int{0}},
		{"question words dropped", []string{"how we deploy", "cache results"}, "how do we cache?", []int{1}},
		{"empty query", []string{"anything"}, "", nil},
		{"punctuation query", []string{"anything ..."}, "...", nil},
		{"stop words only", []string{"the thing is it", "a b c"}, "what is the", nil},
		{"unknown term", []string{"anything"}, "zebra", nil},
		{"case-insensitive", []string{"Use PostgreSQL"}, "POSTGRESQL", []int{0}},
		{"C++ is not C", []string{"write it in C++", "write it in C"}, "c++", []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ids(Build(contents(tt.docs...)).Search(tt.query, Options{}))
			slices.Sort(got)
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("Search(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}

// TestSearchRanking checks the order of results.
func TestSearchRanking(t *testing.T) {
	tests := []struct {
		name  string
		docs  []Doc
		query string
		opt   Options
		want  []int // exact ID order
	}{
		{
			name: "rare term beats common term",
			docs: contents(
				"cache the config files",
				"cache the build outputs",
				"cache npm downloads",
				"redis holds sessions",
			),
			query: "redis cache",
			want:  []int{3, 0, 1, 2},
		},
		{
			name:  "a whole-term match ranks above a prefix match",
			docs:  contents("awarded a cachet", "clear the cache"),
			query: "cache",
			want:  []int{1, 0},
		},
		{
			name:  "postgres: PostgreSQL by prefix, after Postgres itself",
			docs:  contents("Use PostgreSQL 16 for reports", "Use Postgres for the ledger", "Use MySQL for analytics"),
			query: "postgres",
			want:  []int{1, 0},
		},
		{
			name: "exact phrase beats scattered words",
			docs: contents(
				"limit for each api and every rate",
				"apply the api rate limit per user",
			),
			query: "API rate limit",
			want:  []int{1, 0},
		},
		{
			name: "phrase across a compound and stop words",
			docs: contents(
				"scaling is auto-managed, set a policy",
				"turn on auto-scaling policy for workers",
			),
			query: "auto scaling policy",
			want:  []int{1, 0},
		},
		{
			name: "slug term boosts",
			docs: []Doc{
				{Category: category.Decision, Content: "we picked postgres for storage"},
				{Category: category.Decision, Slug: "db-choice", Content: "we picked postgres for storage"},
			},
			query: "postgres db",
			want:  []int{1, 0},
		},
		{
			name: "slug alone matches",
			docs: []Doc{
				{Category: category.Quirk, Slug: "flaky-tests", Content: "retry twice on CI"},
				{Category: category.Quirk, Content: "nothing here"},
			},
			query: "flaky",
			want:  []int{0},
		},
		{
			name: "whole query equals slug",
			docs: []Doc{
				{Category: category.Decision, Slug: "cache-api", Content: "cache api responses for an hour"},
				{Category: category.Decision, Slug: "api", Content: "cache api responses for an hour"},
				{Category: category.Decision, Content: "cache api responses for an hour"},
			},
			query: "cache-api",
			want:  []int{0, 1, 2},
		},
		{
			name:  "ties stable by ID",
			docs:  contents("use tabs", "other", "use tabs", "use tabs"),
			query: "tabs",
			want:  []int{0, 2, 3},
		},
		{
			name: "category filter",
			docs: []Doc{
				{Category: category.Decision, Content: "use tabs"},
				{Category: category.Preference, Content: "use tabs"},
				{Category: category.Security, Content: "tabs are safe"},
				{Category: category.Preference, Content: "tabs please"},
			},
			query: "tabs",
			opt:   Options{Category: ptr(category.Preference)},
			want:  []int{1, 3},
		},
		{
			name:  "limit keeps the best",
			docs:  contents("tabs", "tabs tabs tabs", "spaces", "tabs tabs", "tabs"),
			query: "tabs",
			opt:   Options{Limit: 2},
			want:  []int{1, 3},
		},
		{
			name:  "limit with ties keeps lowest IDs",
			docs:  contents("x tabs", "x tabs", "x tabs", "x tabs"),
			query: "tabs",
			opt:   Options{Limit: 3},
			want:  []int{0, 1, 2},
		},
		{
			name:  "limit larger than hits",
			docs:  contents("tabs", "spaces"),
			query: "tabs",
			opt:   Options{Limit: 10},
			want:  []int{0},
		},
		{
			name:  "negative limit means no limit",
			docs:  contents("tabs", "tabs", "tabs"),
			query: "tabs",
			opt:   Options{Limit: -1},
			want:  []int{0, 1, 2},
		},
		{
			name: "shorter doc wins at equal tf",
			docs: contents(
				"prefer tabs over spaces in every file we own across all repositories",
				"prefer tabs",
			),
			query: "tabs",
			want:  []int{1, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := Build(tt.docs).Search(tt.query, tt.opt)
			if got := ids(hits); !slices.Equal(got, tt.want) {
				t.Errorf("Search(%q) = %v (%v), want %v", tt.query, got, hits, tt.want)
			}
			for i := 1; i < len(hits); i++ {
				if cmpHit(hits[i-1], hits[i]) >= 0 {
					t.Errorf("hits out of order at %d: %v", i, hits)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestSearchScores(t *testing.T) {
	ix := Build(contents("apply the api rate limit", "limit the rate of api calls"))
	hits := ix.Search("api rate limit", Options{})
	if len(hits) != 2 {
		t.Fatalf("hits = %v", hits)
	}
	// Both contain the same three terms once; the phrase doc gets exactly
	// PhraseBonus × 3 on top of its BM25 (doc lengths differ by one term,
	// so compare with the phrase bonus removed and a small tolerance).
	diff := hits[0].Score - hits[1].Score
	if hits[0].ID != 0 || diff < PhraseBonus*3-0.5 || diff > PhraseBonus*3+0.5 {
		t.Errorf("phrase bonus not applied as expected: %v", hits)
	}
	for _, h := range hits {
		if h.Score <= 0 {
			t.Errorf("non-positive score %v", h)
		}
	}
}

// TestLimitMatchesFullSort: the heap path returns the prefix of the full sort.
func TestLimitMatchesFullSort(t *testing.T) {
	docs := benchDocs(5000, 7)
	ix := Build(docs)
	for _, q := range benchQueries {
		all := ix.Search(q, Options{})
		for _, k := range []int{1, 3, 10, 20} {
			got := ix.Search(q, Options{Limit: k})
			want := all[:min(k, len(all))]
			if len(want) == 0 {
				want = nil
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%q limit %d: got %v, want %v", q, k, got, want)
			}
		}
	}
}

func TestEmptyIndex(t *testing.T) {
	if got := Build(nil).Search("anything", Options{}); got != nil {
		t.Errorf("got %v", got)
	}
	ix := Build(contents("", "..."))
	if got := ix.Search("anything", Options{}); got != nil {
		t.Errorf("got %v", got)
	}
	if ix.Len() != 2 {
		t.Errorf("Len = %d", ix.Len())
	}
}

// TestConcurrentSearch: an Index is shared by goroutines; no search may
// leak scores into another.
func TestConcurrentSearch(t *testing.T) {
	ix := Build(benchDocs(3000, 3))
	want := make([][]Hit, len(benchQueries))
	for i, q := range benchQueries {
		want[i] = ix.Search(q, Options{Limit: 20})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for r := range 50 {
				i := (g + r) % len(benchQueries)
				if got := ix.Search(benchQueries[i], Options{Limit: 20}); !slices.Equal(got, want[i]) {
					errs <- benchQueries[i]
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for q := range errs {
		t.Errorf("concurrent result differs for %q", q)
	}
}
