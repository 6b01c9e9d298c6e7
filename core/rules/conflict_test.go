package rules

import (
	"strings"
	"testing"
)

// TestConflictSeverity: every reversal is information (issue 27: on real
// instruction files read as memory, every conflict warning was false); a
// plain one is told from one the words cannot be sure of, whose message
// says why.
func TestConflictSeverity(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		// plain: a reversal the words are sure of; else the message
		// says why it may be none
		plain bool
	}{
		{"Always squash merge pull requests.", "Never squash merge pull requests.", true},
		{"Use `pnpm` for installs.", "Do not use `pnpm` for installs.", true},
		{"Use Tailwind CSS", "Do not use Tailwind CSS.", true},
		{"Avoid inline styles.", "Write inline styles.", true},
		// a line of code, a lead-in, a title
		{"`# Quarantine and push to an existing PR`", "`# Unquarantine and push to an existing PR`", false},
		{"**When to log:**", "**Do not log:**", false},
		{"Things to Do", "Things NOT to Do", false},
		{"📤 Response (200 OK) - Tem Permissão", "📤 Response (200 OK) - Não Tem Permissão", false},
		// a negation about words only one says
		{"Triggers multiple runs of a single task with different payloads.", "Triggers multiple runs of a single task with different payloads without importing the task.", false},
		// a link, a mapping, a practice an anti-pattern list names
		{"禁止行為", "[禁止行為](#禁止行為)", false},
		{"`ComObject()` not `ComObjCreate()`", "`ComObjCreate()` → `ComObject()`", false},
		{"No mocking the database in integration tests. Use Testcontainers.", "Mocking the database in integration tests. Use Testcontainers.", false},
		// a negation that says when, a label that agrees, a state's name
		{"Work is not done until the release tag is pushed.", "**When closing a task**, you must finish every step below. Work is not done until the release tag is pushed.", false},
		{"Never create new markdown files in the root directory.", "**NO NEW MARKDOWN IN ROOT**: Never create new markdown files in the root directory.", false},
		{"Show a loading state if one exists.", "Show a disabled state if one exists.", false},
		// other words besides the sign: shown, not counted (a red team
		// called them reversals; the words cannot be sure)
		{"Use `npm install` in this repo.", "`npm install` → never", false},
		// headings over the rules that follow, checklists' items, lists'
		// marks (issue 27's tuning pool of real instruction files)
		{"When to use", "When NOT to use", false},
		{"Before Creation", "After Creation", false},
		{"Words and phrases TO use", "Words and phrases to AVOID", false},
		{"Use Context For", "DON'T Use Context For", false},
		{"允许的目录操作", "禁止的目录操作", false},
		{"✅ Do This Instead", "❌ Don't Do This", false},
		{"Success criteria met", "[ ] Success criteria not met", false},
		{"❌ 依赖第三方服务", "**不要依赖第三方服务**", false},
		{"No `*` in CORS origins (production)", "❌ `*` in CORS origins (production)", false},
		// an aside, a practice with what to do instead, a heading behind
		// a list's mark (issue 27's labelled files sets)
		{"**Impact: LOW**", "**Impact: LOW (avoids re-creation)**", false},
		{"**DO NOT** use `go build -v` directly; use `make check-build` instead.", "Using `go build -v` directly (use `make check-build` instead)", false},
		{"✅ 允许的操作", "❌ 禁止的操作", false},
		{"✅ 应该添加的文件", "❌ 不应该添加的文件", false},
		// still reversals, a red team's among them
		{"Use tabs (in Go files).", "Never use tabs (in Go files).", true},
		{"Using tabs in Go files is fine.", "Using tabs in Go files is forbidden.", true},
		{"When deploying, run the migrations first.", "When deploying, never run the migrations first.", true},
		{"Squash commits", "Never squash commits", true},
		{"Semicolons required", "Semicolons not required", true},
		{"When in doubt ask", "When in doubt never ask", true},
		{"Note: we squash merge PRs", "Note: we never squash merge PRs", true},
		{"Package manager: pnpm", "Package manager: not pnpm", true},
		{"✅ Use pnpm", "Never use pnpm", true},
		{"❌ Never push to main", "Always push to main.", true},
		{"修改生成的代码", "不要修改生成的代码", true},
		{"Agents are allowed to commit", "Agents are not allowed to commit", true},
		{"Use tabs", "No tabs", true},
		{"使用 pnpm", "不要使用 pnpm", true},
		{"Mocking the database in integration tests is fine.", "Mocking the database in integration tests is forbidden.", true},
		// a red team's: words that look like these forms and reverse
		{"Always run migrations in CI.", "[Never run migrations in CI](#ci)", true},
		{"`moment` → `date-fns`", "`date-fns` → `moment`", true},
		{"Keep this enabled in production.", "Keep this disabled in production.", true},
		{"Never cache API responses in Redis.", "Caching API responses in Redis: do it.", true},
		{"Mock the database in integration tests.", "Mocking the database in integration tests: avoid.", true},
		{"Merge pull requests after review.", "Do not merge pull requests after review.", true},
		{"Deploy on Fridays.", "Never deploy on Fridays.", true},
	} {
		// The rule is information; a pair the words cannot tell says
		// why in its message's last parentheses.
		src := "# Decisions\n\n- " + tc.a + "\n- " + tc.b + "\n"
		got := check(t, src, "conflict")
		if len(got) != 1 || got[0].Severity != Information || strings.HasSuffix(got[0].Message, ")") == tc.plain {
			t.Errorf("%q / %q: %+v, want one conflict at information, plain %v", tc.a, tc.b, got, tc.plain)
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
