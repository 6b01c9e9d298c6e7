package config

import (
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

func TestDefaultMatchesHackLM(t *testing.T) {
	c := Default()
	want := map[category.Category]int{category.Instruction: 30, category.Quirk: 40, category.Preference: 40, category.Decision: 40, category.Security: 30}
	for cat, n := range want {
		if c.Limit(cat) != n {
			t.Errorf("limit %s = %d, want %d", cat, c.Limit(cat), n)
		}
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		wantErr string
		check   func(Config) bool
	}{
		{"limit", `{"categoryLimit":{"decision":5}}`, "", func(c Config) bool { return c.Limit(category.Decision) == 5 }},
		{"rule off", `{"rules":{"missing-slug":false}}`, "", func(c Config) bool { return !c.Enabled("missing-slug") && c.Enabled("secret") }},
		{"unknown category", `{"categoryLimit":{"Notes":5}}`, "unknown category", nil},
		{"zero limit", `{"categoryLimit":{"Quirk":0}}`, "categoryLimit.Quirk", nil},
		{"bad thresholds", `{"skipThreshold":0.5}`, "thresholds", nil},
		{"history depth", `{"historyDepth":50}`, "", func(c Config) bool { return c.HistoryDepth == 50 }},
		{"history off", `{"historyDepth":0}`, "", func(c Config) bool { return c.HistoryDepth == 0 }},
		{"default history depth", `{}`, "", func(c Config) bool { return c.HistoryDepth == 5000 }},
		{"negative history depth", `{"historyDepth":-1}`, "historyDepth = -1: must be between 0 and 100000", nil},
		{"agents detected by default", `{}`, "", func(c Config) bool { return c.Agents == nil }},
		{"agents named", `{"agents":["codex"]}`, "", func(c Config) bool { return len(c.Agents) == 1 && c.Agents[0] == "codex" }},
		{"no agents", `{"agents":[]}`, "", func(c Config) bool { return c.Agents != nil && len(c.Agents) == 0 }},
		{"unknown agent", `{"agents":["claude","copilt"]}`, `agents: "copilt" is not an agent memory-lsp knows (claude, codex, copilot, cursor, windsurf, gemini, kiro)`, nil},
		{"typo", `{"categoryLimits":{}}`, `categoryLimits: no setting has the key "categoryLimits"; did you mean "categoryLimit"?`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSettings([]byte(tt.json))
			var c Config
			if err == nil {
				c, err = Default().Merge(s)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("merged config wrong: %+v", c)
			}
		})
	}
}
