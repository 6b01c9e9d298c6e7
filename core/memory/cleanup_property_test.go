package memory

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// cleanupPool is text built to hit every kind of pair: duplicates in other
// case and punctuation, siblings, reversals (sign, order, extra words),
// qualifications, changed values and unrelated facts.
var cleanupPool = []string{
	"Run tests with -race.", "run tests with -race", "Run tests with -race on CI.",
	"Never run tests with -race on CI; it is too slow.", "Always run tests with -race",
	"Use chi for HTTP routing.", "Prefer gorilla/mux over chi for HTTP routing.",
	"Use mocks instead of real services in tests.", "Use real services instead of mocks in tests.",
	"Snapshot tests break on Windows.", "Snapshot tests break on macOS.",
	"Run eslint on frontend changes.", "Run eslint on backend changes.",
	"Pin Terraform to 1.5.7", "Pin Terraform to 1.9.0", "Use Postgres 16 for the ledger.", "Use Postgres 17 for the ledger.",
	"Cache payment responses", "Cache payment responses for five minutes", "Cache the payment responses!",
	"Toujours valider les entrées utilisateur", "Toujours valider les entrées du formulaire",
	"Используйте pnpm, а не npm", "Используйте npm, а не pnpm", "在前端改动后运行 eslint", "在后端改动后运行 eslint",
	"Deploy only from the main branch", "Rotate signing keys yearly", "Keep functions short.",
}

// TestCleanupWritesOnlyInputLines: whatever the mix and whichever kinds are
// accepted, every entry a cleanup leaves holds the text of an input entry,
// and every entry it drops is named by a step.
func TestCleanupWritesOnlyInputLines(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	kinds := append([]string{""}, SuggestionKinds...)
	for iter := range 400 {
		var b strings.Builder
		b.WriteString("# Decisions\n\n")
		n := 2 + r.IntN(14)
		inputs := map[string]bool{}
		for k := range n {
			c := cleanupPool[r.IntN(len(cleanupPool))]
			inputs[c] = true
			if r.IntN(3) == 0 {
				fmt.Fprintf(&b, "- [s%d] %s\n", k%5, c)
			} else {
				fmt.Fprintf(&b, "- %s\n", c)
			}
		}
		cfg := config.Default()
		if r.IntN(4) == 0 {
			cfg.Limits[category.Decision] = 1 + r.IntN(n)
		}
		opts := CleanupOptions{Accept: map[string]bool{}}
		for range r.IntN(3) {
			if k := kinds[r.IntN(len(kinds))]; k != "" {
				opts.Accept[k] = true
			}
		}
		src := b.String()
		files := decisions(src)
		p := PlanCleanup(files, cfg, opts)
		after := src
		if a, ok := p.After[0]; ok {
			after = string(a)
		}
		d := memfile.Parse([]byte(after))
		for _, e := range d.Entries {
			if !inputs[e.Content] {
				t.Fatalf("#%d: cleanup wrote %q, which no input entry held\ninput:\n%s\noutput:\n%s", iter, e.Content, src, after)
			}
		}
		removed := 0
		for _, s := range p.Steps {
			switch s.Kind {
			case StepMerge:
				removed += strings.Count(s.Detail, "(duplicate")
			case StepPrune, StepResolve:
				removed++
			}
		}
		if got := len(files[0].Doc.Entries) - len(d.Entries); got != removed {
			t.Fatalf("#%d: %d entries gone, %d named by steps\ninput:\n%s\noutput:\n%s\nsteps: %+v", iter, got, removed, src, after, p.Steps)
		}
	}
}
