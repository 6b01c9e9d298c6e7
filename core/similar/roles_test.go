package similar

import "testing"

// TestSwappedRolesAreNoDuplicate (issue 27, the fourth blind set): texts
// with the same words are a duplicate only when no two terms trade roles;
// a skip would drop the reversal.
func TestSwappedRolesAreNoDuplicate(t *testing.T) {
	th := Thresholds{Skip: 0.8, Update: 0.6}
	for _, tc := range []struct {
		old, new string
		want     Action
	}{
		// short words the keywords leave out
		{"Use `uv` for local Python tooling, not pip.", "Use pip for local Python tooling, not `uv`.", Conflict},
		{"Prefer Go over Rust for services.", "Prefer Rust over Go for services.", Conflict},
		{"Use Go for the CLI, not Python.", "Use Python for the CLI, not Go.", Conflict},
		// phrases trading roles around a verb
		{"Copilot handles precision fixes, and you take scaffolding work.", "Copilot handles scaffolding work, and you take precision fixes.", Conflict},
		// values trading places: a changed value
		{"Retry 2 times, then wait 10 seconds.", "Retry 10 times, then wait 2 seconds.", Update},
		// no role changes: a list reordered, a phrase moved, case
		{"Run lint and test before pushing.", "Run test and lint before pushing.", Skip},
		{"CRLF line endings break shellcheck on Windows runners.", "On Windows runners, CRLF line endings break shellcheck.", Skip},
		{"Use Go for the CLI.", "use go for the CLI", Skip},
	} {
		if got := Classify(Analyze(tc.old), Analyze(tc.new), th); got.Action != tc.want {
			t.Errorf("%q → %q: %v (%s), want %v", tc.old, tc.new, got.Action, got.Reason, tc.want)
		}
	}
}
