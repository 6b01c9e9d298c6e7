package config

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseSettings(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // the settings, as JSON
		err  string // the whole error when it ends in "(keys", else a part of it
	}{
		{in: `null`, want: `{}`},
		{in: `{"memory": null}`, want: `{}`},
		{in: `{}`, want: `{}`},
		{in: `{"categoryLimit": {"Decision": 1}}`, want: `{"categoryLimit":{"Decision":1}}`},
		{in: `{"categoryLimit": {"decisions": 1, "quirks.md": 2}}`, want: `{"categoryLimit":{"Decision":1,"Quirk":2}}`},
		{in: `{"memory": {"categoryLimit": {"Decision": 1}}}`, want: `{"categoryLimit":{"Decision":1}}`},
		{in: `{"memory": {"longEntry": null, "skipThreshold": 0.9}}`, want: `{"skipThreshold":0.9}`},
		{in: `{"rules": {"missing-slug": false, "secret": null}}`, want: `{"rules":{"missing-slug":false}}`},
		{in: `{"categoryLimit": {"Decision": null}}`, want: `{}`},
		{in: `{"agents": ["claude", "codex"]}`, want: `{"agents":["claude","codex"]}`},
		{in: `{"agents": []}`, want: `{"agents":[]}`},
		{in: `{"agents": "claude"}`, err: `agents: "claude" is not a valid value (want a list of strings)`},
		{in: `{"colour": 1}`, err: `colour: no setting has the key "colour" (keys: agents, categoryLimit, historyDepth, longEntry, maxContent, mergeThreshold, review, rules, skipThreshold, updateThreshold)`},
		{in: `{"memory": {"colour": 1, "longEntry": 120}}`, err: `memory.colour: no setting has the key "colour"`},
		{in: `{"categoryLimits": {}}`, err: `categoryLimits: no setting has the key "categoryLimits"; did you mean "categoryLimit"?`},
		{in: `{"memory": {}, "longEntry": 120}`, err: `memory: settings nested under "memory" are the object's only key; it also has longEntry`},
		{in: `{"categoryLimit": {"Goals": 2, "quirk": 4}}`, err: `categoryLimit.Goals: unknown category: "Goals". Valid: Instruction,`},
		{in: `{"categoryLimit": {"Desicion": 2}}`, err: `categoryLimit.Desicion: unknown category: "Desicion"; did you mean Decision?`},
		{in: `{"categoryLimit": {"Decision": 2, "decisions": 4}}`, err: `categoryLimit.decisions: Decision is set twice`},
		{in: `{"memory": {"longEntry": "long"}}`, err: `memory.longEntry: "long" is not a valid value (want a whole number)`},
		{in: `{"longEntry": 1.5}`, err: `longEntry: 1.5 is not a valid value (want a whole number)`},
		{in: `{"skipThreshold": true}`, err: `skipThreshold: true is not a valid value (want a number)`},
		{in: `{"categoryLimit": {"Decision": "one"}}`, err: `categoryLimit.Decision: "one" is not a valid value (want a whole number)`},
		{in: `{"rules": {"secret": "off", "conflict": "warning", "near-duplicate": "info", "long-entry": true}}`,
			want: `{"rules":{"conflict":"warning","long-entry":true,"near-duplicate":"info","secret":false}}`},
		{in: `{"rules": {"secret": "loud"}}`, err: `rules.secret: "loud" is not a valid value (want true, false or a severity ("error", "warning", "info", "off"))`},
		{in: `{"rules": {"secret": 1}}`, err: `rules.secret: 1 is not a valid value (want true, false or a severity ("error", "warning", "info", "off"))`},
		{in: `{"rules": ["secret"]}`, err: `rules: ["secret"] is not a valid value (want an object of rule codes to true, false or a severity ("error", "warning", "info", "off"))`},
		{in: `{"categoryLimit": [1]}`, err: `categoryLimit: [1] is not a valid value (want an object of names to whole numbers)`},
		{in: `[1, 2]`, err: `settings must be an object, not [1, 2]`},
		{in: `{"memory": 3}`, err: `memory: settings must be an object, not 3`},
		{in: ``, err: `settings are not valid JSON`},
		{in: `# Decisions`, err: `settings are not valid JSON`},
		{in: `{"longEntry": 150} {}`, err: `settings are not valid JSON`},
	} {
		got, err := ParseSettings([]byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.HasSuffix(tc.err, ")") && err.Error() != tc.err {
				t.Errorf("ParseSettings(%s) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSettings(%s): %v", tc.in, err)
			continue
		}
		if b, _ := json.Marshal(got); string(b) != tc.want {
			t.Errorf("ParseSettings(%s) = %s, want %s", tc.in, b, tc.want)
		}
	}
}

func TestSettingsKeys(t *testing.T) {
	want := []string{"agents", "categoryLimit", "historyDepth", "longEntry", "maxContent", "mergeThreshold", "review", "rules", "skipThreshold", "updateThreshold"}
	if got := settingsKeys(); !slices.Equal(got, want) {
		t.Errorf("settingsKeys() = %v, want %v", got, want)
	}
}

// TestOverlay: every field of the top layer wins when set, maps member by
// member, and neither layer is changed.
func TestOverlay(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	n := func(x int) *int { return &x }
	base := Settings{
		CategoryLimit: map[string]int{"Decision": 1, "Quirk": 9},
		SkipThreshold: f(0.9), UpdateThreshold: f(0.7), MergeThreshold: f(0.4), LongEntry: n(100), MaxContent: n(500),
		Rules: map[string]RuleSetting{"missing-slug": {On: true}, "secret": {On: true}, "conflict": {On: true, Severity: "warning"}}, HistoryDepth: n(10),
	}
	top := Settings{
		CategoryLimit: map[string]int{"Decision": 2},
		SkipThreshold: f(0.95), UpdateThreshold: f(0.75), MergeThreshold: f(0.5), LongEntry: n(150), MaxContent: n(600),
		Rules: map[string]RuleSetting{"secret": {}}, HistoryDepth: n(0),
	}
	want := Settings{
		CategoryLimit: map[string]int{"Decision": 2, "Quirk": 9},
		SkipThreshold: f(0.95), UpdateThreshold: f(0.75), MergeThreshold: f(0.5), LongEntry: n(150), MaxContent: n(600),
		Rules: map[string]RuleSetting{"missing-slug": {On: true}, "secret": {}, "conflict": {On: true, Severity: "warning"}}, HistoryDepth: n(0),
	}
	if got := base.Overlay(top); !reflect.DeepEqual(got, want) {
		t.Errorf("base.Overlay(top) = %+v, want %+v", got, want)
	}
	if got := top.Overlay(Settings{}); !reflect.DeepEqual(got, top) {
		t.Errorf("top.Overlay(none) = %+v, want top", got)
	}
	if got := (Settings{}).Overlay(base); !reflect.DeepEqual(got, base) {
		t.Errorf("none.Overlay(base) = %+v, want base", got)
	}
	if base.CategoryLimit["Decision"] != 1 || !base.Rules["secret"].On || *base.LongEntry != 100 {
		t.Errorf("Overlay changed its receiver: %+v", base)
	}
}

// The review setting takes one of its modes, and a wrong one is named
// with the modes it may be.
func TestReviewSetting(t *testing.T) {
	if got := Default().Review; got != ReviewFlagged {
		t.Errorf("default review = %q, want %q", got, ReviewFlagged)
	}
	for _, mode := range ReviewModes {
		s, err := ParseSettings([]byte(`{"memory": {"review": "` + mode + `"}}`))
		if err != nil {
			t.Fatal(err)
		}
		c, err := Default().Merge(s)
		if err != nil || c.Review != mode {
			t.Errorf("review %q: %q, %v", mode, c.Review, err)
		}
	}
	s, err := ParseSettings([]byte(`{"review": "never"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Default().Merge(s); err == nil || !strings.Contains(err.Error(), `review = "never": must be one of off, flagged, agents`) {
		t.Errorf("review never: %v", err)
	}
	if _, err := ParseSettings([]byte(`{"review": true}`)); err == nil || !strings.Contains(err.Error(), "review: true is not a valid value (want a string)") {
		t.Errorf("review true: %v", err)
	}
}

func TestProjectReview(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{`{"review": "agents"}`, "agents", ""},
		{`{"memory": {"review": "off"}}`, "off", ""},
		{`{}`, "", ""},
		{`{"review": "later"}`, "", `review = "later": must be one of off, flagged, agents`},
		{`{"review": "agents", "longEntry": 100}`, "", "sets only review"},
	} {
		got, err := ParseProject([]byte(tc.in))
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseProject(%s) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
	for _, tc := range [][3]string{{"off", "agents", "agents"}, {"agents", "off", "agents"}, {"flagged", "off", "flagged"}, {"off", "", "off"}, {"bogus", "off", "agents"}} {
		b := tc[1]
		if b == "" {
			b = "off"
		}
		if got := Stricter(tc[0], b); got != tc[2] {
			t.Errorf("Stricter(%q, %q) = %q, want %q", tc[0], b, got, tc[2])
		}
	}
}
