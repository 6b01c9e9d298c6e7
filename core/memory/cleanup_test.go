package memory

import (
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
		src       string
		want      string   // file after the plan
		wantSteps []string // substrings, one per step, in order
	}{
		{
			name: "merge keeps the survivor's slug and lists what it removed",
			src:  "# Decisions\n\n- [cache-ttl] Cache payment responses\n- Cache payment responses for five minutes\n",
			want: "# Decisions\n\n- [cache-ttl] Cache payment responses (also: five, minutes)\n",
			wantSteps: []string{
				`merge decisions.md:3 merged 2 similar entries into "Cache payment responses (also: five, minutes)"; removed line 4 "Cache payment responses for five minutes"`,
			},
		},
		{
			name: "a slug-less survivor takes a loser's slug",
			src:  "# Decisions\n\n- [ttl] Cache payment responses for five minutes\n- Cache payment responses\n",
			want: "# Decisions\n\n- [ttl] Cache payment responses (also: five, minutes)\n",
			wantSteps: []string{
				`merge decisions.md:4 merged 2 similar entries`,
			},
		},
		{
			name: "a rule and its reversal are never merged",
			src:  "# Decisions\n\n- [a] Always run database seeds in CI\n- [b] Never run database seeds in CI\n",
			want: "# Decisions\n\n- [a] Always run database seeds in CI\n- [b] Never run database seeds in CI\n",
		},
		{
			name: "prune drops the lowest scores, later lines first on ties",
			cfg:  limited(category.Decision, 2),
			src:  "# Decisions\n\n- [x] Use `make` in /scripts\n- [y] Ship releases on Tuesdays\n- [z] Review every pull request\n",
			want: "# Decisions\n\n- [x] Use `make` in /scripts\n- [y] Ship releases on Tuesdays\n",
			wantSteps: []string{
				`prune decisions.md:5 pruned [Decision] (score 30, limit 2): "Review every pull request"`,
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
			name: "an exact duplicate goes first, then near-duplicates merge",
			src:  "# Decisions\n\n- [signing-keys] Rotate signing keys yearly\n- Rotate signing keys yearly\n- Rotate signing keys yearly too\n",
			want: "# Decisions\n\n- [signing-keys] Rotate signing keys yearly\n",
			wantSteps: []string{
				`normalize decisions.md:4 duplicate: Delete the duplicate`,
				`merge decisions.md:3 merged 2 similar entries into "Rotate signing keys yearly"; removed line 4 "Rotate signing keys yearly too"`,
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
			p := PlanCleanup(files, cfg)
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
			if string(files[0].Doc.Src) != tt.src {
				t.Error("PlanCleanup changed its input")
			}
		})
	}
}
