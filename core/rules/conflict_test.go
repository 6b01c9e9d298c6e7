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
		// a link, a mapping, a practice an anti-pattern list names
		{"禁止行為", "[禁止行為](#禁止行為)", Information},
		{"`ComObject()` not `ComObjCreate()`", "`ComObjCreate()` → `ComObject()`", Information},
		{"No mocking the database in integration tests. Use Testcontainers.", "Mocking the database in integration tests. Use Testcontainers.", Information},
		// a negation that says when, a label that agrees, a state's name
		{"Work is not done until the release tag is pushed.", "**When closing a task**, you must finish every step below. Work is not done until the release tag is pushed.", Information},
		{"Never create new markdown files in the root directory.", "**NO NEW MARKDOWN IN ROOT**: Never create new markdown files in the root directory.", Information},
		{"Show a loading state if one exists.", "Show a disabled state if one exists.", Information},
		// other words besides the sign: shown, not counted (a red team
		// called them reversals; the words cannot be sure)
		{"Use `npm install` in this repo.", "`npm install` → never", Information},
		// still reversals
		{"Mocking the database in integration tests is fine.", "Mocking the database in integration tests is forbidden.", Warning},
		// a red team's: words that look like these forms and reverse
		{"Always run migrations in CI.", "[Never run migrations in CI](#ci)", Warning},
		{"`moment` → `date-fns`", "`date-fns` → `moment`", Warning},
		{"Keep this enabled in production.", "Keep this disabled in production.", Warning},
		{"Never cache API responses in Redis.", "Caching API responses in Redis: do it.", Warning},
		{"Mock the database in integration tests.", "Mocking the database in integration tests: avoid.", Warning},
		{"Merge pull requests after review.", "Do not merge pull requests after review.", Warning},
		{"Deploy on Fridays.", "Never deploy on Fridays.", Warning},
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
		{"[Forbidden actions](#forbidden-actions)", false}, // linksTo reads it beside its heading
		{"`ComObjCreate()` → `ComObject()`", true},
		{"Use `ComObject()` -> never `ComObjCreate()` in new code", false},
		{"Writing multiple tests before making any pass. **One per cycle.**", true},
		{"Force-pushing to `main` is allowed when CI is green.", false},
		{"Nothing to deploy on Fridays", false},
		{"Running `make lint` before each push is required.", false},
	} {
		if got := statesNoRule(tc.text); got != tc.want {
			t.Errorf("statesNoRule(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
