package rules

import (
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
)

func TestCheckRuleNames(t *testing.T) {
	for _, tt := range []struct {
		rules map[string]config.RuleSetting
		want  string // part of the error; "" for none
	}{
		{nil, ""},
		{map[string]config.RuleSetting{"missing-slug": {On: true}, "long-entry": {}}, ""},
		{map[string]config.RuleSetting{"missing-slugg": {}}, `rules.missing-slugg: no rule has the code "missing-slugg"; did you mean "missing-slug"?`},
		{map[string]config.RuleSetting{"Long_Entry": {}}, `did you mean "long-entry"?`},
		{map[string]config.RuleSetting{"colour": {On: true}}, `rules.colour: no rule has the code "colour" (codes: bullet-marker,`},
	} {
		err := checkRuleNames(config.Settings{Rules: tt.rules})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.rules, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v, want an error with %q", tt.rules, err, tt.want)
		}
	}
}

// TestParseSettings: the front ends' decoder checks rule names wherever the
// object sits (nested under "memory" too), after the keys and types.
func TestParseSettings(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // part of the error; "" for none
	}{
		{`{"memory": {"rules": {"missing-slug": true}}}`, ""},
		{`{"memory": {"rules": {"missing-slugg": false}}}`, `rules.missing-slugg: no rule has the code "missing-slugg"; did you mean "missing-slug"?`},
		{`{"rules": {"missing-slugg": false}, "colour": 1}`, `colour: no setting has the key "colour"`},
		{`{"rules": {"missing-slugg": "loud"}}`, `rules.missing-slugg: "loud" is not a valid value (want true, false or a severity ("error", "warning", "info", "off"))`},
		{`{"rules": {"missing-slugg": "warning"}}`, `rules.missing-slugg: no rule has the code "missing-slugg"`},
		{`{"rules": {"missing-slug": "warning", "conflict": "off"}}`, ""},
	} {
		s, err := ParseSettings([]byte(tt.in))
		switch {
		case tt.want == "" && (err != nil || !s.Rules["missing-slug"].On):
			t.Errorf("%s: %+v, %v", tt.in, s, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want an error with %q", tt.in, err, tt.want)
		}
	}
}
