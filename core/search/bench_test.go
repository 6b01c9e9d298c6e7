package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// realWords seed the vocabulary with the kind of words memory entries use.
var realWords = strings.Fields(`
api cache caching cached redis postgres database migration schema index query queries
build builds building test tests testing deploy deployment deployed release version
config configuration env environment secret secrets token tokens key keys auth login
session sessions user users admin role roles permission permissions error errors retry
timeout timeouts log logs logging metric metrics trace tracing alert alerts monitor
docker kubernetes helm terraform aws gcp azure lambda queue queues worker workers job
jobs cron schedule scheduler service services endpoint endpoints request requests
response responses json yaml openapi graphql grpc rest http https tls certificate
branch branches commit commits merge rebase pull push tag tags ci pipeline workflow
lint linter format formatting prettier eslint gofmt vet typescript javascript python
golang rust java kotlin swift react vue svelte node npm pnpm yarn webpack vite bundle
component components hook hooks state store reducer props style styles css tailwind
tabs spaces indent naming camelcase snake_case kebab-case file files folder folders
path paths import imports export exports module modules package packages dependency
dependencies upgrade downgrade pin pinned lock lockfile vendor monorepo workspace
never always prefer avoid use using must not no only before after instead because
fast slow slowly quickly flaky stable unstable broken fixed fix fixes bug bugs issue
issues ticket tickets review reviews reviewer approve approved reject rate limit
limits throttle backoff jitter idempotent transaction transactions rollback commit
encrypt encryption hash hashing salt password passwords sanitize escape injection
xss csrf cors header headers cookie cookies storage bucket s3 cdn upload download
image images video thumbnail resize compress gzip brotli cache-control etag stale
`)

var stopFill = strings.Fields("the a an of to in for on and or is are be it this that with we our you should when which")

// benchVocab is a deterministic vocabulary of size n: the real words plus
// pronounceable made-up words, shuffled so real words get random ranks.
func benchVocab(n int, r *rand.Rand) []string {
	vocab := append([]string(nil), realWords...)
	seen := make(map[string]bool, n)
	for _, w := range vocab {
		seen[w] = true
	}
	cons := "bcdfghjklmnprstvwz"
	vow := "aeiou"
	for len(vocab) < n {
		var sb strings.Builder
		for range 2 + r.IntN(3) {
			sb.WriteByte(cons[r.IntN(len(cons))])
			sb.WriteByte(vow[r.IntN(len(vow))])
		}
		if r.IntN(3) == 0 {
			sb.WriteByte(cons[r.IntN(len(cons))])
		}
		if w := sb.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	r.Shuffle(len(vocab), func(i, j int) { vocab[i], vocab[j] = vocab[j], vocab[i] })
	return vocab
}

// benchDocs generates n entries of 8–20 words drawn from a Zipf distribution
// over a 4,000-word vocabulary, with stop words, some slugs and some
// capitalised, versioned or punctuated words.
func benchDocs(n int, seed uint64) []Doc {
	r := rand.New(rand.NewPCG(seed, 42))
	vocab := benchVocab(4000, r)
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	docs := make([]Doc, n)
	var sb strings.Builder
	for i := range docs {
		sb.Reset()
		words := 8 + r.IntN(13)
		for j := range words {
			if j > 0 {
				sb.WriteByte(' ')
			}
			switch x := r.IntN(100); {
			case x < 22:
				sb.WriteString(stopFill[r.IntN(len(stopFill))])
			case x < 24:
				sb.WriteString("v1.")
				sb.WriteByte(byte('0' + r.IntN(10)))
			default:
				w := vocab[zipf.Uint64()]
				if j == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				sb.WriteString(w)
			}
		}
		sb.WriteByte('.')
		d := Doc{Category: category.All[i%len(category.All)], Content: sb.String()}
		if r.IntN(3) == 0 {
			d.Slug = vocab[zipf.Uint64()] + "-" + vocab[zipf.Uint64()]
		}
		docs[i] = d
	}
	return docs
}

var benchQueries = []string{
	"how do we cache api responses?",
	"database migration",
	"never commit secrets",
	"flaky tests on ci",
	"redis",
	"which linter should we use for typescript",
	"rate limit backoff jitter",
	"kebab-case file naming",
	"deploy",
	"what is the retry timeout for workers",
	"use",
	"prefer tabs over spaces",
	"v1.3",
	"encrypt passwords with salt",
	"docker image thumbnail resize compress",
	"session cookie csrf header",
}

var (
	bench100k    []Doc
	bench100kIdx *Index
)

func setup100k(b *testing.B) {
	if bench100k == nil {
		bench100k = benchDocs(100_000, 1)
	}
}

func BenchmarkBuild100k(b *testing.B) {
	setup100k(b)
	b.ResetTimer()
	for b.Loop() {
		bench100kIdx = Build(bench100k)
	}
}

func BenchmarkSearch100k(b *testing.B) {
	setup100k(b)
	if bench100kIdx == nil {
		bench100kIdx = Build(bench100k)
	}
	ix := bench100kIdx
	for _, bc := range []struct {
		name string
		opt  Options
	}{
		{"limit10", Options{Limit: 10}},
		{"nolimit", Options{}},
		{"category", Options{Limit: 10, Category: ptr(category.Decision)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				ix.Search(benchQueries[i%len(benchQueries)], bc.opt)
				i++
			}
		})
	}
}

// BenchmarkSearch100kWorst is the query that touches the most docs.
func BenchmarkSearch100kWorst(b *testing.B) {
	setup100k(b)
	if bench100kIdx == nil {
		bench100kIdx = Build(bench100k)
	}
	ix := bench100kIdx
	// The most frequent vocabulary terms.
	type tf struct {
		w  string
		df int
	}
	var top []tf
	for _, w := range ix.segs[0].terms {
		top = append(top, tf{w, ix.df(w)})
	}
	q := ""
	for range 6 {
		best := -1
		for i, t := range top {
			if best < 0 || t.df > top[best].df || (t.df == top[best].df && t.w < top[best].w) {
				best = i
			}
		}
		q += top[best].w + " "
		top = append(top[:best], top[best+1:]...)
	}
	b.Logf("worst query %q, %d hits", q, len(ix.Search(q, Options{})))
	for b.Loop() {
		ix.Search(q, Options{Limit: 10})
	}
}
