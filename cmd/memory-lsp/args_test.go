package main

import "testing"

// TestUnknownFlagSuggests (issue 28): a misspelt flag is answered with the
// flag meant, when one is within two edits; another unknown flag is named
// alone.
func TestUnknownFlagSuggests(t *testing.T) {
	specs := []flagSpec{{name: "format"}, {name: "dry-run", boolean: true}, {name: "category"}, {name: "fix", boolean: true}}
	for _, tc := range []struct{ arg, want string }{
		{"--fomat", "unknown flag --fomat; did you mean --format?"},
		{"--dryrun", "unknown flag --dryrun; did you mean --dry-run?"},
		{"--categroy", "unknown flag --categroy; did you mean --category?"},
		{"--verbose", "unknown flag --verbose"},
	} {
		_, err := parseArgs([]string{tc.arg, "x"}, specs)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.arg, err, tc.want)
		}
	}
}
