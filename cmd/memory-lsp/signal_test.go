package main

import "testing"

// TestCommandClassDecidesHowASignalEnds: a command that writes nothing
// ends at the first signal (main); one that may write ends at its next
// safe point; a server never ends by main's hand. Every command is placed,
// so a new one is a decision, not a default.
func TestCommandClassDecidesHowASignalEnds(t *testing.T) {
	const no, yes = classReadOnly, classMayWrite
	for _, tc := range []struct {
		args []string
		want int32
	}{
		{[]string{"check"}, no},
		{[]string{"check", "--fix"}, yes},
		{[]string{"list"}, no},
		{[]string{"query", "helm"}, no},
		{[]string{"budget"}, no},
		{[]string{"version"}, no},
		{[]string{"store", "--category", "quirks", "--dry-run", "x"}, no},
		{[]string{"store", "--category", "quirks", "x"}, yes},
		{[]string{"cleanup"}, no},
		{[]string{"cleanup", "--apply"}, yes},
		{[]string{"review"}, no},
		{[]string{"review", "--approve", "all"}, yes},
		{[]string{"init"}, yes},
		{[]string{"serve"}, classServes},
		{[]string{"mcp"}, classServes},
		{[]string{"merge-driver", "a", "b", "c"}, yes},
	} {
		cmd := findCommand(tc.args[0])
		if cmd == nil {
			t.Fatalf("no command %s", tc.args[0])
		}
		a, err := parseArgs(tc.args[1:], append(append([]flagSpec{}, commonFlags...), cmd.flags...))
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := commandClass(cmd.name, a); got != tc.want {
			t.Errorf("commandClass(%v) = %d, want %d", tc.args, got, tc.want)
		}
	}
	for _, c := range commands() {
		switch c.name {
		case "check", "list", "query", "budget", "version", "store", "cleanup", "review", "init", "serve", "mcp", "merge-driver":
		default:
			t.Errorf("command %s: decide in commandClass how a signal ends it", c.name)
		}
	}
}
