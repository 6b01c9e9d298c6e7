package memory

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

func decisions(src string) []rules.File {
	return []rules.File{{Path: ".memory/decisions.md", Name: "decisions.md", Category: category.Decision, IsCategory: true, Doc: memfile.Parse([]byte(src))}}
}

func TestPlanCleanup(t *testing.T) {
	tests := []struct {
		name      string
		cfg       config.Config
		accept    []string
		src       string
		want      string   // file after the plan
		wantSteps []string // substrings, one per step, in order
		wantPairs []string // "kind earlier-later keep", in order
	}{
		{
			name: "a duplicate merge keeps the fullest original wording verbatim, under the earliest slug",
			src:  "# Decisions\n\n- [cache-ttl] Cache payment responses.\n- Cache the payment responses!\n- Cache payment responses\n",
			want: "# Decisions\n\n- [cache-ttl] Cache the payment responses!\n",
			wantSteps: []string{
				`merge decisions.md:4 kept line 4 "Cache the payment responses!", the most complete wording, under the earliest slug [cache-ttl]; removed line 3 "Cache payment responses." (duplicate), line 5 "Cache payment responses" (duplicate)`,
			},
		},
		{
			name: "a paraphrase at the skip threshold is a duplicate; other entries stay",
			src:  "# Decisions\n\n- [ttl] Rotate signing keys yearly\n- Deploy from main only\n- Always rotate the signing keys yearly.\n",
			want: "# Decisions\n\n- [deploy-main] Deploy from main only\n- [ttl] Always rotate the signing keys yearly.\n",
			wantSteps: []string{
				`merge decisions.md:5 kept line 5 "Always rotate the signing keys yearly.", the most complete wording, under the earliest slug [ttl]; removed line 3 "Rotate signing keys yearly" (duplicate)`,
			},
		},
		{
			name:      "qualified rules are a pair to decide, not a merge",
			src:       "# Decisions\n\n- Cache payment responses\n- Cache payment responses for five minutes\n",
			want:      "# Decisions\n\n- [cache-payment-responses] Cache payment responses\n- [payment-responses-minutes] Cache payment responses for five minutes\n",
			wantPairs: []string{"qualification 3-4 later"},
		},
		{
			name:   "an accepted kind applies its suggested choice; the kept entry takes the slug",
			accept: []string{SuggestReversal},
			src:    "# Decisions\n\n- [seeds] Always run database seeds in CI\n- Never run database seeds in CI\n",
			want:   "# Decisions\n\n- [seeds] Never run database seeds in CI\n",
			wantSteps: []string{
				`resolve decisions.md:4 reversal: kept line 4 "Never run database seeds in CI"; removed line 3 "Always run database seeds in CI"`,
			},
			wantPairs: []string{"reversal 3-4 later applied"},
		},
		{
			name:      "a rule and its reversal are never merged without the choice",
			src:       "# Decisions\n\n- [a] Always run database seeds in CI\n- [b] Never run database seeds in CI\n",
			want:      "# Decisions\n\n- [a] Always run database seeds in CI\n- [b] Never run database seeds in CI\n",
			wantPairs: []string{"reversal 3-4 later"},
		},
		{
			name:      "siblings stay, even when every kind is accepted",
			accept:    SuggestionKinds,
			src:       "# Decisions\n\n- [a] Snapshot tests break on Windows\n- [b] Snapshot tests break on macOS\n",
			want:      "# Decisions\n\n- [a] Snapshot tests break on Windows\n- [b] Snapshot tests break on macOS\n",
			wantPairs: []string{"sibling 3-4 both"},
		},
		{
			name: "prune drops the lowest scores, later lines first on ties, naming each score",
			cfg:  limited(category.Decision, 2),
			src:  "# Decisions\n\n- [x] Use `make` in /scripts\n- [y] Ship releases on Tuesdays\n- [z] Review every pull request\n",
			want: "# Decisions\n\n- [x] Use `make` in /scripts\n- [y] Ship releases on Tuesdays\n",
			wantSteps: []string{
				`prune decisions.md:5 score 30, lowest of [Decision] over its limit of 2: removed "Review every pull request"`,
			},
		},
		{
			name: "slugs are assigned, unique in the file",
			src:  "# Decisions\n\n- [ship-releases-tuesdays] Rotate signing keys yearly\n- Ship releases on Tuesdays\n- Review every pull request\n",
			want: "# Decisions\n\n- [ship-releases-tuesdays] Rotate signing keys yearly\n- [ship-releases-tuesdays-2] Ship releases on Tuesdays\n- [review-pull-request] Review every pull request\n",
			wantSteps: []string{
				`assign-slug decisions.md:4 assigned slug "ship-releases-tuesdays-2" to "Ship releases on Tuesdays"`,
			},
		},
		{
			name: "an exact duplicate later in the file gives its slug to the kept line",
			src:  "# Decisions\n\n- Rotate signing keys yearly\n- [signing-keys] Rotate signing keys yearly\n",
			want: "# Decisions\n\n- [signing-keys] Rotate signing keys yearly\n",
			wantSteps: []string{
				`merge decisions.md:3 kept line 3 "Rotate signing keys yearly", the most complete wording, under the earliest slug [signing-keys]; removed line 4`,
			},
		},
		{
			name: "normalise applies the safe fixes and fixes bullets",
			src:  "# Decisions\n\n* [a] Use Postgres\n- [b]Use Redis for sessions\n-   \n",
			want: "# Decisions\n\n- [a] Use Postgres\n- [b] Use Redis for sessions\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			if cfg.SkipThreshold == 0 {
				cfg = config.Default()
			}
			files := decisions(tt.src)
			opts := CleanupOptions{Accept: map[string]bool{}}
			for _, k := range tt.accept {
				opts.Accept[k] = true
			}
			p := PlanCleanup(files, cfg, opts)
			got := tt.src
			if after, ok := p.After[0]; ok {
				got = string(after)
			}
			if got != tt.want {
				t.Errorf("file after:\n%s\nwant:\n%s\nsteps: %+v", got, tt.want, p.Steps)
			}
			var steps []string
			for _, s := range p.Steps {
				steps = append(steps, s.Kind+" "+s.File+":"+strconv.Itoa(s.Line)+" "+s.Detail)
			}
			for _, want := range tt.wantSteps {
				found := false
				for _, s := range steps {
					found = found || strings.Contains(s, want)
				}
				if !found {
					t.Errorf("no step %q in\n%s", want, strings.Join(steps, "\n"))
				}
			}
			var pairs []string
			for _, s := range p.Suggestions {
				pr := fmt.Sprintf("%s %d-%d %s", s.Kind, s.Earlier.Line, s.Later.Line, s.Keep)
				if s.Applied {
					pr += " applied"
				}
				pairs = append(pairs, pr)
			}
			if strings.Join(pairs, "\n") != strings.Join(tt.wantPairs, "\n") {
				t.Errorf("pairs:\n%s\nwant:\n%s", strings.Join(pairs, "\n"), strings.Join(tt.wantPairs, "\n"))
			}
			if string(files[0].Doc.Src) != tt.src {
				t.Error("PlanCleanup changed its input")
			}
		})
	}
}
