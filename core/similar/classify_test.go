package similar

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		old, new string
		action   Action
		reason   string
		exact    bool
	}{
		{"Keep SQL migrations idempotent.", "keep sql migrations idempotent", Skip, "identical text", true},
		{"发布前更新变更日志", "数据库迁移必须可以回滚", Store, "", false},
		{"🚀", "🎉", Store, "", false}, // nothing to compare is not "identical"
		{"🚀", " 🚀 ", Skip, "identical text", true},
		{"Do it", "Don't do it", Conflict, "reversal", false},
		{"Always", "Never", Store, "", false}, // nothing but polarity: not comparable
		{"Java 1.8", "Java 18", Update, "values differ", false},
		// issue 27's eighth set: the same thing given another value after
		// the subject is an update; two things are siblings
		{"Storefront customers live in features/crm.", "Storefront customers live in features/customer.", Update, "values differ", false},
		{"The Next.js frontend lives in `web/nyx/`.", "The Next.js frontend lives in `services/nyx/`.", Update, "values differ", false},
		{"cspell uses the en-GB locale.", "cspell uses the en-US locale.", Update, "values differ", false},
		{"Target ES2019 for the server bundle.", "Target ES2022 for the server bundle.", Update, "values differ", false},
		{"Name branches <type>/<issue-number>-<short-description>.", "Name branches <type>/<short-description>.", Update, "values differ", false},
		{"Use TypeScript strict mode in `src/`.", "Use TypeScript strict mode in `scripts/`.", Store, `sibling: "src" vs "scripts"`, false},
		{"Publish order events to queue0.", "Publish order events to queue1.", Store, `sibling: "queue0" vs "queue1"`, false},
		{"Add new parameters to configs/first_minute.yaml.", "Add new parameters to configs/first_minute.toml.", Update, "values differ", false},
		// a list with a part more is no form of the same word
		{"Commit <type> is one of feat/fix/chore/docs/ref.", "Commit <type> is one of feat/fix/chore/docs/ref/test.", Store, `sibling: "featfixchoredocsref" vs "featfixchoredocsreftest"`, false},
		// another file in the same frame is a second fact, never a
		// rewording or a form of the first (issue 27's sixth set)
		{"单聊 SSE 流式处理逻辑放在 session.stream.friend.ts。", "群聊 SSE 流式处理逻辑放在 session.stream.group.ts。", Store, `sibling: "session.stream.friend.ts" vs "session.stream.group.ts"`, false},
		{"涉及配置变更时必须更新 README.md。", "涉及配置变更时必须更新 docs/ 下的文档。", Store, `sibling: "README.md" vs "docs/"`, false},
		{"Project config is loaded from crushrc and crush.json.", "Project config is loaded from crush.sh and crush.json.", Store, `sibling: "crushrc" vs "crushsh"`, false},
		{"JS/TS-Linting mit eslint ist aktiv.", "JS/TS-Linting mit eslint ist deaktiviert.", Conflict, "reversal", false},
		{"Services de sécurité : fail-open en production.", "Services de sécurité : fail-closed en production.", Conflict, "reversal", false},
		{"Run scripts/check-compose-profile.sh before changing a deployment profile.", "Run scripts/check-registry-snapshots.sh before changing a deployment profile.", Store, `sibling: "scriptscheck-compose-profilesh" vs "scriptscheck-registry-snapshotssh"`, false},
		// a subject's value is the subject: two tests, two facts
		{"`SUSISlaveTest.ReadSpecialCVs_Banked` covers RCN-602, Chapter 3.", "`LegacySusiE2ETest.readSpecialCVs` covers RCN-602, Chapter 3.", Store, `sibling: "susislavetestreadspecialcvsbanked" vs "legacysusie2etest.readspecialcvs"`, false},
		// one folder swapped in every place it stands, in a path too
		{"`docs/` 配下の作業ルールは `docs/AGENTS.md` を参照する。", "`samples/` 配下の作業ルールは `samples/AGENTS.md` を参照する。", Store, `sibling: "docs" vs "samples"`, false},
		{"Lint YAML files in the charts folder", "Lint JSON files in the charts folder", Store, `sibling: "yaml" vs "json"`, false},
		{"Lint yaml files in the charts folder", "Lint json files in the charts folder", Store, `sibling: "yaml" vs "json"`, false},
		{"Use Postgres for the billing service data store", "Use MySQL for the billing service data store", Store, `sibling: "postgres" vs "mysql"`, false},
		{"Prefer A over B", "Prefer A over B", Skip, "identical text", true},
		{"Run database seeds before the migration step", "Run database seeds after the migration step", Conflict, "reversal", false},
		{"Prefer tabs over spaces in Makefiles", "Prefer spaces over tabs in Makefiles", Conflict, "reversal", false},
		// sign and order both reversed say the same thing again
		{"Prefer tabs over spaces in Makefiles", "Never prefer spaces over tabs in Makefiles", Skip, "", false},
		// issue 27, the third blind set's tuning half: two terms trading
		// places across a clause or a negation reverse the rule; across
		// "and" they do not
		{"Use pnpm; never use yarn.", "Use yarn; never use pnpm.", Conflict, "swaps two terms", false},
		{"Answer in German; write commits in English.", "Answer in English; write commits in German.", Conflict, "swaps two terms", false},
		{"Run lint and tests before pushing.", "Run tests and lint before pushing.", Skip, "", false},
		// a short word the comparison leaves out is still a new fact
		{"Supported locales: en and de.", "Supported locales: en, de, fr and it.", Update, "adds detail", false},
		// one quantity in words and in digits
		{"The importer retries about twelve times.", "The importer retries about 12 times.", Skip, "", false},
		{"The importer retries about twelve times.", "The importer retries about 15 times.", Update, "values differ", false},
		// a number that names the subject names another one: two facts,
		// stored beside; a runtime's number is its version, a value
		{"Tier 2 falls back to BLE when the mesh is down.", "Tier 1 falls back to BLE when the mesh is down.", Store, `sibling: "tier 2" vs "tier 1"`, false},
		{"Schritt 2 prüft die Migrationen.", "Schritt 3 prüft die Migrationen.", Store, `sibling: "schritt 2" vs "schritt 3"`, false},
		{"Node 18 is required for the frontend.", "Node 20 is required for the frontend.", Update, "values differ", false},
		{"The default plan is Tier 2.", "The default plan is Tier 1.", Update, "values differ", false},
		{"Tier 2 retries 3 times.", "Tier 1 retries 5 times.", Store, `sibling: "tier 2" vs "tier 1"`, false},
		// a red team's: the one current or chosen thing is updated
		{"Sprint 14 is the current sprint.", "Sprint 15 is the current sprint.", Update, "values differ", false},
		{"Option 2 was chosen for the session cache.", "Option 3 was chosen for the session cache.", Update, "values differ", false},
		{"Phase 3 is the current phase.", "Phase 4 is the current phase.", Update, "values differ", false},
		{"The Tier 2 fallback is BLE when the mesh is down.", "The Tier 1 fallback is BLE when the mesh is down.", Store, `sibling: "tier 2" vs "tier 1"`, false},
		{"Step 2.1: run the migrations.", "Step 2.2: run the migrations.", Store, `sibling: "step 2.1" vs "step 2.2"`, false},
		// a number inside CJK text is a value: the second is no duplicate
		{"タイムアウトは30秒です。", "タイムアウトは60秒です。", Update, "values differ", false},
		{"超时时间为30秒。", "超时时间为60秒。", Update, "values differ", false},
		// "=no" and "to no" say the same; "=yes" and "=no" do not
		{"Set CACHE_WARM=no to skip the warm-up.", "To skip the warm-up, set CACHE_WARM to no.", Update, "", false},
		{"Set CACHE_WARM=yes for local runs.", "Set CACHE_WARM=no for local runs.", Conflict, "reversal", false},
		// "A et non B" is an order like "A, pas B"; a word on both sides
		// of it tells no side
		{"Les logs vont vers stdout, pas vers le fichier.", "Les logs vont vers stdout et non vers le fichier.", Update, "", false},
		// a red team's pairs: clauses that moved whole, values that traded
		// places, terms swapped across "and", opposites about another
		// subject, a short word replaced
		{"Use pnpm; never use yarn.", "Never use yarn; use pnpm.", Skip, "", false},
		{"Show the banner in de; hide it in fr.", "Hide the banner in fr; show it in de.", Skip, "", false},
		{"Retry 2 times, then wait 10 seconds.", "Retry 10 times, then wait 2 seconds.", Update, "values differ", false},
		{"Staging uses the EU bucket and prod uses the US bucket.", "Staging uses the US bucket and prod uses the EU bucket.", Conflict, "swaps two terms", false},
		{"The build works on Node 18.", "The build breaks on Node 20.", Store, "", false},
		// a condition and its consequence trading terms: two rules, stored
		// beside (a red team's pairs, which a replacement lost)
		{"If Alice is away, then ask Bob.", "If Bob is away, then ask Alice.", Store, "terms trade places", false},
		{"Wenn Alice krank ist, übernimmt Bob.", "Wenn Bob krank ist, übernimmt Alice.", Store, "terms trade places", false},
		// the two ends of one relation swapped: maybe a second fact as
		// true as the first, so stored beside, never a replacement (a red
		// team's failover and migration pairs)
		{"Replica db2 takes over after db1 fails.", "Replica db1 takes over after db2 fails.", Store, "terms trade places", false},
		{"Migriere die Pipelines von GitLab nach GitHub.", "Migriere die Pipelines von GitHub nach GitLab.", Store, "terms trade places", false},
		{"The frontend calls the backend over gRPC.", "The backend calls the frontend over gRPC.", Store, "terms trade places", false},
		{"Le service A appelle le service B.", "Le service B appelle le service A.", Store, "terms trade places", false},
		{"Services talk JSON over HTTP.", "Services talk HTTP over JSON.", Store, "terms trade places", false},
		// ranked by what joins them, or each in a slot of its own: the
		// swap reverses
		{"Run unit tests before integration tests.", "Run integration tests before unit tests.", Conflict, "swaps two terms", false},
		{"Use Go for the server and Rust for the CLI.", "Use Rust for the server and Go for the CLI.", Conflict, "swaps two terms", false},
		{"db1 is the primary and db2 is the standby.", "db2 is the primary and db1 is the standby.", Conflict, "swaps two terms", false},
		{"Prefer the Postgres driver over the MySQL driver.", "Prefer the MySQL driver over the Postgres driver.", Conflict, "reversal", false},
		{"Composition over inheritance.", "Inheritance over composition.", Conflict, "reversal", false},
		// a negator added inside a condition says when the rule holds: no
		// reversal (a red team's "signs off"); outside one it reverses
		{"Deploy the web app on Fridays.", "Deploy the web app on Fridays as long as QA signs off.", Store, "", false},
		{"Deploy the web app on Fridays.", "Deploy the web app on Fridays once QA signs off.", Store, "", false},
		{"Run tests with -race.", "Never run tests with -race on CI; it is too slow.", Conflict, "reversal with extra words", false},
		{"Use pnpm in place of npm.", "Use npm in place of pnpm.", Conflict, "swaps two terms", false},
		{"Bevorzuge Tabs gegenüber Leerzeichen.", "Bevorzuge Leerzeichen gegenüber Tabs.", Conflict, "swaps two terms", false},
		// a red team's: terms on either side of a condition, however the
		// rest ranks them, state a second rule as often as a reversal
		{"When db1 is down, db2 is primary.", "When db2 is down, db1 is primary.", Store, "terms trade places", false},
		{"If db1 is not reachable, use db2.", "If db2 is not reachable, use db1.", Store, "terms trade places", false},
		{"When db1 fails, alert the DBA. Then promote db2.", "When db2 fails, alert the DBA. Then promote db1.", Store, "terms trade places", false},
		{"db1が落ちたら、db2がプライマリになる。", "db2が落ちたら、db1がプライマリになる。", Store, "terms trade places", false},
		{"如果Alice不在，由Bob审批。", "如果Bob不在，由Alice审批。", Store, "terms trade places", false},
		{"Kopiere die Backups täglich Berlin nach Frankfurt.", "Kopiere die Backups täglich Frankfurt nach Berlin.", Store, "terms trade places", false},
		{"Replica 1 takes over when replica 2 is down.", "Replica 2 takes over when replica 1 is down.", Store, "terms trade places", false},
		{"Port 8080 forwards to port 9090.", "Port 9090 forwards to port 8080.", Store, "terms trade places", false},
		{"Alice sait que Bob est en astreinte cette semaine.", "Bob sait que Alice est en astreinte cette semaine.", Store, "terms trade places", false},
		// the same set of words, one of them said more often: a skip would
		// drop a second fact
		{"The staging bucket mirrors the prod bucket, and the prod bucket is read-only.", "The prod bucket mirrors the staging bucket, and the staging bucket is read-only.", Store, "terms trade places", false},
		{"The EU cluster backs up to the US cluster. The US cluster backs up to Asia.", "The US cluster backs up to the EU cluster. The EU cluster backs up to Asia.", Store, "terms trade places", false},
		// one term swapped in each place it stands: a second fact, not an
		// update that would replace the first (issue 27's sixth set)
		{"Load the VAN mode map before starting VAN mode.", "Load the PLAN mode map before starting PLAN mode.", Store, `sibling: "van" vs "plan"`, false},
		{"Translations exist for fr and de.", "Translations exist for fr and es.", Store, `sibling: "fr de" vs "fr es"`, false},
		{"Release notes are reviewed by legal before publishing.", "Release notes are reviewed by qa before publishing.", Store, `sibling: "" vs "qa"`, false},
		// opposites without a prefix
		{"The dev server works with HTTP/2 enabled.", "The dev server breaks with HTTP/2 enabled.", Conflict, "reversal", false},
		{"Use optimistic locking for cart updates.", "Use pessimistic locking for cart updates.", Conflict, "reversal", false},
	}
	for _, tt := range tests {
		v := Classify(Analyze(tt.old), Analyze(tt.new), defaultTh)
		if v.Action != tt.action || v.Reason != tt.reason || v.Exact != tt.exact {
			t.Errorf("Classify(%q, %q) = %+v, want %s %q exact=%v", tt.old, tt.new, v, tt.action, tt.reason, tt.exact)
		}
	}
}

func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b []string
		want float64
	}{
		{nil, nil, 0},
		{[]string{"a"}, nil, 0},
		{[]string{"a", "b"}, []string{"a", "b"}, 1},
		{[]string{"a", "b", "c"}, []string{"b", "c", "d"}, 0.5},
	}
	for _, tt := range tests {
		if got := Jaccard(tt.a, tt.b); got != tt.want {
			t.Errorf("Jaccard(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDecide(t *testing.T) {
	texts := func(ss ...string) []*Text {
		out := make([]*Text, len(ss))
		for i, s := range ss {
			out[i] = Analyze(s)
		}
		return out
	}
	tests := []struct {
		name     string
		existing []*Text
		new      string
		match    int
		action   Action
	}{
		{"empty list", nil, "Anything at all", -1, Store},
		{"nothing related", texts("Use Renovate for dependency updates"), "Keep secrets in the vault", -1, Store},
		{"related but below update", texts("Use Renovate for dependency updates", "PDF invoices are rendered by the documents worker"),
			"PDF invoices are archived nightly by the documents worker", 1, Store},
		{"first exact wins at once", texts("Always run database seeds in CI", "run database seeds in CI!", "Run database seeds in CI"),
			"Run database seeds in CI", 1, Skip},
		{"conflict beats skip", texts("Run database seeds in CI every time", "Never run database seeds in CI"),
			"Always run database seeds in CI", 1, Conflict},
		{"skip beats an earlier, equally similar update", texts("Target Android API level 34", "Always target Android API level 33"),
			"Target Android API level 33", 1, Skip},
		{"ties go to the earliest", texts("Paginate list endpoints with cursors", "Paginate list endpoints with offsets"),
			"Paginate list endpoints", 0, Update},
	}
	for _, tt := range tests {
		match, v := Decide(Analyze(tt.new), tt.existing, defaultTh)
		if match != tt.match || v.Action != tt.action {
			t.Errorf("%s: Decide = %d %+v, want %d %s", tt.name, match, v, tt.match, tt.action)
		}
	}
}

// TestAntonymPairsAreOpposites: every word of the table has one sign, so
// that no word opposes itself or lands in two groups.
func TestAntonymPairsAreOpposites(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range antonymGroups {
		for _, w := range strings.Fields(g[0] + " " + g[1]) {
			if seen[w] {
				t.Errorf("%q is in two groups", w)
			}
			seen[w] = true
		}
	}
	for w, g := range antonymPairs {
		if antonyms(w, w) {
			t.Errorf("%q opposes itself (group %d)", w, g)
		}
	}
	for _, p := range [][2]string{{"works", "fails"}, {"succeeds", "breaks"}, {"optimistic", "pessimistic"}, {"erlaubt", "verboten"}} {
		if !antonyms(p[0], p[1]) || !antonyms(p[1], p[0]) {
			t.Errorf("%q / %q: not read as opposites", p[0], p[1])
		}
	}
}
