package rules

import (
	"strings"
	"testing"
)

// TestConflictSeverity: every reversal is information (issue 27: on real
// instruction files read as memory, every conflict warning was false); a
// plain one (want Warning) is told from one the words cannot be sure of
// (want Information), whose message says why.
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
		// headings over the rules that follow, checklists' items, lists'
		// marks (issue 27's tuning pool of real instruction files)
		{"When to use", "When NOT to use", Information},
		{"Before Creation", "After Creation", Information},
		{"Words and phrases TO use", "Words and phrases to AVOID", Information},
		{"Use Context For", "DON'T Use Context For", Information},
		{"允许的目录操作", "禁止的目录操作", Information},
		{"✅ Do This Instead", "❌ Don't Do This", Information},
		{"Success criteria met", "[ ] Success criteria not met", Information},
		{"❌ 依赖第三方服务", "**不要依赖第三方服务**", Information},
		{"No `*` in CORS origins (production)", "❌ `*` in CORS origins (production)", Information},
		// an aside, a practice with what to do instead, a heading behind
		// a list's mark (issue 27's labelled files sets)
		{"**Impact: LOW**", "**Impact: LOW (avoids re-creation)**", Information},
		{"**DO NOT** use `go build -v` directly; use `make check-build` instead.", "Using `go build -v` directly (use `make check-build` instead)", Information},
		{"✅ 允许的操作", "❌ 禁止的操作", Information},
		{"✅ 应该添加的文件", "❌ 不应该添加的文件", Information},
		// still reversals, a red team's among them
		{"Use tabs (in Go files).", "Never use tabs (in Go files).", Warning},
		{"Using tabs in Go files is fine.", "Using tabs in Go files is forbidden.", Warning},
		{"When deploying, run the migrations first.", "When deploying, never run the migrations first.", Warning},
		{"Squash commits", "Never squash commits", Warning},
		{"Semicolons required", "Semicolons not required", Warning},
		{"When in doubt ask", "When in doubt never ask", Warning},
		{"Note: we squash merge PRs", "Note: we never squash merge PRs", Warning},
		{"Package manager: pnpm", "Package manager: not pnpm", Warning},
		{"✅ Use pnpm", "Never use pnpm", Warning},
		{"❌ Never push to main", "Always push to main.", Warning},
		{"修改生成的代码", "不要修改生成的代码", Warning},
		{"Agents are allowed to commit", "Agents are not allowed to commit", Warning},
		{"Use tabs", "No tabs", Warning},
		{"使用 pnpm", "不要使用 pnpm", Warning},
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
		// The rule is information by default; a pair the words cannot
		// tell says why in its message's last parentheses, and would stay
		// information at any severity (want Information), the others are
		// plain reversals (want Warning).
		src := "# Decisions\n\n- " + tc.a + "\n- " + tc.b + "\n"
		got := check(t, src, "conflict")
		if len(got) != 1 || got[0].Severity != Information || strings.HasSuffix(got[0].Message, ")") != (tc.want == Information) {
			t.Errorf("%q / %q: %+v, want one conflict read as %v", tc.a, tc.b, got, tc.want)
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
		{"When to use", true},
		{"When primordials ARE required", false}, // four words: "When in doubt ask" is a rule
		{"When deploying, run the migrations first", false},
		{"| All risks low | No |", true},
		{"Scope", false}, // a few words may be a rule: "Squash commits" (a red team's)
		{"No tabs", false},
		{"Files to avoid", true},
		{"Remember to use pnpm", false},
		{"Agents are allowed to use `gh`", false},
		{"使用 pnpm 的 workspace", false},
		{"必须使用严格模式的配置", false},
		{"不应该添加的文件", true},
		{"Don't Do This", true},
		{"Don't do this in production.", false},
		{"修改生成的代码", false},
		{"Note: never push to `main`.", false},
		{"Package manager: use pnpm, not npm.", false},
		{"**NO NEW MARKDOWN IN ROOT**: Never create new markdown files in the root directory.", false},
		{"[代码目录]/", false}, // the slug is not the entry's text
		{"/", true},
	} {
		if got := statesNoRule(tc.text); got != tc.want {
			t.Errorf("statesNoRule(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestQuestionInEmphasisReversesNothing: a question mark before closing
// emphasis still ends a question ("**Why enable SSR?**").
func TestQuestionInEmphasisReversesNothing(t *testing.T) {
	src := "# Decisions\n\n- **Why enable SSR?**\n- **Why disable SSR?**\n"
	if got := check(t, src, "conflict"); len(got) != 0 {
		t.Errorf("two questions: %+v, want no conflict", got)
	}
}
