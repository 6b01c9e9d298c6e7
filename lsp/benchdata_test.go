package lsp

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Exported from a test file so that the benchmarks of package lsp_test
// (bench_test.go) and of package lsp (publish_bench_test.go) measure the
// same workload.

// BenchDecisions is a decisions.md of n entries: sentences from a small
// vocabulary with made-up component names, so that entries share words the
// way real notes do (and a few are near-duplicates), two in three slugged.
func BenchDecisions(n int) string {
	subjects := []string{"the API", "the web app", "the worker", "the CLI", "the importer", "the billing job", "the search index", "the cache", "the auth service", "the scheduler"}
	verbs := []string{"Deploy", "Restart", "Test", "Profile", "Pin", "Document", "Lint", "Benchmark", "Monitor", "Rebuild"}
	tails := []string{"before the release branch is cut", "with the staging config", "after every schema migration", "using make check", "on the shared runner", "only from the main branch", "when the queue is drained", "behind the feature flag", "during the weekly window"}
	syl := []string{"ka", "lo", "mi", "ren", "tos", "vel", "dra", "quin", "sar", "bex", "nor", "pim", "ul", "zet", "gor"}
	r := rand.New(rand.NewPCG(7, uint64(n)))
	name := func() string { return syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))] }
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range n {
		s := fmt.Sprintf("%s %s for %s and %s %s, ticket DEC-%d.", verbs[r.IntN(len(verbs))], subjects[r.IntN(len(subjects))], name(), name(), tails[r.IntN(len(tails))], i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "- %s\n", s)
		} else {
			fmt.Fprintf(&b, "- [decision-%d] %s\n", i, s)
		}
	}
	return b.String()
}
