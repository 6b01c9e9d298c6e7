package similar

import "testing"

// TestMinimalReversal: the same rule with its sign flipped, a verb or a
// verdict changed, or its options swapped, in both orders; and pairs
// whose other words differ.
func TestMinimalReversal(t *testing.T) {
	for _, tc := range []struct {
		a, b    string
		minimal bool
	}{
		{"Always squash merge pull requests.", "Never squash merge pull requests.", true},
		{"Avoid inline styles.", "Write inline styles.", true},
		{"Mocking the database in tests is fine.", "Mocking the database in tests is forbidden.", true},
		{"Prefer tabs over spaces.", "Prefer spaces over tabs.", true},
		{"Usa tabuladores para la indentación.", "No uses tabuladores para la indentación.", true},
		{"Quand la CI est rouge ne jamais merger, selon la règle.", "Quand la CI est rouge merger, selon la règle.", true},
		{"Run the linter before pushing.", "Never run the linter before pushing to the release branch.", false},
		{"Use tabs.", "Do not use tabs; spaces only.", true},
		{"Always run the integration tests against a real database.", "Never run the integration tests against a real database; use the in-memory fake.", true},
		{"Run lint before tests.", "Run lint after tests.", true},
		{"Используйте pnpm, а не npm.", "Используйте npm, а не pnpm.", true},
		{"Use pnpm.", "Never use pnpm in CI. Use pnpm locally.", false},
		{"Run tests with -race.", "Never run tests with -race on CI; it is too slow.", true}, // one word of scope more
		{"Alice reviews Bob's code.", "Bob reviews Alice's code.", false},
		// a red team's: both true
		{"SQLite uses less memory than Postgres.", "Postgres uses more memory than SQLite.", false},
		{"Port 443 is open on the load balancer.", "Port 22 is not open on the load balancer.", false},
		{"Step 1: enable the maintenance flag.", "Step 5: disable the maintenance flag.", false},
		{"Always run the full database migration suite automatically on every merge to the staging branch.", "Never run the full database migration suite automatically on every merge to the production branch.", false},
		{"Cache API responses in the browser.", "Never cache authenticated API responses in the browser.", false},
		{"The `{{-` marker removes whitespace before the block.", "The `-}}` marker removes whitespace after the block.", false},
		{"**MUST**", "**MUST NOT**", false},
		{"Default: `Nodejs18.15` (recommended)", "`Nodejs18.15` (Default, Recommended)", false},
		{"Use mocks instead of real services in tests.", "Use real services instead of mocks in tests.", true},
		{"Show a loading state if one exists.", "Show a disabled state in the form if one exists.", false},
	} {
		for _, p := range [][2]string{{tc.a, tc.b}, {tc.b, tc.a}} {
			if got := MinimalReversal(Analyze(p[0]), Analyze(p[1])); got != tc.minimal {
				t.Errorf("MinimalReversal(%q, %q) = %v, want %v", p[0], p[1], got, tc.minimal)
			}
		}
	}
}
