package rules

import "testing"

// TestConflictSeverity: a reversal is counted (a warning) only where both
// entries state a rule and the words cannot read an exception; else it is
// shown as information (issue 27: on real instruction files read as
// memory, every such warning was false).
func TestConflictSeverity(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want Severity
	}{
		{"Always squash merge pull requests.", "Never squash merge pull requests.", Warning},
		{"Use `pnpm` for installs.", "Do not use `pnpm` for installs.", Warning},
		{"Use Tailwind CSS", "Do not use Tailwind CSS.", Warning},
		{"Avoid inline styles.", "Write inline styles.", Warning},
		// a line of code, a lead-in, a title
		{"`# Quarantine and push to an existing PR`", "`# Unquarantine and push to an existing PR`", Information},
		{"**When to log:**", "**Do not log:**", Information},
		{"Things to Do", "Things NOT to Do", Information},
		{"📤 Response (200 OK) - Tem Permissão", "📤 Response (200 OK) - Não Tem Permissão", Information},
		// a negation about words only one says
		{"Triggers multiple runs of a single task with different payloads.", "Triggers multiple runs of a single task with different payloads without importing the task.", Information},
	} {
		src := "# Decisions\n\n- " + tc.a + "\n- " + tc.b + "\n"
		got := check(t, src, "conflict")
		if len(got) != 1 || got[0].Severity != tc.want {
			t.Errorf("%q / %q: %+v, want one conflict at %v", tc.a, tc.b, got, tc.want)
		}
	}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"`tls_verify: on`", true},
		{"Do not log:", true},
		{"Response (403 Forbidden)", false}, // two words: a title needs three
		{"Things NOT to Do", true},
		{"Usuário Não Existe", true},
		// a rule in capitals (a red team's)
		{"Use Postgres", false},
		{"Use Tailwind CSS", false},
		{"Always Use Yarn", false},
		{"Prefer Tabs Over Spaces", false},
		{"Enable CORS", false},
		{"Use pnpm", false},
		{"Use pnpm.", false},
		{"Never run `make deploy` on Fridays", false},
		{"使用 pnpm", false},
	} {
		if got := statesNoRule(tc.text); got != tc.want {
			t.Errorf("statesNoRule(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
