package main

import "testing"

// TestWritesDecidesWhoEndsAtOnce: a command that writes nothing ends at
// the first signal (main); one that may write ends at its next safe point.
// Every command is placed, so a new one is a decision, not a default.
func TestWritesDecidesWhoEndsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"check"}, false},
		{[]string{"check", "--fix"}, true},
		{[]string{"list"}, false},
		{[]string{"query", "helm"}, false},
		{[]string{"budget"}, false},
		{[]string{"version"}, false},
		{[]string{"store", "--category", "quirks", "--dry-run", "x"}, false},
		{[]string{"store", "--category", "quirks", "x"}, true},
		{[]string{"cleanup"}, false},
		{[]string{"cleanup", "--apply"}, true},
		{[]string{"review"}, false},
		{[]string{"review", "--approve", "all"}, true},
		{[]string{"init"}, true},
		{[]string{"serve"}, true},
		{[]string{"mcp"}, true},
		{[]string{"merge-driver", "a", "b", "c"}, true},
	} {
		cmd := findCommand(tc.args[0])
		if cmd == nil {
			t.Fatalf("no command %s", tc.args[0])
		}
		a, err := parseArgs(tc.args[1:], append(append([]flagSpec{}, commonFlags...), cmd.flags...))
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := writes(cmd.name, a); got != tc.want {
			t.Errorf("writes(%v) = %v, want %v", tc.args, got, tc.want)
		}
	}
	for _, c := range commands() {
		switch c.name {
		case "check", "list", "query", "budget", "version", "store", "cleanup", "review", "init", "serve", "mcp", "merge-driver":
		default:
			t.Errorf("command %s: decide in writes whether it writes", c.name)
		}
	}
}
