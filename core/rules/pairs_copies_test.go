package rules

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// cliquePairs is every related pair of each category file, every pair of
// exact duplicates included: what the pair rules read before similar.Pairs
// reduced the exact pairs to those with the earliest entry of their class.
// A file too dense for every pair (similar.PairSet.Dense) has its windows'
// pairs, which similar's tests hold to their definition.
func cliquePairs(files []File, cfg config.Config) ([]entryRef, []*similar.Text, []similar.Pair) {
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	var refs []entryRef
	var all []*similar.Text
	var pairs []similar.Pair
	for fi := range files {
		f := &files[fi]
		if !f.IsCategory || !f.parsed() {
			continue
		}
		off := len(refs)
		var texts []*similar.Text
		for i := range f.Doc.Entries {
			if c := f.Doc.Entries[i].Content; c != "" {
				refs = append(refs, entryRef{fi, i})
				texts = append(texts, similar.Analyze(c))
			}
		}
		all = append(all, texts...)
		if ps := similar.GroupPairs(texts, th); ps.Dense {
			for _, p := range ps.Pairs {
				pairs = append(pairs, similar.Pair{I: off + p.I, J: off + p.J, Verdict: p.Verdict})
			}
			continue
		}
		for i := range texts {
			for j := i + 1; j < len(texts); j++ {
				if v := similar.Classify(texts[i], texts[j], th); v.Related() {
					pairs = append(pairs, similar.Pair{I: off + i, J: off + j, Verdict: v})
				}
			}
		}
	}
	return refs, all, pairs
}

// TestPairRulesOnCopies: on files full of copied, respelled, reversed and
// re-slugged entries, the duplicate, near-duplicate and conflict findings
// (the merge-conflict versions of a slug included) are what the rules make of
// every pair, and a warm Checker editing such files agrees.
func TestPairRulesOnCopies(t *testing.T) {
	longtest.Skip(t)
	lines := []string{"Run the tests with -race", "run the tests with -race.", "RUN THE TESTS WITH -RACE!", "Never run the tests with -race",
		"Pin Go to 1.26 on the runner", "pin go to 1.26 on the runner", "Pin Go to 1.25 on the runner", "entry", "Entry", "Do it", "Don't do it",
		"Use YAML for the deploy config", "Use JSON for the deploy config", "Run the tests with -race on CI"}
	slugs := []string{"", "", "race", "race", "go", "entry", "s"}
	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 17))
		c := &Checker{}
		var entries [2][]string
		for step := range 25 {
			for f := range entries {
				for range 1 + r.IntN(30) {
					line := lines[r.IntN(len(lines))]
					if s := slugs[r.IntN(len(slugs))]; s != "" {
						line = "[" + s + "] " + line
					}
					k := r.IntN(len(entries[f]) + 1)
					entries[f] = append(entries[f][:k], append([]string{"- " + line}, entries[f][k:]...)...)
				}
				for len(entries[f]) > 0 && r.IntN(3) == 0 {
					k := r.IntN(len(entries[f]))
					entries[f] = append(entries[f][:k], entries[f][k+1:]...)
				}
			}
			files := []File{
				newFile(".memory/decisions.md", []byte("# Decisions\n\n"+strings.Join(entries[0], "\n")+"\n")),
				newFile(".memory/quirks.md", []byte("# Quirks\n\n"+strings.Join(entries[1], "\n")+"\n")),
			}
			cfg := config.Default()
			got := Check(files, cfg)
			w := &workspace{files: files, cfg: cfg, idx: newFileViews(len(files))}
			w.refs, w.texts, w.pairs = cliquePairs(files, cfg)
			var want []Finding
			for i := range registry {
				if r := &registry[i]; r.Pairs {
					w.rule, w.out = r, nil
					r.check(w)
					want = append(want, w.out...)
				}
			}
			var pairFindings []Finding
			for _, f := range got {
				if registryOf(f.Code).Pairs {
					pairFindings = append(pairFindings, f)
				}
			}
			slices.SortStableFunc(want, func(a, b Finding) int {
				return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Span.Start, b.Span.Start), strings.Compare(a.Code, b.Code))
			})
			if !reflect.DeepEqual(pairFindings, want) {
				t.Fatalf("seed %d step %d: %d pair findings, from every pair %d\n%s\n---\n%s", seed, step, len(pairFindings), len(want),
					render(files, pairFindings, nil), render(files, want, nil))
			}
			if warm := c.Check(files, cfg); !reflect.DeepEqual(warm, got) {
				t.Fatalf("seed %d step %d: the warm Checker found %d, Check %d", seed, step, len(warm), len(got))
			}
		}
	}
}

func registryOf(code string) *rule {
	for i := range registry {
		if registry[i].Code == code {
			return &registry[i]
		}
	}
	panic(fmt.Sprintf("no rule %q", code))
}

// TestPairFixesAreLight: the choices on a pair of entries hold no edits
// until asked for (a file of thousands of near-duplicates offers three on
// each), and the edits they then make apply to the files checked, keep this
// entry's text in the earlier one's place or drop this line.
func TestPairFixesAreLight(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "- [e%d] Keep the deploy of service%d behind the release flag until QA signs off\n", i, i/2)
	}
	files := []File{newFile(".memory/decisions.md", []byte(b.String()))}
	choices := 0
	for _, f := range Check(files, config.Default()) {
		for _, fx := range f.Fixes {
			if fx.Title != FixKeepThis && fx.Title != FixKeepOther {
				continue
			}
			choices++
			if fx.Edits != nil {
				t.Fatalf("%s: %q holds its edits before they are asked for", f.Message, fx.Title)
			}
			edits := f.EditsOf(&fx, files)
			var es []text.Edit
			for _, e := range edits {
				es = append(es, e.Edit)
			}
			after, err := text.Apply(files[0].Doc.Src, es)
			if err != nil || len(after) >= len(files[0].Doc.Src) {
				t.Fatalf("%s: %q: %v, %d bytes from %d", f.Message, fx.Title, err, len(after), len(files[0].Doc.Src))
			}
		}
	}
	if choices < 1000 {
		t.Errorf("%d choices on pairs: the file is too tame", choices)
	}
}
