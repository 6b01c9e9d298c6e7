package similar

import "testing"

// TestMayOnlyQualify holds where a negation stands against a reversal's
// claim in check, read in both orders: the first four are the shapes of
// false conflicts on real instruction files (files v1's tuning half, issue
// 27), the rest reversals check must still count. The store reads all of
// them as reversals (TestClassify).
func TestMayOnlyQualify(t *testing.T) {
	tests := []struct {
		a, b    string
		qualify bool
	}{
		// the longer text negates only words it adds
		{"Triggers multiple runs of a single task with different payloads.", "Triggers multiple runs of a single task with different payloads without importing the task.", true},
		{"Run migrations.", "Run migrations; never on Fridays.", true},
		{"Hash SHA-256 armazenado.", "Hash armazenado no banco (SHA-256).", true},
		{"**Refresh Token**: 30 dias", "Refresh token não expirado (30 dias)", true},

		{"Run migrations.", "Never run migrations on Fridays.", false},
		{"Use npm for installs.", "Use `pnpm` for installs (not `npm`).", false},
		{"Run the tests before commits.", "Run the tests (not any longer) before commits.", false},
		{"Use the old deploy script.", "Use the old deploy script (obsolete, do not call it).", false},
		{"Run `make bootstrap` after pulling.", "Run `make bootstrap` after pulling (not since v3).", false},
		{"Use the old deploy script.", "Use the old deploy script, no longer needed.", false},
		{"Force-pushing to `main` is allowed when CI is green.", "Force-pushing to `main` is forbidden.", false},
		{"Enable rate limiting on the login endpoint to prevent abuse.", "Disable rate limiting on the login endpoint.", false},
		{"Usa tabuladores para la indentación.", "No uses tabuladores para la indentación.", false},
		{"Pas de Tailwind pour le style principal.", "Utiliser Tailwind pour le style principal.", false},
		{"Behalte die Golden-Tests bei Verhaltensänderungen unverändert bei.", "Behalte die Golden-Tests bei Verhaltensänderungen nicht bei.", false},
		// a negating verb against another verb is not read (a red team's)
		{"Avoid inline styles.", "Write inline styles.", false},
		{"Remove console.log calls before committing.", "Leave console.log calls before committing.", false},
	}
	for _, tt := range tests {
		for _, p := range [][2]string{{tt.a, tt.b}, {tt.b, tt.a}} {
			if got := MayOnlyQualify(Analyze(p[0]), Analyze(p[1])); got != tt.qualify {
				t.Errorf("MayOnlyQualify(%q, %q) = %v, want %v", p[0], p[1], got, tt.qualify)
			}
		}
	}
}
