package refs

import (
	"fmt"
	"strings"
	"testing"
)

// render writes a Ref as "<cited text>=<kind>:<value>", so a case shows both
// the span and what was read from it.
func render(text string, r Ref) string {
	var v string
	switch r.Kind {
	case Path:
		v = "path:" + r.Path
		if r.Dir {
			v += "/"
		}
		if r.Line > 0 {
			v += fmt.Sprintf(":%d", r.Line)
		}
		if r.Soft {
			v += " (soft)"
		}
	case Command:
		v = "cmd:" + r.Tool.String() + " " + r.Target
		if r.In != "" {
			v += " in " + r.In
		}
		if r.Implicit {
			v += " (implicit)"
		}
	case Version:
		v = "version:" + r.Subject + " " + r.Op.String() + r.Version
		if r.Aside {
			v += " (aside)"
		}
		if r.Alt {
			v += " (alt)"
		}
		if r.Compound {
			v += " (compound)"
		}
	}
	return text[r.Start:r.End] + "=" + v
}

func TestExtract(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		// Paths the issue names.
		{"backticked file", "Auth lives in `src/auth/session.ts`.", []string{"src/auth/session.ts=path:src/auth/session.ts"}},
		{"backticked folder", "ADRs go in `docs/adr/`.", []string{"docs/adr/=path:docs/adr/"}},
		{"dot folder", "CI is `.github/workflows/ci.yml`.", []string{".github/workflows/ci.yml=path:.github/workflows/ci.yml"}},
		{"line", "See `cmd/memory-lsp/main.go:42` for flags.", []string{"cmd/memory-lsp/main.go:42=path:cmd/memory-lsp/main.go:42"}},
		{"line and column", "Panics at core/text/pos.go:12:7 on CR.", []string{"core/text/pos.go:12:7=path:core/text/pos.go:12"}},
		{"line range", "Fallback in ET.Transfer.psm1:75-110 is silent.", []string{"ET.Transfer.psm1:75-110=path:ET.Transfer.psm1:75"}},
		{"github line anchor", "See src/app.ts#L10-L20.", []string{"src/app.ts#L10-L20=path:src/app.ts:10"}},
		{"bare file with slash", "Edit dev/docs/DECISIONS.md after each ADR.", []string{"dev/docs/DECISIONS.md=path:dev/docs/DECISIONS.md"}},
		{"bare file name", "Use a lazy singleton in outputChannel.ts.", []string{"outputChannel.ts=path:outputChannel.ts"}},
		{"known root file", "Targets live in the Makefile.", []string{"Makefile=path:Makefile"}},
		{"go.mod and package.json", "Bump go.mod and package.json together.", []string{"go.mod=path:go.mod", "package.json=path:package.json"}},
		{"dotfile", "Single quotes (enforced by `.prettierrc`).", []string{".prettierrc=path:.prettierrc"}},
		{"env example", "Use `.env.example` to list variables.", []string{".env.example=path:.env.example"}},
		{"dotfile variant", "In prod rename `.htaccessprod` to `.htaccess`.", []string{".htaccessprod=path:.htaccessprod", ".htaccess=path:.htaccess"}},
		{"agent folder", "Keep only the skills in `.agents`.", []string{".agents=path:.agents"}},
		{"bare folder with slash", "Keep generated projects in projects/ only.", []string{"projects/=path:projects/"}},
		{"prose src folder", "The simulation lives in src/sim and must stay pure.", []string{"src/sim=path:src/sim"}},
		// "docs" is a word of prose as often as a folder (issue 27's
		// examples and the fourth reference set's): two parts under it
		// are no path in prose; three, a code span or a file are
		{"prose docs words", "Minor docs/typo fixes are fine; future docs/frontend commands too (docs/misc).", nil},
		{"prose docs three parts", "The guide lives in docs/guide/setup and must stay short.", []string{"docs/guide/setup=path:docs/guide/setup"}},
		{"code docs folder", "Keep `docs/guide` in sync.", []string{"docs/guide=path:docs/guide"}},
		{"prose docs file", "Read docs/setup.md first.", []string{"docs/setup.md=path:docs/setup.md"}},
		{"code top folder", "Determinism holds in `src/sim`.", []string{"src/sim=path:src/sim"}},
		{"code three parts", "Handlers are in `server/routes/auth`.", []string{"server/routes/auth=path:server/routes/auth"}},
		{"dot slash", "Run ./gradlew from the root.", []string{"./gradlew=path:gradlew"}},
		{"emphasis", "Read **docs/setup.md** first.", []string{"docs/setup.md=path:docs/setup.md"}},
		{"markdown link", "See [the guide](docs/guide.md).", []string{"docs/guide.md=path:docs/guide.md"}},
		{"quoted", `Config is read from "config/app.yaml".`, []string{"config/app.yaml=path:config/app.yaml"}},
		{"french apostrophe", "Plus d’`index.html`, l'entrée est `index.php`.", []string{"index.html=path:index.html", "index.php=path:index.php"}},
		{"cjk punctuation", "回写三份文档：ET-项目待办事项.md（唯一待办）", []string{"ET-项目待办事项.md=path:ET-项目待办事项.md"}},
		{"cjk folder", "只动 .memory/ 5 个 md", []string{".memory/=path:.memory/"}},
		{"multi-dot name", "Tests in final-output-safety.test.js cover it.", []string{"final-output-safety.test.js=path:final-output-safety.test.js"}},
		{"path in a command line", "Run `go test ./core/refs/` before pushing.", []string{"./core/refs/=path:core/refs/"}},
		{"command output", "Types: `supabase gen types typescript > src/types/supabase.ts`.", nil},
		{"command output flag", "`esbuild src/main.ts -o dist/app.js | tee build.log`", []string{"src/main.ts=path:src/main.ts"}},
		{"script path in a command", "Gate: `tools/Test-ETScripts.ps1 -Fix`.", []string{"tools/Test-ETScripts.ps1=path:tools/Test-ETScripts.ps1"}},
		{"sentence end", "The entry point is main.go.", []string{"main.go=path:main.go"}},
		{"two in a list", "Impact: `index.php`, `.htaccess`, `main.js`.", []string{"index.php=path:index.php", ".htaccess=path:.htaccess", "main.js=path:main.js"}},

		// Never a reference: the list.
		{"url", "Docs at https://example.com/docs/setup.md.", nil},
		{"url in code", "Fetch `https://raw.githubusercontent.com/o/r/main/install.sh`.", nil},
		{"www", "See www.example.com/readme.md.", nil},
		{"absolute path", "Logs go to /var/log/app.log.", nil},
		{"absolute in code", "Endpoint `/api/chat` streams SSE.", nil},
		{"home path", "Config in ~/.config/app/settings.json.", nil},
		{"windows path", `Data in C:\ProgramData\ETWorkbench.`, nil},
		{"glob", "Ignore `*.tmp` files.", nil},
		{"glob in folder", "No Math.random in `src/sim/**`.", []string{"src/sim/=path:src/sim/"}},
		{"glob's deep folder", "Presenters: `apps/web/app/v3/presenters/**/*.server.ts`", []string{"apps/web/app/v3/presenters/=path:apps/web/app/v3/presenters/"}},
		{"glob with placeholder", "Pages in `src/routes/{id}/*.ts`.", nil},
		{"glob without folder", "Ignore `*.tmp` and `**/*.log` and tags `v*.*.*`.", nil},
		{"emphasis is no glob", "- **Voix R2/R4/R5/R7** (2026-07-24): done", nil},
		{"tag glob", "Tags for releases: `v*.*.*`", nil},
		{"glob in prose", "The .memory/*.md files are LF.", []string{".memory/=path:.memory/"}},
		{"placeholder angle", "Create `docs/<name>.md` per ADR.", nil},
		{"placeholder brace", "Routes are `users/{id}/profile.ts`.", nil},
		{"placeholder dots", "Paths use /memories/... form.", nil},
		{"placeholder ellipsis", "Write to `src/…/index.ts`.", nil},
		{"placeholder letter", "Analyse le fichier X dans le dossier projects/Y/ ici.", nil},
		{"placeholder path/to", "Run one file: `npx vitest path/to/file.test.ts`.", nil},
		{"bare extension", "Test-ETScripts.ps1 does not check .md files.", []string{"Test-ETScripts.ps1=path:Test-ETScripts.ps1"}},
		{"bare extension in code", "The `.esk` corpus harvest is local.", nil},
		{"extension list", "Never touched .ps1/.psm1/.xaml files.", nil},
		{"branch prefixes", "Branch from `main`: `feat/`, `fix/`, `docs/`, `refactor/`", nil},
		{"branch name", "Work on `feature/login` until merged.", nil},
		{"owner/repo in code", "Upstream is `DietrichGebert/ponytail`.", []string{"DietrichGebert/ponytail=path:DietrichGebert/ponytail (soft)"}},
		{"root-relative with a slash", "See `/web/src/features/rbac/README.md` for roles.", []string{"/web/src/features/rbac/README.md=path:web/src/features/rbac/README.md (soft)"}},
		{"root alias", "Open `@/openspec/AGENTS.md` first.", []string{"@/openspec/AGENTS.md=path:openspec/AGENTS.md"}},
		{"root alias of a module", "Helpers in `@/lib/utils`.", nil},
		{"route with a slash", "The handler for `/api/users` checks roles.", nil},
		{"system path", "Installs to `/usr/local/bin/tool.sh` and `/etc/app/config.yml`.", nil},
		{"bold folder pair in prose", "**internal-packages/zodworker**: the worker wrapper", []string{"internal-packages/zodworker=path:internal-packages/zodworker (soft)"}},
		{"slashed words in prose", "Client/server and read/write split; see client/server docs.", nil},
		{"owner/repo in prose", "Remote Bo123478/ET-SYS-OT, branch master.", nil},
		{"github path", "Vendored from github.com/owner/repo/blob/main/x.go.", nil},
		{"go module", "Uses `golang.org/x/tools/go/packages`.", nil},
		{"scoped package", "Use `@ai-sdk/openai` for OpenAI.", nil},
		{"git internals", "The hook is .git/hooks/pre-push.", nil},
		{"outside the root", "Specs are in ../shared/spec.md.", nil},

		// Tricky prose that is not a path.
		{"and/or", "Use tabs and/or spaces.", nil},
		{"input/output", "Mind input/output and read/write errors.", nil},
		{"CI/CD", "The CI/CD pipeline uses TCP/IP.", nil},
		{"fraction", "Use 1/2 of the budget, 24/7.", nil},
		{"date", "Decided 2026-07-22, reviewed 07/22/2026.", nil},
		{"e.g. i.e.", "Prefer e.g. small commits, i.e. one concern.", nil},
		{"version number", "Shipped v1.2 and 3.10.1 last week.", nil},
		{"word slash words", "Kyber/Dilithium and HTML/XHTML/plain only.", nil},
		{"client/server", "The client/server split is strict.", nil},
		{"library names", "Rendering uses three.js / WebGL2 and Node.js.", nil},
		{"llama.cpp", "OpenAI-compatible (llama.cpp) servers.", nil},
		{"object members", "Use process.env.VAR_NAME and document.body.classList.", nil},
		{"function call in code", "Call `playTone()` and `Security::checkCsrf()`.", nil},
		{"css class", "Use the base class .card and .section-title.", nil},
		{"domain", "Fonts from fonts.googleapis and docs.rs pages.", nil},
		{"mime type", "Responses are `application/json`.", nil},
		{"code names with slash", "Falls back to `web_html/create` and `social/open_prompt`.", []string{"web_html/create=path:web_html/create (soft)", "social/open_prompt=path:social/open_prompt (soft)"}},
		{"alternatives with extensions", "No Database.php/bootstrap.php here.", nil},
		{"git range", "Check origin/master..HEAD is 0.", nil},
		{"no extension word", "The `tsconfig` excludes moonlab.", []string{"tsconfig=path:tsconfig (soft)"}},
		{"bare word in a code span is soft", "- `parser` - SQL parser", []string{"parser=path:parser (soft)"}},
		{"bare words named as tools", "Deterministic testing with the `simulator` and `whopper` tools.", nil},
		{"bare word in prose is nothing", "The parser and the simulator.", nil},
		{"words of a code span are no soft word", "Run `cargo test` in `core`.", []string{"core=path:core (soft)"}},
		{"README without extension", "Pointer vers le README.", nil},
		{"user agent", "UA is `NexxusCitadel/1.0`.", nil},

		// Commands.
		{"make", "Run `make e2e` before merging.", []string{"make e2e=cmd:make e2e"}},
		{"make targets and flags", "`make -j 4 V=1 lint test`", []string{"make -j 4 V=1 lint=cmd:make lint", "test=cmd:make test"}},
		// a red team's: a flag's file is no target
		{"make flags with a value", "`make -o build -W gen.go -I mk lint`", []string{"make -o build -W gen.go -I mk lint=cmd:make lint"}},
		{"make -C", "Docs build with `make -C docs html`.", []string{"make -C docs html=cmd:make html in docs"}},
		{"make -f is another file", "`make -f ci.mk deploy`", []string{"ci.mk=path:ci.mk"}},
		{"make file target", "`make dist/app.js`", []string{"dist/app.js=path:dist/app.js"}},
		{"npm run", "Run `npm run premerge` first.", []string{"npm run premerge=cmd:npm premerge"}},
		{"npm test", "`npm test` must pass.", []string{"npm test=cmd:npm test"}},
		{"npm install is no script", "`npm install` then `npm ci`.", nil},
		{"cd and npm", "Then `cd server && npm run test:conversational-regressions`.", []string{"cd server && npm run test:conversational-regressions=cmd:npm test:conversational-regressions in server"}},
		{"cd before two commands", "`cd web && npm ci && npm run build && npm test`", []string{"cd web && npm ci && npm run build=cmd:npm build in web", "npm test=cmd:npm test in web"}},
		{"npm prefix", "`npm --prefix web run build`", []string{"npm --prefix web run build=cmd:npm build in web"}},
		{"npm workspace", "`npm -w api run build`", nil},
		{"pnpm implicit", "`pnpm lint` before commit.", []string{"pnpm lint=cmd:pnpm lint (implicit)"}},
		{"pnpm run", "`pnpm run dev`", []string{"pnpm run dev=cmd:pnpm dev"}},
		{"pnpm builtin", "`pnpm install` and `pnpm add zod`", nil},
		{"pnpm filter", "`pnpm --filter web build`", nil},
		{"pnpm -C", "`pnpm -C apps/web build`", []string{"pnpm -C apps/web build=cmd:pnpm build in apps/web (implicit)"}},
		{"yarn", "`yarn test` and `yarn storybook`.", []string{"yarn test=cmd:yarn test", "yarn storybook=cmd:yarn storybook (implicit)"}},
		{"bun run", "`bun run dev`", []string{"bun run dev=cmd:bun dev (implicit)"}},
		{"bun run file", "`bun run src/index.ts`", []string{"src/index.ts=path:src/index.ts"}},
		{"bun builtin", "CI runs `bun audit` and `bun test`.", nil},
		{"just", "`just release patch`", []string{"just release=cmd:just release"}},
		{"task", "`task lint test`", []string{"task lint=cmd:task lint", "test=cmd:task test"}},
		{"task namespaced", "`task docs:build`", []string{"task docs:build=cmd:task docs:build"}},
		// a flag's value, a place to fill in (issue 27's files sets)
		{"task flag value", "`task test:coverage --module mcp_web.fetcher`", []string{"task test:coverage=cmd:task test:coverage"}},
		{"task switch", "`task -p lint test`", []string{"task -p lint=cmd:task lint", "test=cmd:task test"}},
		{"placeholder part", "`make validate_phase_N` checks phase N; `make build-all` builds.", []string{"make build-all=cmd:make build-all"}},
		{"folder after", "Run `npm test` in `web/`.", []string{"npm test=cmd:npm test in web", "web/=path:web/"}},
		{"folder after bare", "Run `pnpm run e2e` inside apps/site/ first.", []string{"pnpm run e2e=cmd:pnpm e2e in apps/site", "apps/site/=path:apps/site/"}},
		{"prose npm run", "Always npm run lint, then push.", []string{"npm run lint=cmd:npm lint"}},
		{"prose make is English", "Make sure to make tests pass, just run them.", nil},
		{"prose task is English", "The task runs nightly.", nil},
		{"prose yarn without run", "We yarn build nothing.", nil},
		{"code task word", "`task` and `just_relation` are names.", []string{"task=path:task (soft)", "just_relation=path:just_relation (soft)"}},
		{"placeholder target", "`make <target>`", nil},
		{"variable target", "`make $(TARGET)`", nil},
		// the alternative an entry rejects need not exist
		{"rejected in an aside", "Use `npm run fmt:fix` (NOT `npm run lint:fix`) before commits.", []string{"npm run fmt:fix=cmd:npm fmt:fix"}},
		{"rejected instead of", "Run `make check` instead of `make lint`.", []string{"make check=cmd:make check"}},
		{"not rejected", "Run `make check`, then `make lint`.", []string{"make check=cmd:make check", "make lint=cmd:make lint"}},
		// a branch's name is no file of the repository; an example may be
		{"branch names", "Branch names start with the version: `v2/fix/oauth-scope-union`.", nil},
		{"a folder in a sentence about branches", "Branch protection is configured in `.github/settings`.", []string{".github/settings=path:.github/settings"}},
		{"after an example label", "Example: run `scripts/bootstrap.sh` once after cloning.", []string{"scripts/bootstrap.sh=path:scripts/bootstrap.sh"}},
		{"after e.g., a real file", "Use the test projects (e.g., `references/hello-world`).", []string{"references/hello-world=path:references/hello-world (soft)"}},
		{"a model's file", "Models live in Models/User.js and Models/Post.js.", []string{"Models/User.js=path:Models/User.js", "Models/Post.js=path:Models/Post.js"}},
		{"after a comma's not", "Edit `src/a.ts`, not `src/b.ts`, which is generated.", []string{"src/a.ts=path:src/a.ts", "src/b.ts=path:src/b.ts"}},
		{"a file beside branches", "Feature branches must keep `scripts/release.sh` working.", []string{"scripts/release.sh=path:scripts/release.sh"}},
		// a quoted value is one argument, however many words it holds
		{"quoted variable", "`cd backend && make migrate-rev MSG=\"add foo column to runs\"`", []string{"cd backend && make migrate-rev=cmd:make migrate-rev in backend"}},
		{"quoted variable first", "`make MSG='add foo' lint`", []string{"make MSG='add foo' lint=cmd:make lint"}},

		// Versions.
		{"node", "We are on Node 18.", []string{"Node 18=version:node =18"}},
		{"node or newer", "Node 18 or newer is required.", []string{"Node 18 or newer=version:node >=18"}},
		{"a name in two words", "Styles use Tailwind CSS 4.1.4 and Next JS 14.", []string{"Tailwind CSS 4.1.4=version:tailwindcss =4.1.4", "Next JS 14=version:next =14"}},
		{"tailwind css v3", "Stay on Tailwind CSS v3 classes.", []string{"Tailwind CSS v3=version:tailwindcss =3"}},
		// Laravel Boost's package lines in agent files (the second and
		// fourth reference sets' tuning halves): the package, its name in
		// capitals, the major version installed
		{"boost package line", "laravel/framework (LARAVEL) - v11", []string{"laravel/framework (LARAVEL) - v11=version:laravel/framework =11"}},
		{"boost npm package line", "tailwindcss (TAILWINDCSS) - v3", []string{"tailwindcss (TAILWINDCSS) - v3=version:tailwindcss =3"}},
		{"boost-like without the capitals", "laravel/framework (latest) - v11", nil},
		// only the whole line, its capitals naming the package (a red
		// team's: in a sentence it is an example or a history)
		{"boost line in a sentence", "Kernel.php was removed in laravel/framework (LARAVEL) - v11; use bootstrap/app.php",
			[]string{"Kernel.php=path:Kernel.php", "bootstrap/app.php=path:bootstrap/app.php"}},
		{"boost-like other thing", "uuid (RFC9562) - v7", nil},
		{"boost line two versions", "laravel/framework (LARAVEL) - v11/v12 both supported", nil},
		{"boost short name", "pestphp/pest (PEST) - v3", []string{"pestphp/pest (PEST) - v3=version:pestphp/pest =3"}},
		{"next alone is a word", "The next 3 steps run in CI.", nil},
		{"a Cursor rule link", "See [auth rules](mdc:src/rules/auth.mdc) for sessions.", []string{"src/rules/auth.mdc=path:src/rules/auth.mdc"}},
		{"placeholder segments", "Add snapshots under `tests/specs/nursery/myRuleName/` and code in `src/your-module/foo.ts`.", nil},
		// real instruction files (issue 27): an example's name with a
		// suffix, a dated name's pattern, names of tools joined by a slash
		{"placeholder with a suffix", "Tests live beside the source, as `src/remote/foo.test.ts`.", nil},
		{"dated pattern", "New ideas go to `docs/plans/YYYYMMDD-slug.md`.", nil},
		{"a pattern with the date in the middle, a part to fill in", "Plans go to `docs/current_sprint/planMMDDNN.md`; schemas to `src/schemas/xxxSchema.js` and `src/XxxService.ts`.", nil},
		{"tool names", "The assets folder holds the main TypeScript/Vue.js application.", nil},
		{"a file of a framework's name", "Its entry is src/Vue.js in the demo.", []string{"src/Vue.js=path:src/Vue.js"}},
		{"my is a word", "Edit `src/mystery/index.ts`.", []string{"src/mystery/index.ts=path:src/mystery/index.ts"}},
		{"what a release brought", "Laravel 11 allows limiting eager loads; new commands are available in Laravel 11.", nil},
		{"since a release", "Since Node 18, fetch is global.", nil},
		{"in a release", "In Laravel 12, middleware is registered in `bootstrap/app.php`. Note: In React 18, effects run twice.", []string{"bootstrap/app.php=path:bootstrap/app.php"}},
		{"in a release, then the stack", "Built in Laravel 12, with Node 18.", []string{"Laravel 12=version:laravel/framework =12", "Node 18=version:node =18"}},
		// a condition supposes a release, a migration left one; the order
		// after a condition's comma, and a claim before "if", stay claims
		{"a condition", "Skip this if you're on React 18 or earlier. If you used PPR in Next.js 15, read the guide (wenn du Node 18 nutzt).", nil},
		{"a migration's start", "This project upgraded from Laravel 10 and kept its layout.", nil},
		{"after the condition", "If the build fails, use Node 20. Use Go 1.22 if you touch the CLI.", []string{"Node 20=version:node =20", "Go 1.22=version:go =1.22"}},
		// a red team's: conditions that carry the claim, and a migration not made
		{"conditions that claim", "Builds fail unless you use Node 16. When deploying we use Node 18. Everything breaks if you are not on Node 20.",
			[]string{"Node 16=version:node =16", "Node 18=version:node =18", "Node 20=version:node =20"}},
		{"a migration not made", "We never upgraded from Node 16; not yet migrated from Laravel 10.", []string{"Node 16=version:node =16", "Laravel 10=version:laravel/framework =10"}},
		// a width: no version the project runs
		{"a width", "TypeScript: 2-space indent everywhere.", nil},
		// a port or a year after a tool's name (files sets, issue 27)
		{"a port", "Fixed defaults: Worker `8787`, Vite `5173`; Postgres 5432.", nil},
		{"a year", "Open it in Visual Studio 2022 with Node 18.", []string{"Node 18=version:node =18"}},
		// what a release has, and names whose second word is a subject
		// (real instruction files, issue 27)
		{"a release's own", "Uses PHP 8.4's `public private(set)` properties; PHP 8.4’s new hooks too.", nil},
		{"a plugin named after its host", "**TypeScript ESLint**: ^8.45.0 for lint.", []string{"ESLint**: ^8.45.0=version:typescript-eslint ^8.45.0 (compound)"}},
		{"a library named after its host", "**Lucide React**: ^0.546.0 icons.", []string{"React**: ^0.546.0=version:lucide-react ^0.546.0 (compound)"}},
		{"a label before the subject", "**Frontend**: React 18.", []string{"React 18=version:react =18"}},
		{"releases joined by a slash", "Pydantic v1/v2 shims; .NET 8/.NET 9 targets.", []string{"Pydantic v1=version:pydantic =1", "v2=version:pydantic =2 (alt)", ".NET 8=version:dotnet =8", ".NET 9=version:dotnet =9 (alt)"}},
		{"a slash before other things", "Node 18/512 MB, Go 1.21/386, Node 18/V8, Python 3.9/64-bit, Node 20/18.", []string{"Node 18=version:node =18", "Go 1.21=version:go =1.21", "Node 18=version:node =18", "Python 3.9=version:python =3.9", "Node 20=version:node =20"}},
		{"a feature's release in parentheses", "Use `for range N` (Go 1.22+) and `b.Loop()` (**Go 1.24+**).", []string{"Go 1.22+=version:go >=1.22 (aside)", "Go 1.24+=version:go >=1.24 (aside)"}},
		{"a feature's release before it", "PHP 8.1+ backed enums; Go 1.23+ iterators; Python 3.12+ (type) dataclasses.", []string{"PHP 8.1+=version:php >=8.1 (aside)", "Go 1.23+=version:go >=1.23 (aside)", "Python 3.12+=version:python >=3.12"}},
		{"a bound that says it is needed before a feature", "Go 1.21+ required for iterators; Go 1.22+ Docker images; Go 1.21+ without generics.", []string{"Go 1.21+=version:go >=1.21", "Go 1.22+=version:go >=1.22", "Go 1.21+=version:go >=1.21"}},
		{"a requirement before a feature", "Requires Go 1.21+ for iterators. Minimum: PHP 8.1+ enums. The package supports PHP 8.1+ enums.", []string{"Go 1.21+=version:go >=1.21", "PHP 8.1+=version:php >=8.1", "PHP 8.1+=version:php >=8.1"}},
		{"no feature of a language", "Node 18+ enums; Python 3.9+ lambdas on AWS; Laravel 10+ macros.", []string{"Node 18+=version:node >=18", "Python 3.9+=version:python >=3.9", "Laravel 10+=version:laravel/framework >=10"}},
		{"a release for contrast", "Unlike `next.js < 15`, params are promises; slower compared to Node 18; im Vergleich zu PHP 7.4 strenger.", nil},
		{"a comparison that claims", "Node 20 is faster than Node 18; CI matrix: Node 22 vs Node 20; Abwärtskompatibilität gegenüber PHP 7.4.", []string{"Node 20=version:node =20", "Node 18=version:node =18", "Node 22=version:node =22", "Node 20=version:node =20", "PHP 7.4=version:php =7.4"}},
		{"vs in contrast", "Node 22 vs. Node 18 memory usage.", []string{"Node 22=version:node =22"}},
		{"a requirement in parentheses", "Module files (use Go 1.23+).", []string{"Go 1.23+=version:go >=1.23"}},
		{"parentheses that say it is needed", "Builds (Go 1.21+ required); Requirements (Go 1.21+, make); Toolchain: (Go 1.21+); (at least Go 1.21).", []string{"Go 1.21+=version:go >=1.21", "Go 1.21+=version:go >=1.21", "Go 1.21+=version:go >=1.21", "at least Go 1.21=version:go >=1.21"}},
		{"'s that is is", "Node 18's the minimum; PHP 8.2's syntax only.", []string{"Node 18=version:node =18", "PHP 8.2=version:php =8.2"}},
		{"a stack in a row", "TypeScript React 18 and Vite React 18 templates.", []string{"React 18=version:react =18", "React 18=version:react =18"}},
		{"one version twice", "The app uses React 17 (react@17.0.2).", []string{"React 17=version:react =17", "react@17.0.2=version:react =17.0.2"}},
		{"an image tag", "The base image is Node 18-alpine.", []string{"Node 18=version:node =18"}},
		{"a lower bound stays", "Needs Node >= 20.", []string{"Node >= 20=version:node >=20"}},
		{"written in", "The API is written in Go 1.22.", []string{"Go 1.22=version:go =1.22"}},
		{"make with a comment", "`make snapshots-fix      # update existing snapshots`", []string{"make snapshots-fix=cmd:make snapshots-fix"}},
		{"npm with a comment", "`npm run lint # then fix what it says`", []string{"npm run lint=cmd:npm lint"}},
		{"node emphasised with a colon", "**Node.js**: Version 20 (see `.nvmrc`).", []string{"Node.js**: Version 20=version:node =20", ".nvmrc=path:.nvmrc"}},
		{"python typing style", "Use modern python >3.12 typing style.", nil},
		{"python syntax", "Python 3.10 syntax (match statements) is fine.", nil},
		{"versions in code spans", "Needs pnpm `8.15.5` and Node.js `20.11.1`.", []string{"pnpm `8.15.5`=version:pnpm =8.15.5", "Node.js `20.11.1`=version:node =20.11.1"}},
		{"a count in a code span", "Go `2` levels up, run `3` times.", nil},
		{"node v in a code span", "Node `v22` only.", []string{"Node `v22`=version:node =22"}},
		{"angular is its core package", "Angular 17 with signals.", []string{"Angular 17=version:@angular/core =17"}},
		{"remix is its react package", "Remix 2.1.0 routes.", []string{"Remix 2.1.0=version:@remix-run/react =2.1.0"}},
		{"node colon", "Node: v22 in CI.", []string{"Node: v22=version:node =22"}},
		{"cd into a folder", "`cd references/hello-world && pnpm exec trigger login`", []string{"references/hello-world=path:references/hello-world/"}},
		{"cd before a judged command", "`cd web && npm run build`", []string{"cd web && npm run build=cmd:npm build in web"}},
		{"placeholder deeper", "Run `pnpm run test src/path/to/file.test.ts`.", []string{"pnpm run test=cmd:pnpm test"}},
		{"node versions", "Tests on Node.js versions 18 and 20.", []string{"Node.js versions 18=version:node =18"}},
		{"node plus", "Requires Node.js 20+.", []string{"Node.js 20+=version:node >=20"}},
		{"node comparison", "Needs Node >= 18.17.", []string{"Node >= 18.17=version:node >=18.17"}},
		{"node caret", "Engines say node ^18.", []string{"node ^18=version:node ^18"}},
		{"node v", "Use Node v20.11.0 locally.", []string{"Node v20.11.0=version:node =20.11.0"}},
		{"node x", "Pinned to Node 18.x.", []string{"Node 18.x=version:node =18"}},
		{"at least", "At least Python 3.10 is needed.", []string{"At least Python 3.10=version:python >=3.10"}},
		{"python", "Python 3.11 only.", []string{"Python 3.11=version:python =3.11"}},
		{"python binary", "Run python3.12 -m venv.", []string{"python3.12=version:python =3.12"}},
		{"go", "Built with Go 1.22.", []string{"Go 1.22=version:go =1.22"}},
		{"go toolchain spelling", "Toolchain go1.23.1 is pinned.", []string{"go1.23.1=version:go =1.23.1"}},
		{"rust", "MSRV is Rust 1.75.", []string{"Rust 1.75=version:rust =1.75"}},
		{"react", "**React 19** — frontend", []string{"React 19=version:react =19"}},
		{"at form", "Install `react@18.2.0` exactly.", []string{"react@18.2.0=version:react =18.2.0"}},
		{"scoped at form", "Types from @types/node@^20.", []string{"@types/node@^20=version:@types/node ^20"}},
		{"image", "The DB is `postgres:16-alpine`.", []string{"postgres:16=version:postgres =16"}},
		{"org image", "Deploys `bitnami/redis:7.2`.", []string{"bitnami/redis:7.2=version:bitnami/redis =7.2"}},
		{"three-part version", "Hashes from jsDelivr (CodeMirror 5.65.2 + JSZip 3.10.1).", []string{"CodeMirror 5.65.2=version:codemirror =5.65.2", "JSZip 3.10.1=version:jszip =3.10.1"}},

		// Not versions.
		{"go is a verb", "Let it go 2 levels up and go 1 step back.", nil},
		{"node of a graph", "Node 2 links to node 3.", nil},
		{"rust edition", "Rust 2021 edition.", nil},
		{"port", "Redis at `redis:6379` and localhost:5173.", nil},
		{"document number", "Contract ET-IFC-001 v1.0.0 is frozen.", nil},
		{"standard", "Meets WCAG 2.1 AA over TLS 1.3.", nil},
		{"version word", "Since version 1.2.3 it works.", nil},
		{"node unit", "Node 18GB of RAM.", nil},
		{"email", "Mail ops@example.com now.", nil},

		// Several kinds in one entry, in order.
		{"mixed", "Run `make lint` on Node 20; see docs/lint.md.", []string{"make lint=cmd:make lint", "Node 20=version:node =20", "docs/lint.md=path:docs/lint.md"}},
		{"unclosed backtick", "A stray ` then src/app.ts here.", []string{"src/app.ts=path:src/app.ts"}},
		{"double backticks", "Use ``make `x` `` rarely, see ``src/a.go``.", []string{"src/a.go=path:src/a.go"}},
		{"empty", "", nil},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, r := range Extract(c.text) {
				got = append(got, render(c.text, r))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("Extract(%q)\n got: %q\nwant: %q", c.text, got, c.want)
			}
		})
	}
	if len(cases) < 80 {
		t.Errorf("%d cases; keep at least 80", len(cases))
	}
}

// TestExtractValueSpan holds the part a fix rewrites.
func TestExtractValueSpan(t *testing.T) {
	cases := []struct{ text, value string }{
		{"See `src/app.ts:42`.", "src/app.ts"},
		{"Run `cd web && npm run build`.", "build"},
		{"We are on Node v18 or newer.", "18"},
		{"Node 18.x only.", "18"},
		{"Use `react@^18.2.0`.", "18.2.0"},
		{"DB is `postgres:16-alpine`.", "16"},
	}
	for _, c := range cases {
		rs := Extract(c.text)
		if len(rs) != 1 {
			t.Errorf("Extract(%q) = %d refs, want 1", c.text, len(rs))
			continue
		}
		r := rs[0]
		if r.ValueStart < r.Start || r.ValueEnd > r.End || c.text[r.ValueStart:r.ValueEnd] != c.value {
			t.Errorf("Extract(%q): value %q in %q, want %q", c.text, c.text[r.ValueStart:r.ValueEnd], c.text[r.Start:r.End], c.value)
		}
	}
}
