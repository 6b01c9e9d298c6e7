package similar

import "testing"

// TestOtherNegationRole holds, in both orders, the negations check reads
// as doing another job than reversing (issue 27; the shapes of false
// reversals on files v5 and v6), and reversals it must leave alone.
func TestOtherNegationRole(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		other bool
	}{
		// a time or a condition
		{"Work is not done until the release tag is pushed.", "**When closing a task**, you must finish every step. Work is not done until the release tag is pushed.", true},
		{"Do not merge unless CI is green.", "Merge pull requests.", true},
		{"Nicht mergen bis die CI grün ist.", "Mergen.", true},
		{"No hagas merge hasta que la CI pase.", "Haz merge.", true},
		{"Não faça merge até a CI passar.", "Faça merge.", true},
		{"Ne pas fusionner jusqu’à ce que la CI passe.", "Fusionner.", true},
		{"Не мержить пока CI не зелёный.", "Мержить.", true},
		// after a comma "until" may open another order (a red team's);
		// German and Russian set that comma by grammar, and are read as
		// reversals there
		{"Always run the full suite before merging.", "Never run the full suite before merging, wait until nightly.", false},
		{"Nicht mergen, bis die CI grün ist.", "Mergen.", false},
		// a label and a rule that agree
		{"**NO NEW FILES IN ROOT**: Never create new files in the root.", "Never create new files in the root.", true},
		{"Not optional: never skip the linter.", "Never skip the linter.", true},
		{"NOT ANYMORE: never log PII.", "Never log PII.", false},
		{"Always use `redis:7` in compose.", "Never use `redis:7` in compose, no exceptions.", false},
		// a state's name
		{"Show a disabled state if one exists.", "Show a loading state if one exists.", true},
		{"Grey out the excluded paths.", "Grey out the included paths.", true},
		{"Keep this enabled in production.", "Keep this disabled in production.", false},
		{"Use a cache that expires hourly.", "Use a cache that never expires.", false},

		{"Never use npm.", "Use npm.", false},
		{"Merge before review.", "Do not merge before review.", false},
		{"Do not disable the cache.", "Disable the cache.", false},
		{"Keep the disabled tests skipped.", "Keep the disabled tests skipped and never delete them.", false},
		{"Note: never push to main.", "Push to main.", false},
	} {
		for _, p := range [][2]string{{tc.a, tc.b}, {tc.b, tc.a}} {
			if got := OtherNegationRole(Analyze(p[0]), Analyze(p[1])) != ""; got != tc.other {
				t.Errorf("OtherNegationRole(%q, %q) = %v, want %v", p[0], p[1], got, tc.other)
			}
		}
	}
}
