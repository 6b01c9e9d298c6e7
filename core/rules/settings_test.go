package rules

import (
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
)

func TestCheckSettings(t *testing.T) {
	for _, tt := range []struct {
		rules map[string]bool
		want  string // part of the error; "" for none
	}{
		{nil, ""},
		{map[string]bool{"missing-slug": true, "long-entry": false}, ""},
		{map[string]bool{"missing-slugg": false}, `rules.missing-slugg: no rule has the code "missing-slugg"; did you mean "missing-slug"?`},
		{map[string]bool{"Long_Entry": false}, `did you mean "long-entry"?`},
		{map[string]bool{"colour": true}, `rules.colour: no rule has the code "colour" (codes: bullet-marker,`},
	} {
		err := CheckSettings(config.Settings{Rules: tt.rules})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.rules, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v, want an error with %q", tt.rules, err, tt.want)
		}
	}
}
