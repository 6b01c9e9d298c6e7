package refs_test

import (
	"reflect"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
)

func sampleRepo() *refstest.Repo {
	return &refstest.Repo{
		Files: []string{
			"Makefile", "package.json", "go.mod", ".nvmrc", ".gitignore", "README.md",
			"src/auth/login.ts", "src/math/irrep.ts", "src/server.ts", "src/server.js",
			"docs/adr/0001-bun.md", "cmd/memory-lsp/main.go",
			"web/package.json", "web/src/app.tsx", "api/Makefile",
			".github/workflows/ci.yml",
			"packages/server/src/server/mcp.ts", "pkg/lib/util.ts",
			"docs/examples/basic.md", "scripts/old.py",
			"internal-packages/redis-worker/index.ts", "src/lib/utils.ts",
			"sqlite/parser/lib.rs", "docs/parser/README.md",
			"rewrite-json/pom.xml", "rewrite-yaml/pom.xml", "rewrite-xml/pom.xml",
		},
		// The root when the entries were written: references/ and
		// package-lock.json are gone since, parser/ went deeper.
		Had:    []string{"references/", "package-lock.json", "parser/", "src/"},
		Ignore: []string{"dist/", "node_modules/", ".env", "*.log"},
		Gone: map[string]refs.Move{
			"src/auth/session.ts":  {To: "src/auth/login.ts", Commit: "abc1234"},
			"scripts/old.sh":       {Commit: "def5678"},
			"lib/crypto/duress.rs": {To: "src/crypto/duress.rs", Commit: "0a1b2c3"},
			"index.html":           {Commit: "42cd736", Before: true},
			"src/server/mcp.ts":    {To: "packages/server/src/server/mcp.ts", Commit: "71ae3ac"},
			"lib/util.ts":          {To: "pkg/lib/util.ts", Commit: "9e37fa6", Before: true},
			"src/api/users":        {Commit: "5e5e5e5"},
			"examples":             {Commit: "e1e1e1e"},
			"tools/gen/old.py":     {Commit: "f2f2f2f"},
			"references":           {Commit: "a9f756b"},
			"package-lock.json":    {Commit: "1f1f1f1", Before: true},
			"parser":               {To: "sqlite/parser", Commit: "9a9a9a9"},
		},
		Manifests: map[refstest.At]refs.Manifest{
			{Tool: refs.Make}:             {File: "Makefile", Names: []string{"build", "test", "test-e2e", "lint", "release"}},
			{Tool: refs.Make, Dir: "api"}: {File: "api/Makefile", Names: []string{"serve"}, Open: true},
			{Tool: refs.Npm}:              {File: "package.json", Names: []string{"dev", "build", "test", "test:e2e", "lint"}},
			{Tool: refs.Pnpm}:             {File: "package.json", Names: []string{"dev", "build", "test", "test:e2e", "lint"}},
			{Tool: refs.Yarn}:             {File: "package.json", Names: []string{"dev", "build", "test", "test:e2e", "lint"}},
			{Tool: refs.Npm, Dir: "web"}:  {File: "web/package.json", Names: []string{"storybook", "preview"}},
			{Tool: refs.Npm, Dir: "src"}:  {File: "src/package.json", Names: []string{"build"}},
		},
		// The root's scripts when the entries were written: preview has
		// moved to web/ since.
		Then: map[refstest.At]refs.Manifest{
			{Tool: refs.Npm}: {File: "package.json", Names: []string{"dev", "build", "preview"}},
		},
		PinsOf: map[string][]refs.Pin{
			"node":              {{Value: "22", File: ".nvmrc", Line: 1}, {Value: ">=18", File: "package.json", Line: 5}},
			"go":                {{Value: "1.22", File: "go.mod", Line: 3, Bare: refs.AtLeast}},
			"react":             {{Value: "^18.3.1", File: "package.json", Line: 12}},
			"typescript":        {{Value: "~5.4.2", File: "package.json", Line: 20}},
			"python":            {{Value: ">=3.10,<4", File: "pyproject.toml", Line: 7}},
			"serde":             {{Value: "1.0", File: "Cargo.toml", Line: 9, Bare: refs.Caret}},
			"postgres":          {{Value: "16-alpine", File: "compose.yaml", Line: 4}},
			"rust":              {{Value: "stable", File: "rust-toolchain.toml", Line: 2}},
			"vite":              {{Value: "^5.0.0", File: "web/package.json", Line: 9}},
			"typescript-eslint": {{Value: "^8.45.0", File: "package.json", Line: 21}},
		},
	}
}

func TestJudge(t *testing.T) {
	repo := sampleRepo()
	cases := []struct {
		name string
		text string // the first reference is judged
		want refs.Verdict
	}{
		// Paths.
		{"file exists", "Login is `src/auth/login.ts`.", refs.Verdict{Status: refs.Holds}},
		{"folder exists", "ADRs in `docs/adr/`.", refs.Verdict{Status: refs.Holds}},
		{"file with line", "See cmd/memory-lsp/main.go:42.", refs.Verdict{Status: refs.Holds}},
		{"dot folder", "CI in `.github/workflows/ci.yml`.", refs.Verdict{Status: refs.Holds}},
		{"renamed file", "Auth lives in `src/auth/session.ts`.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{To: "src/auth/login.ts", Commit: "abc1234"}}},
		{"moved deeper", "The server is `src/server/mcp.ts`.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{To: "packages/server/src/server/mcp.ts", Commit: "71ae3ac"}}},
		{"moved deeper before the entry", "Helpers in `lib/util.ts`.", refs.Verdict{Status: refs.Holds, Elsewhere: true}},
		{"deleted file", "Run `scripts/old.sh` first.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{Commit: "def5678"}}},
		{"missing file the history never had", "Auth lives in `src/auth/token.ts`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"moved file is stale though its name exists elsewhere", "Entry is `lib/server.ts`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"missing folder", "Specs in `docs/specs/`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"bare name found deeper", "Use the singleton in irrep.ts.", refs.Verdict{Status: refs.Holds, Elsewhere: true}},
		{"abbreviated path found deeper", "Use `math/irrep.ts` for symmetry.", refs.Verdict{Status: refs.Holds, Elsewhere: true}},
		{"bare name the history had", "Logic is in `duress.rs`.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{To: "src/crypto/duress.rs", Commit: "0a1b2c3", ByName: true}}},
		{"removed before the entry was written", "No more `index.html`: the entry is `index.php`.", refs.Verdict{}},
		{"bare name the repository never had", "Assets linked from `home.js` are not visible.", refs.Verdict{}},
		{"single folder the repository never had", "Keep it under `Technology/`.", refs.Verdict{}},
		{"ignored folder", "Bundles land in `dist/app.js`.", refs.Verdict{}},
		{"ignored file", "Never commit `.env`.", refs.Verdict{}},
		{"ignored by glob", "Read `logs/server.log`.", refs.Verdict{}},
		{"root file", "Targets are in the Makefile.", refs.Verdict{Status: refs.Holds}},
		// shorthand for sibling folders (issue 27, v3 tuning half): silent;
		// a stem with no such sibling is a path that is gone
		{"sibling shorthand", "Parsers live in `rewrite-json/yaml/xml`.", refs.Verdict{}},
		{"no sibling of that stem", "Parsers live in `rewrite-json/toml/xml`.", refs.Verdict{Status: refs.Stale, Unseen: true}},

		// Commands.
		{"target exists", "Run `make test-e2e`.", refs.Verdict{Status: refs.Holds, File: "Makefile"}},
		{"target missing", "Run `make e2e` before merging.", refs.Verdict{Status: refs.Stale, File: "Makefile", Near: []string{"test-e2e"}}},
		{"target missing near names", "Run `make lnt`.", refs.Verdict{Status: refs.Stale, File: "Makefile", Near: []string{"lint"}}},
		{"script exists", "`npm run test:e2e`", refs.Verdict{Status: refs.Holds, File: "package.json"}},
		{"script missing", "`npm run e2e`", refs.Verdict{Status: refs.Stale, File: "package.json", Near: []string{"test:e2e"}}},
		{"npm test holds", "`npm test` passes.", refs.Verdict{Status: refs.Holds, File: "package.json"}},
		{"npm start without a script or server.js", "`npm start` runs it.", refs.Verdict{Status: refs.Stale, File: "package.json"}},
		{"npm start falls back to server.js", "`npm --prefix src start` runs it.", refs.Verdict{Status: refs.Holds, File: "src/package.json"}},
		{"in folder", "`cd web && npm run storybook`", refs.Verdict{Status: refs.Holds, File: "web/package.json"}},
		{"a subproject's script, folder not named", "Run `npm run storybook` for the UI.", refs.Verdict{File: "package.json"}},
		{"in folder missing script", "Run `npm run build` in `web/`.", refs.Verdict{Status: refs.Stale, File: "web/package.json", Near: []string{}}},
		{"folder missing", "`cd mobile && npm run build`", refs.Verdict{Status: refs.Stale, NoDir: true}},
		{"no manifest in folder", "`make -C docs html`", refs.Verdict{}},
		{"open Makefile", "`make -C api anything`", refs.Verdict{File: "api/Makefile"}},
		{"implicit binary", "`yarn vite build`", refs.Verdict{File: "package.json"}},
		{"implicit known binary", "`pnpm tsc --noEmit`", refs.Verdict{File: "package.json"}},
		{"implicit missing", "`pnpm deploy-preview`", refs.Verdict{Status: refs.Stale, File: "package.json"}},
		{"implicit missing near", "`pnpm buld`", refs.Verdict{Status: refs.Stale, File: "package.json", Near: []string{"build"}}},
		{"no justfile", "`just release`", refs.Verdict{}},

		// A bare name that ends an existing path.
		{"root folder gone, another of its name stays", "Try things in `examples/`.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{Commit: "e1e1e1e"}}},
		{"a deeper file of that name gone", "See `old.py`.", refs.Verdict{Status: refs.Holds, Elsewhere: true}},

		// Soft paths: the root decides.
		{"two names under a root folder, missing", "`internal-packages/zodworker` wraps the queue.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"two names under a root folder, present", "`internal-packages/redis-worker` is the queue.", refs.Verdict{Status: refs.Holds}},
		{"two names, no such root folder", "Upstream is `owner/repo`.", refs.Verdict{}},
		{"two names under a folder the root had then (the history saw the folder go: seen)", "Test with `references/hello-world`.", refs.Verdict{Status: refs.Stale}},
		{"being replaced is still there", "**internal-packages/zodworker** (being replaced by redis-worker)", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"replaced is gone", "**internal-packages/zodworker** was replaced by redis-worker.", refs.Verdict{}},
		{"root-relative, missing", "Roles in `/web/src/features/rbac/README.md`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"root-relative, present", "The shell is `/web/src/app.tsx`.", refs.Verdict{Status: refs.Holds}},
		{"root-relative, no such root folder", "Read `/tools/gen/README.md`.", refs.Verdict{}},
		{"root alias, missing", "Read `@/openspec/AGENTS.md` first.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"root alias, in a source folder", "Helpers in `@/lib/utils.ts`.", refs.Verdict{Status: refs.Holds, Elsewhere: true}},
		{"a module without its extension", "Helpers in `src/lib/utils`.", refs.Verdict{Status: refs.Holds}},
		{"a module missing", "Helpers in `src/lib/strings`.", refs.Verdict{Status: refs.Stale, Unseen: true}},

		{"a word the root had as a folder, gone from the root", "- `parser` - SQL parser", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{To: "sqlite/parser", Commit: "9a9a9a9"}}},
		{"a word the root has as a folder", "- `docs` - the site", refs.Verdict{Status: refs.Holds}},
		{"a word the root never had", "- `simulator` - deterministic tests", refs.Verdict{}},

		// What the root held when the entry was written.
		{"bare file the root had, removal dated before", "The repository includes package-lock.json and yarn.lock.", refs.Verdict{}},
		{"bare folder the root had, two others of its name now", "The SQL parser is `parser/`.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{To: "sqlite/parser", Commit: "9a9a9a9"}}},

		// URL routes written as paths.
		{"route of a redirect", "The browser redirects to `src/auth/google`.", refs.Verdict{}},
		{"route of a GET", "GET src/auth/google/callback returns the token.", refs.Verdict{}},
		{"route word, file with extension", "The redirect is built in `src/auth/google.ts`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"route word, folder", "Routes live in `src/routes/`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"no route word", "Google sign-in is in `src/auth/google`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"get in lower case is English", "We get tokens from `src/auth/google`.", refs.Verdict{Status: refs.Stale, Unseen: true}},
		{"route the history knows", "The users route is served by `src/api/users`.", refs.Verdict{Status: refs.Stale, Moved: &refs.Move{Commit: "5e5e5e5"}}},
		{"subproject's script", "`npm run storybook`", refs.Verdict{File: "package.json"}},
		{"root script a subproject took over", "`npm run preview`", refs.Verdict{Status: refs.Stale, File: "package.json", Dropped: true}},

		// Versions.
		{"node drift", "We are on Node 18.", refs.Verdict{Status: refs.Drift, File: ".nvmrc", Pin: refs.Pin{Value: "22", File: ".nvmrc", Line: 1}, Replace: "22"}},
		{"node holds", "We are on Node 22.", refs.Verdict{Status: refs.Holds}},
		{"node minor holds", "Node 22.11 in CI.", refs.Verdict{Status: refs.Holds}},
		{"node or newer holds", "Node 18 or newer.", refs.Verdict{Status: refs.Holds}},
		{"node plus holds", "Node 20+ only.", refs.Verdict{Status: refs.Holds}},
		{"node at least drift", "Requires Node >= 23.", refs.Verdict{Status: refs.Drift, File: ".nvmrc", Pin: refs.Pin{Value: "22", File: ".nvmrc", Line: 1}, Replace: "22"}},
		{"node at most holds", "Node 22 or older.", refs.Verdict{Status: refs.Holds}},
		{"node at most drift", "Node 20 or older.", refs.Verdict{Status: refs.Drift, File: ".nvmrc", Pin: refs.Pin{Value: "22", File: ".nvmrc", Line: 1}, Replace: "22"}},
		{"go minimum holds newer", "Built with Go 1.23.", refs.Verdict{Status: refs.Holds}},
		{"go minimum drift older", "Built with Go 1.21.", refs.Verdict{Status: refs.Drift, File: "go.mod", Pin: refs.Pin{Value: "1.22", File: "go.mod", Line: 3, Bare: refs.AtLeast}, Replace: "1.22"}},
		{"caret range holds", "We use React 18.", refs.Verdict{Status: refs.Holds}},
		{"caret range drift", "We use React 17.", refs.Verdict{Status: refs.Drift, File: "package.json", Pin: refs.Pin{Value: "^18.3.1", File: "package.json", Line: 12}, Replace: "18"}},
		{"caret range below its minor", "Pinned `react@18.2.0`.", refs.Verdict{Status: refs.Drift, File: "package.json", Pin: refs.Pin{Value: "^18.3.1", File: "package.json", Line: 12}, Replace: "18.3.1"}},
		{"tilde range", "TypeScript 5.4 strict.", refs.Verdict{Status: refs.Holds}},
		{"tilde range drift", "TypeScript 5.5 strict.", refs.Verdict{Status: refs.Drift, File: "package.json", Pin: refs.Pin{Value: "~5.4.2", File: "package.json", Line: 20}, Replace: "5.4"}},
		{"python range holds", "Python 3.12.", refs.Verdict{Status: refs.Holds}},
		{"python minimum agrees", "Python 3.10 or newer.", refs.Verdict{Status: refs.Holds}},
		{"python minimum stricter", "Python 3.11+.", refs.Verdict{Status: refs.Holds}},
		{"python minimum lowered", "Supports Python >= 3.8.", refs.Verdict{Status: refs.Drift, File: "pyproject.toml", Pin: refs.Pin{Value: ">=3.10,<4", File: "pyproject.toml", Line: 7}, Replace: "3.10"}},
		{"caret minimum at the entry's precision", "React 18 or newer.", refs.Verdict{Status: refs.Holds}},
		{"caret minimum lowered", "React 17+ works.", refs.Verdict{Status: refs.Drift, File: "package.json", Pin: refs.Pin{Value: "^18.3.1", File: "package.json", Line: 12}, Replace: "18"}},
		{"a package named in two words, pinned", "**TypeScript ESLint**: ^8.45.0 for lint.", refs.Verdict{Status: refs.Holds}},
		{"two words emphasised, no such package", "**Frontend React** 17 with hooks.", refs.Verdict{Status: refs.Drift, File: "package.json", Pin: refs.Pin{Value: "^18.3.1", File: "package.json", Line: 12}, Replace: "18"}},
		{"python minimum lowered in an aside", "Use `list[str]` (Python 3.9+ built-ins).", refs.Verdict{Status: refs.Holds}},
		{"python range drift", "Python 3.9 only.", refs.Verdict{Status: refs.Drift, File: "pyproject.toml", Pin: refs.Pin{Value: ">=3.10,<4", File: "pyproject.toml", Line: 7}, Replace: "3.10"}},
		{"cargo caret", "`serde@1.0.200` everywhere.", refs.Verdict{Status: refs.Holds}},
		{"image tag", "DB is `postgres:15`.", refs.Verdict{Status: refs.Drift, File: "compose.yaml", Pin: refs.Pin{Value: "16-alpine", File: "compose.yaml", Line: 4}, Replace: "16"}},
		{"image prose", "We run PostgreSQL 16.", refs.Verdict{Status: refs.Holds}},
		{"unreadable pin", "Rust 1.75 MSRV.", refs.Verdict{}},
		{"unpinned", "CodeMirror 5.65.2 from the CDN.", refs.Verdict{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := judgeFirst(t, c.text, repo)
			if len(got.Near) == 0 && len(c.want.Near) == 0 {
				got.Near, c.want.Near = nil, nil
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Judge(%q)\n got: %+v\nwant: %+v", c.text, got, c.want)
			}
		})
	}
}

// TestJudgeAll: versions an entry names together are read together.
func TestJudgeAll(t *testing.T) {
	repo := sampleRepo()
	cases := []struct {
		name, text string
		want       []refs.Status
	}{
		{"a matrix is judged item by item", "Target frameworks: Node 18, Node 20, Node 22.", []refs.Status{refs.Drift, refs.Drift, refs.Holds}},
		{"alternatives one of which holds", "React 17/18 compatible.", []refs.Status{refs.Silent, refs.Holds}},
		{"alternatives none of which holds", "React 16/17 compatible.", []refs.Status{refs.Drift, refs.Drift}},
		{"a slash that is no alternative", "Lambdas run Node 22/512 MB.", []refs.Status{refs.Holds}},
		{"negated apart", "Use React 17, not React 18.", []refs.Status{refs.Drift, refs.Holds}},
		{"a matrix none of which holds", "Tests on Node 16 and Node 18.", []refs.Status{refs.Drift, refs.Drift}},
		{"one release said twice", "We are on Node 18; Node 18 or newer is required.", []refs.Status{refs.Drift, refs.Holds}},
		{"another subject holds", "Node 18 with React 18.", []refs.Status{refs.Drift, refs.Holds}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := refs.Extract(c.text)
			var got []refs.Status
			for _, v := range refs.JudgeAll(rs, repo) {
				got = append(got, v.Status)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("JudgeAll(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

// TestJudgeNoCode: a workspace whose root holds nothing but .memory/ has
// nothing to check against, so every reference is silent.
func TestJudgeNoCode(t *testing.T) {
	repo := sampleRepo()
	repo.NoCode = true
	text := "Auth in `src/auth/session.ts`; run `make e2e`; Node 18."
	rs := refs.Extract(text)
	if len(rs) != 3 {
		t.Fatalf("Extract = %d refs, want 3", len(rs))
	}
	for _, r := range rs {
		if v := refs.Judge(r, repo); v.Status != refs.Silent {
			t.Errorf("%s: %v, want silent", text[r.Start:r.End], v.Status)
		}
	}
	if v := refs.Judge(rs[0], nil); v.Status != refs.Silent {
		t.Errorf("nil repo: %v, want silent", v.Status)
	}
}

// TestJudgeCommandArguments: a path given to a command the entry shows is
// an example unless the history had it; the same path in prose is a claim.
func TestJudgeCommandArguments(t *testing.T) {
	repo := sampleRepo()
	for _, c := range []struct {
		text string
		arg  bool
		want refs.Status
	}{
		{"`pnpm run test ./src/components/Button.test.ts`", true, refs.Silent},
		{"`npm run lint src/server/mcp.ts`", true, refs.Stale}, // the history knows it moved
		{"Buttons are tested in `./src/components/Button.test.ts`.", false, refs.Stale},
		// Any program by name: its paths are arguments too.
		{"One file: `uv run pytest tests/test_name.py`", true, refs.Silent},
		{"`go test ./src/server/mcp.ts`", true, refs.Stale}, // the history knows it moved
		// A program that is a path must exist.
		{"`./scripts/release.sh --dry-run`", false, refs.Stale},
		{"`python3.12 tools/gen/old.py`", true, refs.Stale}, // deleted after the entry
		{"`Rscript analysis/fit.R`", false, refs.Stale},     // not a lower-case program name: a claim
		{"`import { x } from src/lib/old.ts`", false, refs.Stale},
		{"`see src/lib/old.ts`", false, refs.Stale},
		{"`source scripts/env.sh`", false, refs.Stale},
	} {
		var path *refs.Ref
		for _, r := range refs.Extract(c.text) {
			if r.Kind == refs.Path {
				path = &r
			}
		}
		if path == nil {
			t.Fatalf("Extract(%q) found no path", c.text)
		}
		if path.Arg != c.arg {
			t.Errorf("%q: Arg = %v, want %v", c.text, path.Arg, c.arg)
		}
		if got := refs.Judge(*path, repo).Status; got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}

// TestJudgeUnseen: a missing path is Unseen only when nothing shows the
// repository ever had it: no move or deletion of it in the history, none
// of a folder above it, and not in the newest commit (a move the work tree
// made and no commit recorded yet).
func TestJudgeUnseen(t *testing.T) {
	repo := &refstest.Repo{
		Files:  []string{"src/app.ts", "lib/auth/session.ts"},
		Gone:   map[string]refs.Move{"src/old.ts": {Commit: "abc1234"}, "tools": {Commit: "def5678"}},
		InHead: []string{"src/auth/session.ts"},
	}
	cases := []struct {
		name, text string
		unseen     bool
	}{
		{"never had", "Config in `src/config/load.ts`.", true},
		{"deleted", "Old entry point `src/old.ts`.", false},
		{"under a deleted folder", "Lint with `tools/lint/run.sh`.", false},
		{"moved in the work tree, not committed", "Sessions in `src/auth/session.ts`.", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := judgeFirst(t, c.text, repo)
			if v.Status != refs.Stale || v.Unseen != c.unseen {
				t.Errorf("Judge(%q) = %+v, want stale with Unseen %v", c.text, v, c.unseen)
			}
		})
	}
}

// judgeFirst judges the first reference text holds.
func judgeFirst(t *testing.T, text string, repo refs.Repo) refs.Verdict {
	t.Helper()
	rs := refs.Extract(text)
	if len(rs) == 0 {
		t.Fatalf("Extract(%q) found nothing", text)
	}
	return refs.Judge(rs[0], repo)
}

// TestJudgeSlip: a path one slip off a name of its folder (another case,
// or one edit in a name of six letters or more, the only such name there)
// is stale and not Unseen, with the path it means; a short name, two
// names alike, or a rest that does not exist under the name is no slip.
func TestJudgeSlip(t *testing.T) {
	repo := &refstest.Repo{Files: []string{
		"src/auth/session.ts", "src/app.ts", "scripts/generate-config.yaml", "docs/Guide.md",
		"lib/handler.go", "lib/handlers.go", "web/routes/index.ts",
	}}
	cases := []struct {
		text, near string
	}{
		{"Sessions in `src/auth/sesion.ts`.", "src/auth/session.ts"},
		{"Config from `scripts/generate-config.yml`.", "scripts/generate-config.yaml"},
		{"Read `docs/guide.md`.", "docs/Guide.md"},
		{"Routes in `web/route/index.ts`.", ""},    // "route" is short
		{"Entry in `src/api.ts`.", ""},             // short: api is not app
		{"Handlers in `lib/handlerz.go`.", ""},     // two names one edit away
		{"Routes in `web/routes/indexes.ts`.", ""}, // two edits
		{"Pages in `src/auth/sesion/page.ts`.", ""},
	}
	for _, c := range cases {
		v := judgeFirst(t, c.text, repo)
		if c.near == "" {
			if v.Status != refs.Stale || !v.Unseen || len(v.Near) != 0 {
				t.Errorf("Judge(%q) = %+v, want stale and Unseen, no slip", c.text, v)
			}
			continue
		}
		if v.Status != refs.Stale || v.Unseen || len(v.Near) != 1 || v.Near[0] != c.near {
			t.Errorf("Judge(%q) = %+v, want stale, a slip of %s", c.text, v, c.near)
		}
	}
}
