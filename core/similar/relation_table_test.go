package similar

import "testing"

// TestRelationTable holds the store decision for pairs of entries written for
// this test, across the scripts memory files are written in: a true
// duplicate is skipped, a changed value or a rewording is an update, a
// substituted term is a sibling (a second fact, stored beside), and a
// reversal — by sign, by word order or with words added — is a conflict.
func TestRelationTable(t *testing.T) {
	const (
		dup      = "skip"
		update   = "update"
		sibling  = "sibling"
		conflict = "conflict"
		store    = "store"
	)
	tests := []struct {
		old, new, want string
	}{
		// English siblings: one term replaced
		{"Run eslint on frontend changes", "Run eslint on backend changes", sibling},
		{"Snapshot tests break on Windows", "Snapshot tests break on macOS", sibling},
		{"Pin Terraform provider versions", "Pin Terraform module versions", sibling},
		{"Lint YAML files in the charts folder", "Lint JSON files in the charts folder", sibling},
		{"Use Postgres for the billing service data store", "Use MySQL for the billing service data store", sibling},
		{"Deploy the marketing site with the Vercel CLI", "Deploy the marketing site with the Netlify CLI", sibling},
		{"The staging cluster runs on spot instances", "The preview cluster runs on spot instances", sibling},
		{"Nightly crash dumps are uploaded to the ops bucket in the shared account", "Nightly crash dumps are uploaded to the ops bucket in the billing account", sibling},
		// below the update threshold: a sibling all the same (issue 27)
		{"Run eslint on frontend changes", "Run eslint on design system changes", sibling},
		{"Format Go code with gofmt before committing", "Format Go code with goimports before committing", sibling},
		// English values: updates
		{"Run the legacy reporting service on Java 1.8", "Run the legacy reporting service on Java 17", update},
		{"The API listens on port 8080 in development", "The API listens on port 9090 in development", update},
		{"Primary database lives in eu-west-1", "Primary database lives in eu-central-1", update},
		{"Pin the Helm CLI to 3.14.2", "Pin the Helm CLI to 3.15.0", update},
		{"Keep request timeouts at 30 seconds for the gateway", "Keep request timeouts at 45 seconds for the gateway", update},
		{"Pin Terraform to 1.5.7", "Pin Terraform to 1.9.0", update}, // HackLM's 0.5: a value all the same
		{"Clients call the billing API v2", "Clients call the billing API v3", update},
		// digits in a name are no value: another queue is another fact
		{"Service0x0 owns queue0 exclusively", "Service0x1 owns queue1 exclusively", store},
		// English rewordings and refinements: updates
		{"Paginate list endpoints", "Paginate list endpoints with opaque cursors", update},
		{"Pull request titles start with the Jira ticket key", "Start every pull request title with its Jira key", update},
		{"Helm charts for every service live in deploy/charts", "We keep the Helm charts of every service in deploy/charts", update},
		{"Generated protobuf code lives in gen/ and is never edited by hand", "Never edit the generated protobuf code in gen/ by hand", update},
		// English duplicates: skips
		{"Keep SQL migrations idempotent.", "keep sql migrations idempotent", dup},
		{"Enable cluster auto-scaling for the batch node pool", "Enable cluster autoscaling for the batch node pool", dup},
		{"Use snake_case for Python module names", "use SNAKE_CASE for python module names!", dup},
		{"Regenerate the OpenAPI client after editing openapi.yaml", "After editing openapi.yaml, regenerate the OpenAPI client", dup},
		// adds a word: an update, which loses nothing (issue 27)
		{"Gradle builds need the JAVA_HOME variable", "Gradle builds need the JAVA_HOME environment variable", update},
		{"Strip EXIF metadata from uploaded photos", "Strip EXIF metadata from uploaded photos — always.", dup},
		// English reversals
		{"Always run tests with -race", "Never run tests with -race", conflict},
		{"Always run tests with -race", "Never run tests with -race on CI; it is too slow", conflict},
		{"Run tests with -race.", "Never run tests with -race on CI; it is too slow.", conflict},
		{"Use mocks instead of real services in tests", "Use real services instead of mocks in tests", conflict},
		{"Prefer tabs over spaces in Makefiles", "Prefer spaces over tabs in Makefiles", conflict},
		{"Use pnpm rather than npm for installs", "Use npm rather than pnpm for installs", conflict},
		{"Use not npm but pnpm for installs", "Use not pnpm but npm for installs", conflict},
		{"Use pnpm, not npm, for installs", "Use npm, not pnpm, for installs", conflict},
		{"Use chi for HTTP routing.", "Prefer gorilla/mux over chi for HTTP routing.", conflict},
		{"Run database seeds before the migration step", "Run database seeds after the migration step", conflict},
		{"Enable the query cache in staging", "Disable the query cache in staging", conflict},
		// order words that agree are not reversals
		{"Use mocks, not real services, in unit tests", "Use mocks instead of real services in unit tests", dup},
		{"Prefer dataclasses over plain dicts for structured records", "Structured records should be dataclasses rather than plain dicts", update},
		{"Prefer tabs over spaces in Makefiles", "Never prefer spaces over tabs in Makefiles", dup},
		// a negation that reverses nothing
		{"The iOS simulator ignores remote push notifications", "Remote push notifications never arrive in the iOS simulator", update},
		// unrelated
		{"Use Renovate for dependency updates", "The billing PDF renderer needs the Noto fonts installed", store},

		// French
		{"Toujours valider les entrées utilisateur", "Toujours valider les entrées du formulaire", sibling},
		{"Exécuter les tests du backend avant chaque fusion", "Exécuter les tests du frontend avant chaque fusion", sibling},
		{"Le serveur écoute sur le port 8080", "Le serveur écoute sur le port 3000", update},
		{"Toujours valider les entrées utilisateur", "toujours valider les entrées utilisateur.", dup},
		{"Utilisez pnpm plutôt que npm", "Utilisez npm plutôt que pnpm", conflict},
		{"Utilisez pnpm au lieu de npm pour les installations", "Utilisez npm au lieu de pnpm pour les installations", conflict},
		{"Activer le cache des requêtes en recette", "Ne jamais activer le cache des requêtes en recette", conflict},
		// German
		{"Immer die Eingaben des Benutzers prüfen", "Immer die Eingaben des Formulars prüfen", sibling},
		{"Die Datenbank läuft in Frankfurt", "Die Datenbank läuft in Dublin", sibling},
		{"Die Build-Zeit darf 10 Minuten nicht überschreiten", "Die Build-Zeit darf 15 Minuten nicht überschreiten", update},
		{"Verwende pnpm statt npm", "Verwende npm statt pnpm", conflict},
		{"Verwende nicht npm, sondern pnpm", "Verwende nicht pnpm, sondern npm", conflict},
		{"Tests immer mit dem Race-Detektor ausführen", "Tests nie mit dem Race-Detektor ausführen", conflict},
		// Russian
		{"Запускайте линтер перед каждым коммитом", "Запускайте линтер перед каждым релизом", sibling},
		{"Логи хранятся в каталоге logs проекта", "Логи хранятся в каталоге tmp проекта", sibling},
		{"Используйте pnpm, а не npm", "Используйте npm, а не pnpm", conflict},
		{"Используйте pnpm вместо npm", "Используйте npm вместо pnpm", conflict},
		{"Всегда запускайте тесты с флагом race", "Никогда не запускайте тесты с флагом race", conflict},
		{"Сервис слушает порт 8080", "Сервис слушает порт 8081", update},
		{"Запускайте линтер перед каждым коммитом", "запускайте линтер перед каждым коммитом!", dup},
		// Vietnamese
		{"Luôn chạy kiểm thử trước khi đẩy mã", "Luôn chạy kiểm thử trước khi phát hành", sibling},
		{"Dùng pnpm thay vì npm", "Dùng npm thay vì pnpm", conflict},
		{"Dùng pnpm chứ không phải npm", "Dùng npm chứ không phải pnpm", conflict},
		{"Máy chủ chạy trên cổng 8080", "Máy chủ chạy trên cổng 9000", update},
		// Chinese
		{"在前端改动后运行 eslint", "在后端改动后运行 eslint", sibling},
		{"用户输入必须在服务端校验", "表单输入必须在服务端校验", sibling},
		{"使用模拟对象而不是真实服务进行测试", "使用真实服务而不是模拟对象进行测试", conflict},
		{"不是npm而是pnpm", "不是pnpm而是npm", conflict},
		{"总是启用查询缓存", "不要启用查询缓存", conflict},
		{"发布前更新变更日志", "发布前更新变更日志。", dup},
		{"发布前更新变更日志", "数据库迁移必须可以回滚", store},
		// Japanese and Korean
		{"npmではなくpnpmを使う", "pnpmではなくnpmを使う", conflict},
		{"フロントエンドの変更後にeslintを実行する", "バックエンドの変更後にeslintを実行する", sibling},
		{"npm 대신 pnpm을 사용한다", "pnpm 대신 npm을 사용한다", conflict},
		// issue 27, second round: a one-term swap at any similarity
		{"Encrypt backups with KMS.", "Encrypt snapshots with KMS.", sibling},
		{"Use Prometheus for metrics in all services.", "Use Datadog for metrics in all services.", sibling},
		{"The iOS simulator drops the first deep link after launch.", "The Android emulator drops the first deep link after launch.", sibling},
		// … but not a predicate swapped at an edge, nor a form of one word
		{"Never commit .env files.", "Never log the contents of .env files.", store},
		{"Keep React components small.", "React components live in src/components.", store},
		{"The staging database resets every night at 02:00 UTC.", "The staging database is reset nightly at 02:00 UTC.", store},
		// quantities in words, with their measures
		{"Retry failed webhook deliveries twice.", "Retry failed webhook deliveries three times.", update},
		{"Wrap lines at eighty columns.", "Wrap lines at one hundred columns.", update},
		{"Keep audit logs for one year.", "Keep audit logs for two years.", update},
		{"JWT access tokens live for 15 minutes.", "JWT access tokens live for half an hour.", update},
		// a name that carries a digit is a name (docs/hacklm.md: queue0, s3bucket)
		{"Publish order events to queue0.", "Publish order events to queue1.", sibling},
		// a name that carries a digit, where the other text has a word
		{"在 Windows 上文件监听要开启 polling 模式。", "在 WSL2 上文件监听要开启 polling 模式。", sibling},
		{"Enable file watching polling on Windows hosts.", "Enable file watching polling on WSL2 hosts.", sibling},
		// a newcomer's trial (issue 28): a form of one word, a short sentence's value
		{"Always run make test before you commit.", "Always run make test before committing.", dup},
		{"Always run make test before committing.", "Never run make test before you commit.", conflict},
		{"Use Go 1.22 for builds.", "Use Go 1.23 for builds.", update},
		// a word and its negation by prefix
		{"The CLI treats command names as case-sensitive.", "The CLI treats command names as case-insensitive.", conflict},
		{"Activer le thème sombre par défaut.", "Désactiver le thème sombre par défaut.", conflict},
		// the same direction in other polarity words, or other verbs
		{"Keep secrets out of the repository.", "Remove secrets from the repository.", update},
		{"Handlers must not call the database directly.", "Handlers may not talk to the database directly.", dup},
		{"Don't create Markdown docs unless the user asks for them.", "Do not create Markdown documents unless the user asks for them.", dup},
		{"CRLF line endings break shellcheck on Windows runners.", "On Windows runners, CRLF line-endings break `shellcheck`.", dup},
		// orders in French and Spanish, a language named with a sign
		{"Utiliser C# plutôt que GDScript pour les scripts Godot.", "Utiliser GDScript plutôt que C# pour les scripts Godot.", conflict},
		{"Usa Postgres en lugar de MySQL.", "Usa MySQL en lugar de Postgres.", conflict},
		// hyphens and spaces read alike
		{"Never hardcode secrets in client-side JavaScript.", "Never hard-code secrets in client side JavaScript!", dup},
		// more detail replaces the old, less detail is a skip
		{"Supported platforms: macOS, Linux and Windows.", "Supported platforms: macOS, Linux, Windows and FreeBSD.", update},
	}
	th := Thresholds{Skip: 0.8, Update: 0.6}
	for _, tt := range tests {
		v := Classify(Analyze(tt.old), Analyze(tt.new), th)
		got := v.Action.String()
		if v.Kind == KindSibling {
			got = sibling
		}
		if got != tt.want {
			t.Errorf("%q → %q: got %s (%s, %.2f, %q), want %s", tt.old, tt.new, got, v.Kind, v.Similarity, v.Reason, tt.want)
		}
	}
	if len(tests) < 60 {
		t.Errorf("the table holds %d pairs; keep at least 60", len(tests))
	}
}
