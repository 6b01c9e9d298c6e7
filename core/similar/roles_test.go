package similar

import (
	"strings"
	"testing"
)

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
		// ranked around a symbol, and with invisible characters inside a
		// term (which the comparison drops)
		{"Migrate MySQL -> Postgres.", "Migrate Postgres -> MySQL.", Conflict},
		// CJK without spaces, read a character or known word at a time
		{"优先使用Go而不是Rust。", "优先使用Rust而不是Go。", Conflict},
		{"Prefer Ru\u00adst over G\u200bo.", "Prefer Go over Rust.", Conflict},
		// an order of steps reversed (issue 27's sixth blind set)
		{"Update tasks.md before progress.md.", "Update progress.md before tasks.md.", Conflict},
		{"Run lint, then tests.", "Run tests, then lint.", Conflict},
		// (German declines the articles: not the same words, stored beside)
		{"Kopiere die Logs vor dem Backup.", "Kopiere das Backup vor den Logs.", Store},
		// an order word that does not join the two terms alone: a
		// consequence, two rules (a red team's failover pairs)
		{"If the primary region fails, then traffic moves to eu-west.", "If eu-west fails, then traffic moves to the primary region.", Store},
		{"Si Redis falla, luego usamos Postgres.", "Si Postgres falla, luego usamos Redis.", Store},
		// phrases trading places around a verb or a preposition: stored
		// beside as a pair, claiming no reversal (a red team's pairs:
		// some say the same, some do not)
		{"Copilot handles precision fixes, and you take scaffolding work.", "Copilot handles scaffolding work, and you take precision fixes.", Store},
		{"Run tests in Docker in CI.", "Run tests in CI in Docker.", Store},
		{"Never mix tabs with spaces.", "Never mix spaces with tabs.", Store},
		{"Im CI laufen die Tests langsam.", "Die Tests laufen im CI langsam.", Store},
		// three terms rotated: no duplicate, stored beside
		{"Use Go for the server, Rust for the CLI, Python for scripts.", "Use Rust for the server, Python for the CLI, Go for scripts.", Store},
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

// TestRolesLongMiddleIsNotRead: the splits of a long middle are not tried
// (their cost grows with its cube); such texts are read as before.
func TestRolesLongMiddleIsNotRead(t *testing.T) {
	long := strings.Repeat("alpha ", maxRoleWords)
	if _, _, _, ok := rolesSwapped("bravo charlie "+long+"delta", "delta "+long+"charlie bravo"); ok {
		t.Error("a middle over maxRoleWords was read")
	}
	if _, _, _, ok := rolesSwapped("bravo over delta", "delta over bravo"); !ok {
		t.Error("a short swap was not read")
	}
}
