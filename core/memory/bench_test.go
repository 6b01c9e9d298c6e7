package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// benchWords is a vocabulary shaped like real memory entries: verbs, nouns of
// a code base, tools and a few values.
var benchWords = strings.Fields(`run use keep add avoid prefer deploy build test cache store read write
	migrate lint format pin bump rotate encrypt log trace page retry queue worker service handler
	endpoint client server database table index schema migration ledger invoice payment session
	token secret config flag feature branch release tag commit review docker helm chart cluster node
	pod redis postgres kafka nginx grpc http json yaml proto api sdk cli ui css react router store
	timeout limit region port version latency memory cpu disk bucket backup restore snapshot replica
	primary shard tenant account user admin role policy audit metric alert dashboard trace span`)

// benchEntry makes a deterministic entry of 8 to 16 words, with a number in
// one of three.
func benchEntry(r *rand.Rand) string {
	n := 8 + r.IntN(9)
	w := make([]string, n)
	for i := range w {
		w[i] = benchWords[r.IntN(len(benchWords))]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	if r.IntN(3) == 0 {
		w[n-1] = fmt.Sprint(r.IntN(1000))
	}
	return strings.Join(w, " ") + "."
}

// benchFile renders a category file of n slugged entries.
func benchFile(cat category.Category, n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("# " + cat.Plural() + "\n\n")
	for i := range n {
		fmt.Fprintf(&b, "- [entry-%d] %s\n", i, benchEntry(r))
	}
	return []byte(b.String())
}

func benchConfig(n int) config.Config {
	cfg := config.Default()
	for _, c := range category.All {
		cfg.Limits[c] = max(cfg.Limits[c], n+1)
	}
	return cfg
}

// BenchmarkPlanStore is the store decision alone: parse the category file,
// dedup against every entry, render the new bytes.
func BenchmarkPlanStore(b *testing.B) {
	for _, n := range []int{40, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			cur := benchFile(category.Decision, n, 7)
			cfg := benchConfig(n)
			s := Store{Category: category.Decision, Content: "Route invoice webhooks through the payments gateway in eu-west-1."}
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := PlanStore(cur, s, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchDecisionsDir is a new workspace with an empty .memory folder, and
// the path its decisions.md would have.
func benchDecisionsDir(b *testing.B) (root, path string) {
	root = b.TempDir()
	dir := filepath.Join(root, ".memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	return root, filepath.Join(dir, "decisions.md")
}

// BenchmarkStore is a whole store on disk: lock, read, decide, write a temp
// file, fsync, rename, fsync the folder, unlock. Each iteration stores a new
// distinct entry and the file is reset every 32 so its size stays near n.
func BenchmarkStore(b *testing.B) {
	for _, n := range []int{40, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root, path := benchDecisionsDir(b)
			base := benchFile(category.Decision, n, 7)
			svc := newService(root)
			svc.Cfg = benchConfig(n + 64)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if i%32 == 0 {
					b.StopTimer()
					if err := os.WriteFile(path, base, 0o644); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				i++
				req := StoreRequest{Category: "Decision", Content: fmt.Sprintf("Shard%d tenant%d archives go to cold storage.", i, i)}
				res, err := svc.Store(context.Background(), req, false)
				if err != nil || res.Action != ActionStored {
					b.Fatalf("%+v %v", res, err)
				}
			}
		})
	}
}

// BenchmarkWarmStore is BenchmarkStore in a long-lived process's Service
// (a Warm that served a query first, as the MCP server's), with what its
// Warm does in the background after each store: for CPU profiles of a warm
// store (issue 16). The file grows by one entry per store.
func BenchmarkWarmStore(b *testing.B) {
	for _, n := range []int{40, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root, path := benchDecisionsDir(b)
			if err := os.WriteFile(path, benchFile(category.Decision, n, 7), 0o644); err != nil {
				b.Fatal(err)
			}
			svc := newService(root)
			svc.Cfg = benchConfig(n + 100000)
			svc.Warm = &Warm{}
			if _, err := svc.Query(QueryRequest{Query: "cache"}); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				req := StoreRequest{Category: "Decision", Content: fmt.Sprintf("Shard%d tenant%d archives go to cold storage.", i, i)}
				if _, err := svc.Store(context.Background(), req, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkQuery100k searches 100,000 entries once the catalog is built.
func BenchmarkQuery100k(b *testing.B) {
	var files []rules.File
	for i, c := range category.All {
		data := benchFile(c, 20000, uint64(i))
		files = append(files, rules.File{Path: c.File(), Name: c.File(), Category: c, IsCategory: true, Doc: memfile.Parse(data)})
	}
	cat := NewCatalog(files)
	if cat.Len() != 100000 {
		b.Fatalf("%d entries", cat.Len())
	}
	for _, q := range []string{"postgres replica timeout", "how do we rotate the session token secret"} {
		b.Run(strings.ReplaceAll(q, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := cat.Query(QueryRequest{Query: q})
				if err != nil || len(res.Results) == 0 {
					b.Fatalf("%v %d", err, len(res.Results))
				}
			}
		})
	}
}
