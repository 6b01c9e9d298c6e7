package repo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

func openRepo(t *testing.T, root string) rules.Repo {
	t.Helper()
	r, err := Open(context.Background(), root, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// historyRepo builds the repository most tests read: a rename, a deletion, a
// folder moved as a whole, and a memory file written over three dates (its
// last line not committed).
func historyRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Write(map[string]string{
		".gitignore":           "dist/\n*.log\n",
		"Makefile":             ".PHONY: build test\nbuild:\n\tgo build\ntest:\n\tgo test\n",
		"package.json":         "{\n  \"engines\": {\"node\": \">=18\"},\n  \"scripts\": {\n    \"dev\": \"vite\"\n  }\n}\n",
		".nvmrc":               "22\n",
		"go.mod":               "module x\n\ngo 1.22\n",
		"src/auth/session.ts":  "export const session = 1; // long enough for git to see a rename\n",
		"scripts/old.sh":       "echo old\n",
		"lib/crypto/duress.rs": "fn duress() { /* long enough for git to see a rename */ }\n",
		"lib/crypto/keys.rs":   "fn keys() { /* long enough for git to see a rename too */ }\n",
		"web/package.json":     "{\"scripts\": {\"storybook\": \"sb\"}}",
		"web/.gitignore":       "build/\n*.tmp\n",
		"docs/adr/0001.md":     "# ADR\n",
		".memory/decisions.md": "# Decisions\n",
	})
	g.Commit("2024-01-01", "start")
	g.Git("mv", "src/auth/session.ts", "src/auth/login.ts")
	g.Commit("2024-02-01", "rename")
	g.Git("rm", "-q", "scripts/old.sh")
	g.Commit("2024-03-01", "delete")
	g.Git("mv", "lib/crypto", "src/crypto")
	g.Commit("2024-04-01", "move the folder")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Auth lives in `src/auth/session.ts`.\n"})
	g.Commit("2024-05-01", "memory")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Auth lives in `src/auth/session.ts`.\n- Not committed.\n", "debug.log": "x"})
	return g
}

func TestRepoPaths(t *testing.T) {
	g := historyRepo(t)
	r := openRepo(t, g.Dir)
	if !r.HasCode() {
		t.Fatal("HasCode = false beside code")
	}
	for _, c := range []struct {
		path      string
		isDir, ok bool
	}{
		{"src/auth/login.ts", false, true}, {"src/auth", true, true}, {"docs/adr/", true, true},
		{"src/auth/session.ts", false, false}, {".memory/decisions.md", false, true}, {"../x", false, false},
		{"debug.log", false, true}, // ignored, but there
	} {
		if isDir, ok := r.Stat(c.path); isDir != c.isDir || ok != c.ok {
			t.Errorf("Stat(%q) = %v, %v; want %v, %v", c.path, isDir, ok, c.isDir, c.ok)
		}
	}
	for p, want := range map[string]bool{
		"login.ts": true, "auth/login.ts": true, "crypto": true, "src/crypto/keys.rs": true,
		"uth/login.ts": false, "session.ts": false, "nowhere/login.ts": false,
	} {
		if got := r.Endings(p) > 0; got != want {
			t.Errorf("Endings(%q) > 0 = %v, want %v", p, got, want)
		}
	}
	for p, want := range map[string]bool{
		"dist/app.js": true, "dist": true, "debug.log": true, "logs/x.log": true,
		".memory/decisions.md": true, ".memory": true, "src/auth/login.ts": false, "src/gone.ts": false,
		"build/app.js": true, "web/build/app.js": true, // web's build, cited without its folder
		"lib/app.js": false, "../build/app.js": false, "src/x.tmp": false, "build": false,
	} {
		if got := r.Ignored(p); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", p, got, want)
		}
	}
	top := g.Top()
	for p, want := range map[string]string{
		"src/auth/login.ts": filepath.Join(top, "src", "auth", "login.ts"),
		"docs/adr/":         filepath.Join(top, "docs", "adr"),
		"keys.rs":           filepath.Join(top, "src", "crypto", "keys.rs"),
		"package.json":      filepath.Join(top, "package.json"),
		"src/gone.ts":       "",
	} {
		abs, ok := r.Locate(p)
		if abs != want || ok != (want != "") {
			t.Errorf("Locate(%q) = %q, %v; want %q", p, abs, ok, want)
		}
	}
}

func TestRepoManifestsAndPins(t *testing.T) {
	g := historyRepo(t)
	r := openRepo(t, g.Dir)
	m, ok := r.Manifest(refs.Make, "")
	if want := (refs.Manifest{File: "Makefile", Names: []string{"build", "test"}, Lines: []int{2, 4}}); !ok || !reflect.DeepEqual(m, want) {
		t.Errorf("Manifest(make) = %+v, %v; want %+v", m, ok, want)
	}
	m, ok = r.Manifest(refs.Pnpm, "web")
	if want := (refs.Manifest{File: "web/package.json", Names: []string{"storybook"}, Lines: []int{1}}); !ok || !reflect.DeepEqual(m, want) {
		t.Errorf("Manifest(pnpm, web) = %+v, %v; want %+v", m, ok, want)
	}
	if m, ok := r.Manifest(refs.Just, ""); ok {
		t.Errorf("Manifest(just) = %+v without a justfile", m)
	}
	if m, ok := r.Manifest(refs.Npm, "docs"); ok {
		t.Errorf("Manifest(npm, docs) = %+v without a package.json there", m)
	}
	for name, want := range map[string]bool{"storybook": true, "dev": false, "e2e": false} {
		if got := r.ListedBelow(refs.Npm, name); got != want {
			t.Errorf("ListedBelow(npm, %s) = %v, want %v (web/package.json lists storybook; the root's own dev is not below it)", name, got, want)
		}
	}
	want := []refs.Pin{{Value: "22", File: ".nvmrc", Line: 1}, {Value: ">=18", File: "package.json", Line: 2}}
	if got := r.Pins("node"); !reflect.DeepEqual(got, want) {
		t.Errorf("Pins(node) = %+v, want %+v", got, want)
	}
	if got := r.Pins("go"); len(got) != 1 || got[0].Value != "1.22" || got[0].Bare != refs.AtLeast {
		t.Errorf("Pins(go) = %+v", got)
	}
	if got := r.Pins("python"); got != nil {
		t.Errorf("Pins(python) = %+v, want none", got)
	}
}

func TestRepoHistory(t *testing.T) {
	g := historyRepo(t)
	r := openRepo(t, g.Dir)
	for _, c := range []struct {
		path string
		to   string
		when string
	}{
		{"src/auth/session.ts", "src/auth/login.ts", "2024-02-01"},
		{"scripts/old.sh", "", "2024-03-01"},
		{"scripts", "", "2024-03-01"},
		{"old.sh", "", "2024-03-01"},
		{"lib/crypto/duress.rs", "src/crypto/duress.rs", "2024-04-01"},
		{"lib/crypto", "src/crypto", "2024-04-01"},
		{"lib", "src", "2024-04-01"},
		{"session.ts", "src/auth/login.ts", "2024-02-01"},
	} {
		m, ok := r.Moved(c.path)
		if !ok || m.To != c.to || !m.When.Equal(gittest.Day(c.when)) || len(m.Commit) < 4 || m.Before {
			t.Errorf("Moved(%q) = %+v, %v; want To %q on %s", c.path, m, ok, c.to, c.when)
		}
	}
	for _, p := range []string{"src/never.ts", "never.ts", "src/auth/login.ts"} {
		if m, ok := r.Moved(p); ok {
			t.Errorf("Moved(%q) = %+v, want nothing", p, m)
		}
	}

	file := filepath.Join(g.Dir, ".memory", "decisions.md")
	for line, want := range map[int]time.Time{1: gittest.Day("2024-01-01"), 2: gittest.Day("2024-05-01"), 3: {}, 4: {}, 0: {}} {
		if got := r.Written(file, line); !got.Equal(want) {
			t.Errorf("Written(line %d) = %v, want %v", line, got, want)
		}
	}
	if got := r.Written("quirks.md", 1); !got.IsZero() {
		t.Errorf("Written of an untracked file = %v, want zero", got)
	}

	commit, when, ok := r.LastChange("src/auth/login.ts")
	if !ok || len(commit) < 4 || !when.Equal(gittest.Day("2024-02-01")) {
		t.Errorf("LastChange(login.ts) = %q, %v, %v", commit, when, ok)
	}
	if _, _, ok := r.LastChange("src/gone.ts"); ok {
		t.Error("LastChange of a missing path")
	}
}

// TestRepoCommitted: the newest commit's paths, files and folders, that
// the index lost: a move no commit recorded leaves the old path
// committed; a path never committed is not, nor one the index still has
// (Judge never asks of those: Stat finds them).
func TestRepoCommitted(t *testing.T) {
	g := historyRepo(t)
	g.Git("mv", "src/auth/login.ts", "src/auth/signin.ts")
	r := openRepo(t, g.Dir)
	for p, want := range map[string]bool{
		"src/auth/login.ts": true,
		"src/auth":          true,
		"src/auth/":         true,
		"Makefile":          false, // still in the index

		"src/auth/signin.ts": false, // staged, not committed
		"scripts/old.sh":     false, // deleted by an earlier commit
		"src/never.ts":       false,
		"debug.log":          false,
	} {
		if got := r.Committed(p); got != want {
			t.Errorf("Committed(%q) = %v, want %v", p, got, want)
		}
	}
	if _, ok := r.Stat("src/auth/login.ts"); ok {
		t.Error("Stat(src/auth/login.ts): the work tree moved it")
	}

	// A move staged after the listing was read, HEAD where it was: the
	// reopened listing knows it (the history's answers are kept, since
	// HEAD did not move, but what the index lost is read again).
	g.Git("rm", "-q", "Makefile")
	next, err := r.(*repo).Reopen(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if !next.Committed("Makefile") || !next.Committed("src/auth/login.ts") {
		t.Error("the reopened listing misses a removal staged since")
	}

	// From a root below the top, a path is tried from the root and from
	// the top.
	below := filepath.Join(g.Dir, "src")
	b := openRepo(t, below)
	for _, p := range []string{"auth/login.ts", "src/auth/login.ts", "Makefile"} {
		if !b.Committed(p) {
			t.Errorf("from src/: Committed(%q) = false", p)
		}
	}
}

// historyDepth counts the commits read, newest first, whatever they
// changed: historyRepo's are the memory (1), the folder move (2), the deletion
// (3), the rename (4).
func TestRepoHistoryDepth(t *testing.T) {
	g := historyRepo(t)
	cfg := config.Default()
	for _, depth := range []int{0, 1, 2, 3, 4} {
		cfg.HistoryDepth = depth
		r, err := Open(context.Background(), g.Dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for p, from := range map[string]int{"lib/crypto": 2, "scripts/old.sh": 3, "src/auth/session.ts": 4} {
			if _, ok := r.Moved(p); ok != (depth >= from) {
				t.Errorf("depth %d: Moved(%s) = %v, want %v", depth, p, ok, depth >= from)
			}
		}
	}
}

// A workspace below the git top: a path is tried from the root, then from
// the top; manifests and pins come from the root, then the top; what is
// shown is from the root when it lies below it.
func TestRepoRootBelowTop(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"go.mod":                    "module x\n\ngo 1.22\n",
		"Makefile":                  "lint:\n",
		"svc/api/package.json":      "{\"scripts\": {\"serve\": \"node .\"}, \"engines\": {\"node\": \"20\"}}",
		"svc/api/main.go":           "package main // long enough for git to see a rename\n",
		"svc/api/.memory/quirks.md": "# Quirks\n- Slow.\n",
		"svc/web/app.ts":            "x",
	})
	g.Commit("2024-01-01", "start")
	g.Git("mv", "svc/api/main.go", "svc/api/cmd.go")
	g.Commit("2024-02-01", "rename")
	root := filepath.Join(g.Dir, "svc", "api")
	r := openRepo(t, root)
	for _, p := range []string{"cmd.go", "package.json", "go.mod", "svc/web/app.ts", "../web/app.ts"} {
		if _, ok := r.Stat(p); !ok {
			t.Errorf("Stat(%q) = false", p)
		}
	}
	if m, ok := r.Manifest(refs.Npm, ""); !ok || m.File != "package.json" || !slices.Equal(m.Names, []string{"serve"}) {
		t.Errorf("Manifest(npm) = %+v, %v; want the root's package.json", m, ok)
	}
	if m, ok := r.Manifest(refs.Make, ""); !ok || m.File != "Makefile" || !slices.Equal(m.Names, []string{"lint"}) {
		t.Errorf("Manifest(make) = %+v, %v; want the top's Makefile", m, ok)
	}
	if r.ListedBelow(refs.Make, "lint") || r.ListedBelow(refs.Npm, "serve") {
		t.Error("ListedBelow counts the top's or the root's own manifest")
	}
	if p := r.Pins("node"); len(p) != 1 || p[0].File != "package.json" {
		t.Errorf("Pins(node) = %+v, want the root's package.json", p)
	}
	if p := r.Pins("go"); len(p) != 1 || p[0].File != "go.mod" {
		t.Errorf("Pins(go) = %+v, want the top's go.mod", p)
	}
	if m, ok := r.Moved("main.go"); !ok || m.To != "cmd.go" {
		t.Errorf("Moved(main.go) = %+v, %v; want To cmd.go, shown from the root", m, ok)
	}
	if got := r.Written(filepath.Join(root, ".memory", "quirks.md"), 2); !got.Equal(gittest.Day("2024-01-01")) {
		t.Errorf("Written = %v, want 2024-01-01", got)
	}
	if !r.Ignored(".memory/quirks.md") {
		t.Error("the workspace's .memory is judged")
	}
}

// A root holding nothing but .memory/ has no code, in git or not.
func TestRepoNoCode(t *testing.T) {
	root := t.TempDir()
	gittest.WriteFiles(t, root, map[string]string{".memory/decisions.md": "# Decisions\n- Use `src/x.ts`.\n"})
	if openRepo(t, root).HasCode() {
		t.Error("HasCode = true without git and without code")
	}
	g := gittest.New(t)
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n"})
	g.Commit("2024-01-01", "memory only")
	if openRepo(t, g.Dir).HasCode() {
		t.Error("HasCode = true in a git repository holding only .memory")
	}
	g.Write(map[string]string{"README.md": "x"})
	if !openRepo(t, g.Dir).HasCode() {
		t.Error("HasCode = false with an untracked README")
	}
}

// Outside git: the walk's files, no history, no blame, no last change.
func TestRepoWithoutGit(t *testing.T) {
	root := t.TempDir()
	gittest.WriteFiles(t, root, map[string]string{
		".gitignore":           "build/\n",
		"src/app.ts":           "x",
		"build/out.js":         "x",
		".memory/decisions.md": "# Decisions\n- x\n",
	})
	r := openRepo(t, root)
	if _, ok := r.Stat("src/app.ts"); !ok || !r.HasCode() {
		t.Error("the walk missed src/app.ts")
	}
	if !r.Ignored("build/out.js") {
		t.Error("build/ is not ignored")
	}
	if _, ok := r.Moved("src/old.ts"); ok {
		t.Error("Moved outside git")
	}
	if got := r.Written(filepath.Join(root, ".memory", "decisions.md"), 2); !got.IsZero() {
		t.Errorf("Written outside git = %v", got)
	}
	if _, _, ok := r.LastChange("src/app.ts"); ok {
		t.Error("LastChange outside git")
	}
}

// Every method from many goroutines at once: the lazy parts are built once
// and the answers agree (run with -race to see the locking hold).
func TestRepoConcurrent(t *testing.T) {
	g := historyRepo(t)
	r := openRepo(t, g.Dir)
	file := filepath.Join(g.Dir, ".memory", "decisions.md")
	type answers struct {
		ends  bool
		moved refs.Move
		man   refs.Manifest
		pins  []refs.Pin
		when  time.Time
		abs   string
		last  string
	}
	ask := func() answers {
		var a answers
		a.ends = r.Endings("login.ts") > 0
		a.moved, _ = r.Moved("src/auth/session.ts")
		a.man, _ = r.Manifest(refs.Make, "")
		a.pins = r.Pins("node")
		a.when = r.Written(file, 2)
		a.abs, _ = r.Locate("login.ts")
		a.last, _, _ = r.LastChange("Makefile")
		return a
	}
	var wg sync.WaitGroup
	got := make([]answers, 8)
	for i := range got {
		wg.Go(func() { got[i] = ask() })
	}
	wg.Wait()
	for i := range got {
		if !reflect.DeepEqual(got[i], got[0]) {
			t.Fatalf("goroutine %d saw %+v, goroutine 0 %+v", i, got[i], got[0])
		}
	}
	if !got[0].ends || got[0].moved.To == "" || got[0].man.File == "" || got[0].when.IsZero() || got[0].abs == "" || got[0].last == "" {
		t.Errorf("answers %+v", got[0])
	}
}

// TestRepoJudge: the verdicts Judge gives on a real repository through the
// adapter, one per kind of reference and outcome.
func TestRepoJudge(t *testing.T) {
	g := historyRepo(t)
	r := openRepo(t, g.Dir)
	for _, c := range []struct {
		text string
		want refs.Status
		to   string
	}{
		{"Login is in `src/auth/login.ts`.", refs.Holds, ""},
		{"Auth lives in `src/auth/session.ts`.", refs.Stale, "src/auth/login.ts"},
		{"Keys are in `lib/crypto/keys.rs`.", refs.Stale, "src/crypto/keys.rs"},
		{"Run `scripts/old.sh` first.", refs.Stale, ""},
		{"Logic is in `duress.rs`.", refs.Holds, ""},
		{"Bundles land in `dist/app.js`.", refs.Silent, ""},
		{"Run `make test` before merging.", refs.Holds, ""},
		{"Run `make e2e` before merging.", refs.Stale, ""},
		{"`cd web && npm run storybook`", refs.Holds, ""},
		{"`npm run build` compiles.", refs.Stale, ""},
		{"We are on Node 18.", refs.Drift, ""},
		{"Node 18 or newer.", refs.Holds, ""},
		{"Built with Go 1.21.", refs.Drift, ""},
	} {
		rs := refs.Extract(c.text)
		if len(rs) == 0 {
			t.Errorf("%q: no reference", c.text)
			continue
		}
		v := refs.Judge(rs[0], r)
		if v.Status != c.want || c.to != "" && (v.Moved == nil || v.Moved.To != c.to) {
			t.Errorf("%q: %+v, want %s (to %q)", c.text, v, c.want, c.to)
		}
	}
}

// TestRepoPinsBelow: a subject the root pins nothing of is judged by the
// subprojects' pins (a monorepo's web/package.json); the root's pins win
// where there are any, and test fixtures and vendored code pin nothing.
func TestRepoPinsBelow(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"package.json":                      "{\n  \"devDependencies\": {\"typescript\": \"^5.4.0\"}\n}\n",
		"web/package.json":                  "{\n  \"devDependencies\": {\n    \"vite\": \"^8.0.0\",\n    \"typescript\": \"^4.9.0\"\n  }\n}\n",
		"api/pyproject.toml":                "[project]\nrequires-python = \">=3.11\"\n",
		"test/fixtures/old/package.json":    "{\"dependencies\": {\"vite\": \"^2.0.0\"}}\n",
		"vendor/lib/package.json":           "{\"dependencies\": {\"vite\": \"^3.0.0\"}}\n",
		"web/testdata/app/package.json":     "{\"dependencies\": {\"lodash\": \"^3.0.0\"}}\n",
		".memory/decisions.md":              "# Decisions\n",
		"web/src/main.ts":                   "export {}\n",
		"api/src/app.py":                    "x = 1\n",
		"test/fixtures/old/node_modules.md": "x\n",
		".github/workflows/lint.yml":        "jobs:\n  lint:\n    steps:\n      - uses: golangci/golangci-lint-action@v8\n        with:\n          version: v2.9\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 18\n",
	})
	g.Commit("2024-01-01", "start")
	r := openRepo(t, g.Dir)
	files := func(ps []refs.Pin) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.File+" "+p.Value)
		}
		return out
	}
	for subject, want := range map[string][]string{
		"vite":       {"web/package.json ^8.0.0"},
		"typescript": {"package.json ^5.4.0"},
		"python":     {"api/pyproject.toml >=3.11"},
		"lodash":     nil,
		// Only CI pins the linter; vite's subproject pin wins over nothing.
		"golangci-lint": {".github/workflows/lint.yml v2.9"},
		"node":          {".github/workflows/lint.yml 18"},
	} {
		if got := files(r.Pins(subject)); !slices.Equal(got, want) {
			t.Errorf("Pins(%s) = %q, want %q", subject, got, want)
		}
	}
	for text, want := range map[string]refs.Status{
		"We build with Vite 6.":         refs.Drift,
		"We build with Vite 8.":         refs.Holds,
		"TypeScript 5 everywhere.":      refs.Holds,
		"Python 3.10 is the minimum.":   refs.Drift,
		"Lint with golangci-lint v2.5.": refs.Drift,
		"golangci-lint v2.9 in CI.":     refs.Holds,
	} {
		rs := refs.Extract(text)
		if len(rs) != 1 {
			t.Fatalf("Extract(%q) = %+v", text, rs)
		}
		if got := refs.Judge(rs[0], r).Status; got != want {
			t.Errorf("Judge(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestRepoScriptTakenOverBelow: a root script that the root's package.json
// listed when the entry was written, and that only a subproject lists now,
// is stale (the entry meant the root's); an entry written after the change,
// or not committed yet, may mean the subproject's, and stays silent.
func TestRepoScriptTakenOverBelow(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"package.json":         "{\"scripts\": {\"build\": \"tsc\", \"lint\": \"eslint .\"}}\n",
		"src/index.ts":         "export {}\n",
		".memory/decisions.md": "# Decisions\n",
	})
	g.Commit("2024-01-01", "start")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Run `npm run build` before pushing.\n"})
	g.Commit("2024-02-01", "memory")
	g.Write(map[string]string{
		"package.json":            "{\"scripts\": {\"build:all\": \"npm run build -ws\", \"lint\": \"eslint .\"}}\n",
		"packages/a/package.json": "{\"scripts\": {\"build\": \"tsc\"}}\n",
	})
	g.Commit("2024-03-01", "workspaces")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Run `npm run build` before pushing.\n- Run `npm run build` in CI.\n"})
	g.Commit("2024-04-01", "more memory")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- Run `npm run build` before pushing.\n- Run `npm run build` in CI.\n- Run `npm run build` locally.\n"})
	r := openRepo(t, g.Dir)

	m, ok := r.ManifestAt(refs.Npm, "", time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC))
	if !ok || !slices.Contains(m.Names, "build") || m.File != "package.json" {
		t.Errorf("ManifestAt(npm, the memory commit) = %+v, %v; want the root's package.json with build", m, ok)
	}
	m, ok = r.ManifestAt(refs.Npm, "", time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC))
	if !ok || slices.Contains(m.Names, "build") || !slices.Contains(m.Names, "build:all") {
		t.Errorf("ManifestAt(npm, after the change) = %+v, %v; want build:all only", m, ok)
	}
	if m, ok := r.ManifestAt(refs.Npm, "", time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)); ok {
		t.Errorf("ManifestAt before the first commit = %+v, want none", m)
	}
	ref := refs.Extract("Run `npm run build` before pushing.")[0]
	path := filepath.Join(g.Dir, ".memory", "decisions.md")
	for line, want := range map[int]refs.Verdict{
		2: {Status: refs.Stale, File: "package.json", Dropped: true, Near: []string{"build:all"}},
		3: {File: "package.json"}, // written after the change: may mean packages/a's
		4: {File: "package.json"}, // not committed: written now
	} {
		got := rules.JudgeEntry(r, path, line, []refs.Ref{ref}, 0)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("line %d: %+v, want %+v", line, got, want)
		}
	}
}

// TestRepoWrittenFollowsSaves: a line inserted above a committed one on
// disk (a save) moves it; the repository, which outlives saves in the
// server, blames the file again and dates each line where it is now.
func TestRepoWrittenFollowsSaves(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{"src/a.go": "package a\n", ".memory/decisions.md": "# Decisions\n- Old entry.\n"})
	g.Commit("2024-01-01", "start")
	r := openRepo(t, g.Dir)
	p := filepath.Join(g.Dir, ".memory", "decisions.md")
	if w := r.Written(p, 2); w.IsZero() {
		t.Fatal("a committed line has no time")
	}
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n- New entry, not committed.\n- Old entry.\n"})
	if w := r.Written(p, 2); !w.IsZero() {
		t.Errorf("the inserted line 2 is dated %v, want not committed", w)
	}
	if w := r.Written(p, 3); w.IsZero() {
		t.Error("the committed line, now line 3, is not dated")
	}
	// A long-lived server sees many saves: one blame a file is kept.
	for i := range 5 {
		g.Write(map[string]string{".memory/decisions.md": fmt.Sprintf("# Decisions\n- Save %d.\n- Old entry.\n%s", i, strings.Repeat("- More.\n", i))})
		r.Written(p, 2)
	}
	rr := r.(*repo)
	rr.answers.blames.mu.Lock()
	kept := len(rr.answers.blames.m)
	rr.answers.blames.mu.Unlock()
	if kept != 1 {
		t.Errorf("%d blames kept after six states of one file, want 1", kept)
	}
}

// TestRepoRootThenAndModules: what the root held when an entry was written
// (one listing a commit) decides a Soft reference and a bare folder found
// deeper now; a module cited without its extension exists.
func TestRepoRootThenAndModules(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"references/hello-world/trigger.config.ts": "export {}\n",
		"parser/lib.rs":                           "\n",
		"src/lib/utils.ts":                        "export {}\n",
		"internal-packages/redis-worker/index.ts": "export {}\n",
		".memory/decisions.md":                    "# Decisions\n",
	})
	g.Commit("2024-01-01", "start")
	g.Write(map[string]string{".memory/decisions.md": "# Decisions\n" +
		"- Test changes with `references/hello-world`.\n" +
		"- The SQL parser is `parser/`.\n" +
		"- `internal-packages/zodworker` wraps the queue.\n" +
		"- Upstream is `owner/repo`.\n" +
		"- Helpers in `src/lib/utils`.\n"})
	g.Commit("2024-02-01", "memory")
	g.Git("rm", "-rq", "references", "parser")
	g.Write(map[string]string{"sqlite/parser/lib.rs": "\n", "docs/parser/README.md": "# Parser\n"})
	g.Commit("2024-03-01", "move references out, parser deeper")
	r := openRepo(t, g.Dir)

	at := time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	if isDir, ok := r.RootAt("references", at); !ok || !isDir {
		t.Errorf("RootAt(references, the memory commit) = %v, %v; want a folder", isDir, ok)
	}
	if _, ok := r.RootAt("references", time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC)); ok {
		t.Error("RootAt(references, after its removal) holds")
	}
	if _, ok := r.RootAt("references", time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)); ok {
		t.Error("RootAt before the first commit holds")
	}
	if !r.Stem("src/lib/utils") || r.Stem("src/lib/strings") || r.Stem("src/lib") {
		t.Errorf("Stem: utils %v, strings %v, lib %v; want true, false, false",
			r.Stem("src/lib/utils"), r.Stem("src/lib/strings"), r.Stem("src/lib"))
	}

	path := filepath.Join(g.Dir, ".memory", "decisions.md")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for line, want := range map[int]refs.Status{
		2: refs.Stale,  // under a root folder the entry saw, removed since
		3: refs.Stale,  // the root's parser/, gone deeper while others of its name exist
		4: refs.Stale,  // under a root folder that exists, missing
		5: refs.Silent, // no root folder owner/: another repository
		6: refs.Holds,  // a module
	} {
		text := strings.TrimPrefix(lines[line-1], "- ")
		ref := refs.Extract(text)[0]
		if got := rules.JudgeEntry(r, path, line, []refs.Ref{ref}, 0); got.Status != want {
			t.Errorf("line %d %q: %+v, want %v", line, text, got, want)
		}
	}
}

// TestRepoNestedIgnoreAll: a subproject's .gitignore that keeps out
// everything (`*`, as Laravel's storage/ folders hold) silences the paths
// below it, not every path of the repository (issue 27); one that names a
// folder (`dist/`) still excuses a cited `dist/…` (a subproject's build).
func TestRepoNestedIgnoreAll(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"storage/app/.gitignore": "*\n!.gitignore\n",
		"web/.gitignore":         "dist/\n",
		"src/main.go":            "package main\n",
		".memory/decisions.md":   "# Decisions\n",
	})
	g.Commit("2024-01-01", "init")
	r := openRepo(t, g.Dir)
	if r.Ignored("src/auth/session.go") {
		t.Error("storage/app/.gitignore's * silences src/auth/session.go")
	}
	if !r.Ignored("storage/app/uploads/x.png") {
		t.Error("a path below storage/app is not ignored")
	}
	if !r.Ignored("dist/index.js") {
		t.Error("web/.gitignore's dist/ does not excuse dist/index.js")
	}
}

// TestRepoSubmodulesOpenTheManifest: in a repository with git submodules
// the root's Makefile is not the last word on a target (a command may run
// in a submodule the work tree has not checked out): a missing name is no
// proof, and stale-command stays silent.
func TestRepoSubmodulesOpenTheManifest(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{"Makefile": "build:\n\tgo build ./...\n", "src/main.go": "package main\n", ".memory/decisions.md": "# Decisions\n"})
	g.Commit("2024-01-01", "init")
	if m, ok := openRepo(t, g.Dir).Manifest(refs.Make, ""); !ok || m.Open {
		t.Fatalf("without submodules: Manifest = %+v, %v; want a closed one", m, ok)
	}
	g.Write(map[string]string{".gitmodules": "[submodule \"evaluation\"]\n\tpath = evaluation\n\turl = https://example.com/eval.git\n"})
	g.Commit("2024-02-01", "a submodule")
	if m, ok := openRepo(t, g.Dir).Manifest(refs.Make, ""); !ok || !m.Open {
		t.Errorf("with .gitmodules: Manifest = %+v, %v; want an open one", m, ok)
	}
}

// TestRepoManifestLost: a name an earlier version of the manifest listed
// is lost, by the newest commit that removed it (a name removed, added
// back and removed again: the second removal); one HEAD lists and the
// work tree dropped is lost since the last commit; a name no version
// listed, a subproject's manifest's history and a repository read with no
// history depth know of none.
func TestRepoManifestLost(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"Makefile":             "build:\n\tgo build\nlint:\n\tgo vet\ne2e:\n\t./e2e.sh\n",
		"web/package.json":     "{\"scripts\": {\"dev\": \"vite\", \"storybook\": \"sb\"}}\n",
		".memory/decisions.md": "# Decisions\n",
	})
	g.Commit("2024-01-01", "start")
	g.Write(map[string]string{"Makefile": "build:\n\tgo build\ne2e:\n\t./e2e.sh\n"})
	g.Commit("2024-02-01", "drop lint")
	g.Write(map[string]string{"Makefile": "build:\n\tgo build\nlint:\n\tgo vet\ne2e:\n\t./e2e.sh\n"})
	g.Commit("2024-03-01", "lint is back")
	g.Write(map[string]string{"Makefile": "build:\n\tgo build\ne2e-test:\n\t./e2e.sh\n"})
	g.Commit("2024-04-01", "lint goes again, e2e becomes e2e-test")
	g.Write(map[string]string{"web/package.json": "{\"scripts\": {\"dev\": \"vite\"}}\n"})
	r := openRepo(t, g.Dir)
	day := func(m refs.Move) string { return m.When.UTC().Format("2006-01-02") }
	for _, name := range []string{"lint", "e2e"} {
		if m, ok := r.ManifestLost(refs.Make, "", name); !ok || day(m) != "2024-04-01" || m.Commit == "" {
			t.Errorf("ManifestLost(make, %s) = %+v, %v; want the commit of 2024-04-01", name, m, ok)
		}
	}
	if m, ok := r.ManifestLost(refs.Make, "", "release"); ok {
		t.Errorf("ManifestLost(make, release) = %+v: no version listed it", m)
	}
	if m, ok := r.ManifestLost(refs.Pnpm, "web", "storybook"); !ok || m.Commit != "" {
		t.Errorf("ManifestLost(pnpm, web, storybook) = %+v, %v; want lost since the last commit", m, ok)
	}
	if m, ok := r.ManifestLost(refs.Npm, "", "storybook"); ok {
		t.Errorf("ManifestLost(npm, root, storybook) = %+v: the root has no package.json", m)
	}
	cfg := config.Default()
	cfg.HistoryDepth = 0
	shallow, err := Open(context.Background(), g.Dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := shallow.ManifestLost(refs.Make, "", "lint"); ok {
		t.Errorf("with historyDepth 0: %+v, want no history", m)
	}
	// through the rule's judge: the verdict carries the removal
	ref := refs.Extract("Run `make lint` before pushing.")[0]
	v := rules.JudgeEntry(r, filepath.Join(g.Dir, ".memory", "decisions.md"), 1, []refs.Ref{ref}, 0)
	if v.Status != refs.Stale || v.Lost == nil || day(*v.Lost) != "2024-04-01" {
		t.Errorf("judging `make lint`: %+v, want stale and lost on 2024-04-01", v)
	}
}

// TestRepoManifestLostAcrossABrokenVersion: a commit that broke
// package.json but kept the script is not the one that removed it (a red
// team's): the removal is the commit after it.
func TestRepoManifestLostAcrossABrokenVersion(t *testing.T) {
	g := gittest.New(t)
	g.Write(map[string]string{
		"package.json":         "{\"scripts\": {\"dev\": \"vite\", \"preview\": \"vite preview\"}}\n",
		".memory/decisions.md": "# Decisions\n",
	})
	g.Commit("2024-01-01", "start")
	g.Write(map[string]string{"package.json": "{\"scripts\": {\"dev\": \"vite\", \"preview\": \"vite preview\"\n"})
	g.Commit("2024-02-01", "break the JSON")
	g.Write(map[string]string{"package.json": "{\"scripts\": {\"dev\": \"vite\"}}\n"})
	g.Commit("2024-03-01", "drop preview")
	r := openRepo(t, g.Dir)
	m, ok := r.ManifestLost(refs.Npm, "", "preview")
	if !ok || m.When.UTC().Format("2006-01-02") != "2024-03-01" {
		t.Errorf("ManifestLost(npm, preview) = %+v, %v; want the commit of 2024-03-01", m, ok)
	}
}
