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
		// "after" stays a flip of the sign as HackLM reads it: reading it
		// as a place in time alone replaced true steps of a procedure
		// and missed reversals (a red team's, against 2c61c4e)
		{"Run npm install after pulling.", "Never run npm install in CI.", Store, `sibling: "pulling" vs "ci"`, false},
		{"Enable maintenance mode for database migrations.", "Disable maintenance mode after database migrations.", Store, "", false},
		{"Revert the deploy after a failed health check.", "Keep the deploy on a failed health check.", Conflict, "reversal", false},
		// "to prevent X" is a purpose, no negation: reading it as one
		// erased a rule and replaced a true fact (a red team's)
		{"Never commit .env files.", "Commit .env files to prevent missing config in CI.", Store, "", false},
		{"Enable rate limiting on the login endpoint to prevent abuse.", "Disable rate limiting on the login endpoint.", Conflict, "reversal with extra words", false},
		{"The WAF bans IPs after 100 failed logins.", "The WAF logs IPs after 100 failed logins.", Store, `sibling: "bans" vs "logs"`, false},
		// a word that says the negation in its meaning ("prevent",
		// "unchanged") against a negator: the words cannot tell a
		// restatement from a reversal, so the new text replaces the old
		// with no reversal claimed (issue 27's ninth and thirteenth sets);
		// any other word the affirmative side adds leaves a reversal
		{"Use the `stable` toolchain, prevent using `nightly` toolchains.", "Use the stable toolchain; do not use nightly toolchains.", Update, "polarity in other words", false},
		{"Do not modify the imported upstream SQLite golden tests for Turso behavior changes.", "Keep the imported upstream SQLite golden tests unchanged when Turso behavior changes.", Update, "polarity in other words", false},
		{"Force-pushing to `main` is allowed when CI is green.", "Force-pushing to `main` is forbidden.", Conflict, "reversal with extra words", false},
		// an aside that rejects code and is the text's only negation adds
		// detail where the other text names none of that code (a real
		// instruction file's, issue 27); where it does, or where the aside
		// holds words, it reverses as before
		{"Always run `npm run fmt:fix` before commits.", "Always run `npm run fmt:fix` (NOT `npm run lint:fix`) before commits.", Update, "adds detail", false},
		{"Run `npm run lint:fix` before commits.", "Always run `npm run fmt:fix` (not `npm run lint:fix`) before commits.", Conflict, "reversal", false},
		{"Always run `npm run fmt:fix` (not `npm run lint:fix`) before commits.", "Run `npm run lint:fix` before commits.", Conflict, "reversal", false},
		{"Run `make test` and `make lint` before pushing.", "Run `make test` before pushing (not `make lint`).", Conflict, "reversal", false},
		{"Use npm for installs.", "Use `pnpm` for installs (not `npm`).", Conflict, "reversal with extra words", false},
		{"Never use `npm` for installs.", "Use `pnpm` for installs (not `npm`).", Update, "", false},
		{"Run the tests before commits.", "Run the tests (not any longer) before commits.", Conflict, "reversal with extra words", false},
		// two calls claim no reversal: each is something the project
		// writes; a setting reverses
		{"`console.log(\"Task succeeded\", ctx.task.id);`", "`console.log(\"Task failed\", ctx.task.id);`", Store, "two lines of code", false},
		{"`tls_verify: on`", "`tls_verify: off`", Conflict, "reversal", false},
		{"Run `make test`.", "Never run `make test`.", Conflict, "reversal", false},
		{"Do not use the system Python or pip.", "Use the system Python and pip directly.", Conflict, "reversal with extra words", false},
		// a negation in an aside stays a reversal: read as an exception,
		// "(not any longer)" and "(not since v3)" revoked rules unclaimed
		// (a red team's)
		{"Run the migrations (never in production).", "Run the migrations in production.", Conflict, "reversal", false},
		{"Run the migrations in production.", "Run the migrations (never in production).", Conflict, "reversal", false},
		// a negation moved to the other sentence reverses both: a skip
		// lost it (a red team's); moved with its words, it says the same
		{"Build on Linux runners; never build on macOS runners.", "Never build on Linux runners; build on macOS runners.", Conflict, "moves a negation to another sentence", false},
		{"Never deploy on Fridays; deploy on Mondays.", "Deploy on Mondays; never deploy on Fridays.", Skip, "", false},
		// under a condition or in a question the two may both hold: kept
		// beside, never skipped nor replaced (a red team's)
		{"If CI is red: do not merge.", "If CI is not red: merge.", Store, "a negation in another sentence", false},
		{"Build on Linux runners; never build on macOS runners.", "Never build on Linux runners; build on macOS runners?", Store, "a negation in another sentence", false},
		// in one sentence, words in another order are still a rewording
		{"Don't use mocks for the database.", "For the database, avoid mocks.", Update, "", false},
		// Portuguese "não" negates (a red team's: "Não use …" was skipped)
		{"Use o pnpm para instalar dependências.", "Não use o pnpm para instalar dependências.", Conflict, "reversal", false},
		{"Use pnpm; nunca use npm.", "Use npm; não use pnpm.", Conflict, "swaps two terms", false},
		// negative concord: "não … jamais", "no … nunca" say one negation
		{"Nunca exponha variáveis de ambiente nem deixe portas abertas.", "Não deixe portas abertas e jamais exponha variáveis de ambiente.", Update, "", false},
		{"Não use o npm.", "Não use nunca o npm.", Skip, "", false},
		{"Usa siempre `var` en los scripts.", "No uses nunca `var` en los scripts.", Conflict, "reversal with extra words", false},
		// two terms trading places trade the polarity of negators that
		// stay where they were
		{"Use yarn; never use npm.", "Use npm; never use yarn.", Conflict, "swaps two terms", false},
		// issue 27's eighth set labels these updates, and a red team's
		// pairs of the same shape are two true facts ("Never edit
		// packages/api/generated by hand" / "… packages/web/…", two RFCs,
		// two locales a site supports): words cannot tell a folder renamed
		// from a second folder, so both are kept and the pair reported
		{"Storefront customers live in features/crm.", "Storefront customers live in features/customer.", Store, `sibling: "featurescrm" vs "featurescustomer"`, false},
		{"Never edit packages/api/generated by hand.", "Never edit packages/web/generated by hand.", Store, `sibling: "packagesapigenerated" vs "packageswebgenerated"`, false},
		{"cspell uses the en-GB locale.", "cspell uses the en-US locale.", Store, `sibling: "en-gb" vs "en-us"`, false},
		{"The HTTP client implements RFC7231.", "The HTTP client implements RFC6265.", Store, `sibling: "rfc7231" vs "rfc6265"`, false},
		{"Use TypeScript strict mode in `src/`.", "Use TypeScript strict mode in `scripts/`.", Store, `sibling: "src" vs "scripts"`, false},
		{"Publish order events to queue0.", "Publish order events to queue1.", Store, `sibling: "queue0" vs "queue1"`, false},
		{"Add new parameters to configs/first_minute.yaml.", "Add new parameters to configs/first_minute.toml.", Store, `sibling: "configsfirstminuteyaml" vs "configsfirstminutetoml"`, false},
		{"Run make lint in packages/api before pushing.", "Run make lint in packages/web before pushing.", Store, `sibling: "packagesapi" vs "packagesweb"`, false},
		// a list with a part more is no form of the same word
		{"Commit <type> is one of feat/fix/chore/docs/ref.", "Commit <type> is one of feat/fix/chore/docs/ref/test.", Store, `sibling: "featfixchoredocsref" vs "featfixchoredocsreftest"`, false},
		// another file in the same frame is a second fact, never a
		// rewording or a form of the first (issue 27's sixth set)
		{"单聊 SSE 流式处理逻辑放在 session.stream.friend.ts。", "群聊 SSE 流式处理逻辑放在 session.stream.group.ts。", Store, `sibling: "session.stream.friend.ts" vs "session.stream.group.ts"`, false},
		{"涉及配置变更时必须更新 README.md。", "涉及配置变更时必须更新 docs/ 下的文档。", Store, `sibling: "README.md" vs "docs/"`, false},
		{"Project config is loaded from crushrc and crush.json.", "Project config is loaded from crush.sh and crush.json.", Store, `sibling: "crushrc" vs "crushsh"`, false},
		// a red team's: a value more or less in a list is no duplicate;
		// the same words at another time or threshold are a second fact
		{"The SDK supports Python 3.9, 3.10, 3.11 and 3.12.", "The SDK now supports Python 3.10, 3.11 and 3.12.", Update, "values differ", false},
		{"Wir unterstützen Java 11, 17 und 21.", "Wir unterstützen jetzt Java 17 und 21.", Update, "values differ", false},
		{"The policy engine runs fail-open below 100 rps.", "The policy engine runs fail-closed above 100 rps.", Store, `sibling: "fail-open" vs "fail-closed"`, false},
		{"Before the cache warms up the auth proxy is enabled.", "After the cache warms up the auth proxy is disabled.", Store, "", false},
		{"Der Gastmodus im Portal ist vor dem Login aktiv.", "Der Gastmodus im Portal ist nach dem Login deaktiviert.", Store, "", false},
		{"Writes are allowed before the freeze.", "Writes are forbidden after the freeze.", Store, "", false},
		{"Logging is enabled during deploy.", "Logging is disabled after deploy.", Store, "", false},
		{"JS/TS-Linting mit eslint ist aktiv.", "JS/TS-Linting mit eslint ist deaktiviert.", Conflict, "reversal", false},
		{"Services de sécurité : fail-open en production.", "Services de sécurité : fail-closed en production.", Conflict, "reversal", false},
		// issue 27's eleventh set: opposites with no second sense, and
		// Japanese "not" after the verb: a permission and its prohibition
		// were a skip, which dropped the new rule; the new one now
		// replaces the old (Chinese and Japanese Cores are character
		// pairs, so the reversal is not read as one)
		{"Prefer verbose variable names.", "Prefer terse variable names.", Conflict, "reversal", false},
		{"Сервис уведомлений включён по умолчанию.", "Сервис уведомлений выключен по умолчанию.", Conflict, "reversal", false},
		{"ログにメールアドレスを出力してよい。", "ログにメールアドレスを出力してはならない。", Update, "", false},
		{"ビルドには pnpm を使う。", "ビルドには pnpm を使わない。", Update, "", false},
		{"テストは CI で実行しなければならない。", "テストは CI で実行する必要がある。", Store, "", false},
		{"デプロイ前にテストを実行しなければなりません。", "デプロイ前にテストを実行しません。", Conflict, "reversal", false},
		{"このテストは失敗するかもしれない。", "このテストは失敗しない。", Store, "", false},
		// issue 27's twelfth set: an option swapped and rejected with the
		// frame both texts share is replaced as an update, not logged as a
		// reversal: every reading of it as one that four red teams tried
		// also deleted true facts ("Merge release pull requests with a
		// merge commit instead of squash", "~~Use the admin token … instead
		// of the read-only token~~"); a second fact that merely names the
		// old option is kept beside it
		{"Use PowerShell for all terminal commands.", "Use bash for all terminal commands instead of PowerShell.", Update, "", false},
		// nearly the same words, one rejecting what the other uses: a skip
		// dropped the new text (issue 27's fifteenth set)
		{"Format with `black instructor examples tests`.", "Format with `ruff format instructor examples tests`, not Black.", Update, "", false},
		{"Write new documentation in German.", "Write new documentation in English rather than German.", Update, "adds detail", false},
		{"Use pnpm, not npm.", "Use pnpm rather than npm in CI.", Update, "adds detail", false},
		{"Use black for formatting and flake8 for linting.", "Use ruff for linting instead of flake8.", Store, "", false},
		// restrictive/permissive also name two lists ("a list of permissive
		// licenses", a red team's): a swap there is a sibling
		{"O painel /admin usa um perfil de rate limit mais restritivo.", "O painel /admin usa um perfil de rate limit mais permissivo.", Store, `sibling: "restritivo" vs "permissivo"`, false},
		// a red team's: a scope more, a rejected option with a scope, a
		// question, "not only", a scoped opposite: none reverses, and
		// replacing the old text lost it
		{"Merge pull requests with squash.", "Merge release pull requests with a merge commit instead of squash.", Store, "", false},
		{"Merge release pull requests with a merge commit instead of squash.", "Merge pull requests with squash.", Store, "", false},
		{"CI runs on GitHub Actions.", "Nightly CI runs on Buildkite instead of GitHub Actions.", Store, "", false},
		{"Store uploads in S3.", "Store uploads in MinIO instead of S3 in CI.", Store, "", false},
		{"Use PostgreSQL for the database.", "Could we use MySQL for the database instead of PostgreSQL?", Store, "", false},
		{"The CORS policy is restrictive.", "Is the CORS policy permissive?", Store, `sibling: "restrictive" vs "permissive"`, false},
		{"Direct pushes to main are allowed. Why? Speed.", "Direct pushes to main are forbidden.", Conflict, "reversal with extra words", false},
		{"Use bash for all scripts.", "You may use zsh for all scripts instead of bash.", Store, "", false},
		{"Use bash for all scripts.", "Use zsh for all scripts, not instead of bash.", Store, "", false},
		{"Benachrichtige Slack, wenn ein Feature aktiviert wird.", "Benachrichtige Slack, wenn ein Feature deaktiviert wird.", Store, `sibling: "aktiviert" vs "deaktiviert"`, false},
		{"Use PowerShell for all terminal commands.", "Use bash for all terminal commands instead of PowerShell? No, the user rejected that.", Store, "", false},
		{"The CORS policy is restrictive.", "The CORS policy is permissive in CI.", Store, "", false},
		{"Das Caching ist aktiviert.", "Das Caching ist in CI deaktiviert.", Store, `sibling: "aktiviert" vs "ci deaktiviert"`, false},
		{"Use PowerShell for all terminal commands.", "Use bash for all terminal commands, not only PowerShell.", Update, "", false},
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
