package rules

import (
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
)

// TestSeveritySetting: a rule given a severity reports its own verdicts at
// it (conflict's reversals as warnings, secret's leaks as warnings,
// stale-path's moves as errors); what the rule itself ranks lower (a path
// no history shows moved, a password for tests) stays information, and no
// finding is more severe than the setting. true gives the rule its own
// severity back.
func TestSeveritySetting(t *testing.T) {
	files := []File{newFile(".memory/decisions.md", []byte("# Decisions\n\n"+
		"- Always squash merge pull requests.\n"+
		"- Never squash merge pull requests.\n"+
		"- Sessions live in `src/auth/session.ts`; helpers in `src/helpers.ts`.\n"+
		"- The prod password is Xk9#mQ2v!pLz.\n"+
		"- In tests, the fixture password is `password: Qz7rT2p!xW`.\n"))}
	repo := &fakeRepo{Repo: refstest.Repo{Files: []string{"lib/auth/session.ts", "README.md"},
		Gone: map[string]refs.Move{"src/auth/session.ts": {To: "lib/auth/session.ts", Commit: "3f9c2a1b7e"}}}}
	severities := func(rs map[string]config.RuleSetting) map[string][]string {
		t.Helper()
		cfg, err := config.Default().Merge(config.Settings{Rules: rs})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, f := range CheckWithRepo(files, cfg, repo) {
			switch f.Code {
			case "conflict", "secret", "stale-path":
				out[f.Code] = append(out[f.Code], f.Severity.String())
			}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		rules map[string]config.RuleSetting
		want  map[string][]string
	}{
		{"the rules' own", nil, map[string][]string{
			"conflict": {"info"}, "secret": {"error", "info"}, "stale-path": {"warning", "info"}}},
		{"raised and lowered", map[string]config.RuleSetting{
			"conflict": {On: true, Severity: "warning"}, "secret": {On: true, Severity: "warning"}, "stale-path": {On: true, Severity: "error"}},
			map[string][]string{"conflict": {"warning"}, "secret": {"warning", "info"}, "stale-path": {"error", "info"}}},
		{"all information", map[string]config.RuleSetting{
			"secret": {On: true, Severity: "info"}, "stale-path": {On: true, Severity: "info"}},
			map[string][]string{"conflict": {"info"}, "secret": {"info", "info"}, "stale-path": {"info", "info"}}},
		{"true is the own severity, off is off", map[string]config.RuleSetting{
			"conflict": {On: true}, "secret": {}},
			map[string][]string{"conflict": {"info"}, "stale-path": {"warning", "info"}}},
	} {
		got := severities(tc.rules)
		for code, want := range tc.want {
			if !slices.Equal(got[code], want) {
				t.Errorf("%s: %s findings %v, want %v", tc.name, code, got[code], want)
			}
		}
		for code := range got {
			if _, ok := tc.want[code]; !ok {
				t.Errorf("%s: %s findings %v, want none", tc.name, code, got[code])
			}
		}
	}
	// a later layer's true undoes an earlier layer's severity
	cfg, err := config.Default().Merge(config.Settings{Rules: map[string]config.RuleSetting{"conflict": {On: true, Severity: "warning"}}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.Merge(config.Settings{Rules: map[string]config.RuleSetting{"conflict": {On: true}}}); err != nil || cfg.Severity["conflict"] != "" {
		t.Errorf("after true: severity %q, %v; want the rule's own", cfg.Severity["conflict"], err)
	}
}
