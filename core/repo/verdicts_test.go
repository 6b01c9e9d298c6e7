package repo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// verdictFiles are the files the random changes of
// TestCheckerReusesVerdictsAsAFullCheck create, delete and move; the
// memory cites each, by its path, its name and its last two elements.
var verdictFiles = []string{
	"src/auth/session.ts", "src/auth/login.ts", "src/app.ts", "src/util/math.ts", "lib/math.ts",
	"lib/deep/x.go", "docs/adr/0001.md", "web/src/main.ts", "web/dist/out.js", "dist/bundle.js",
	"tools/gen.sh", "session.ts", "pkg/auth/session.ts", "notes.txt",
}

// verdictFolders are the folders the changes move and remove.
var verdictFolders = []string{"src/auth", "src/util", "lib", "lib/deep", "docs", "docs/adr", "web/src", "tools", "pkg", "pkg/auth"}

// verdictMemory is the memory file: an entry per citation, paths,
// commands and versions.
func verdictMemory() string {
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	cite := func(s string) { fmt.Fprintf(&b, "- Note %d: see %s for this.\n", b.Len(), s) }
	for _, f := range verdictFiles {
		cite("`" + f + "`")
		cite("`" + path.Base(f) + "`")
		if d := path.Dir(f); d != "." {
			cite("`" + path.Base(d) + "/" + path.Base(f) + "`")
		}
		// As a module, without its extension (Stem), and as a word.
		if stem := strings.TrimSuffix(f, path.Ext(f)); strings.Contains(stem, "/") {
			cite("`" + stem + "`")
		} else {
			cite("`" + stem + "` is a module")
		}
	}
	for _, d := range verdictFolders {
		cite("`" + d + "/`")
		cite("`" + path.Base(d) + "/`")
	}
	for _, c := range []string{"make build", "make lint", "make gen", "npm run dev", "npm run lint", "npm run storybook",
		"cd web && npm run storybook", "cd web && npm run dev", "cd lib && make build", "npm test"} {
		cite("`" + c + "`")
	}
	for _, v := range []string{"Node.js `20.11.1`", "Node 22", "Go 1.21", "Go 1.22", "React 18.2.0", "Vite 5.0.0"} {
		fmt.Fprintf(&b, "- Note %d: the project runs %s.\n", b.Len(), v)
	}
	return b.String()
}

// TestCheckerReusesVerdictsAsAFullCheck applies random changes to a real
// git repository (files and folders created, deleted and moved with git
// mv, cited or not; manifests, pin files, workflows and .gitignore files
// edited; commits) and after each holds the findings of a Checker that
// follows the repository by Update, and so judges again only what each
// change may alter (rules.DerivedRepo), to those of a full check against
// the repository opened afresh: byte for byte.
func TestCheckerReusesVerdictsAsAFullCheck(t *testing.T) {
	longtest.Skip(t)
	// Seed 22 removes a folder holding a file the history deleted once
	// and that came back: its bare name is then gone again (Moved by name).
	// Seeds 10 and 34 remove a folder whose .gitignore the index still
	// lists: its rules go with it.
	for _, seed := range []uint64{1, 2, 3, 10, 22, 34} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { checkReusedVerdicts(t, seed, 80) })
	}
}

func checkReusedVerdicts(t *testing.T, seed uint64, steps int) {
	rng := rand.New(rand.NewPCG(seed, 14))
	g := gittest.New(t)
	root := g.Top()
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	exists := func(rel string) bool { _, err := os.Stat(at(rel)); return err == nil }
	pick := func(from []string) string { return from[rng.IntN(len(from))] }
	move := func(from, to string) (string, []string) {
		if err := os.MkdirAll(filepath.Dir(at(to)), 0o755); err != nil {
			t.Fatal(err)
		}
		g.Git("mv", from, to)
		return "git mv " + from + " " + to, []string{from, to}
	}
	memory := verdictMemory()
	start := map[string]string{
		".gitignore":                    "dist/\n*.log\n",
		"Makefile":                      ".PHONY: build test\nbuild:\n\tgo build\ntest:\n\tgo test\n",
		"package.json":                  "{\n  \"engines\": {\"node\": \">=18\"},\n  \"scripts\": {\"dev\": \"vite\"},\n  \"dependencies\": {\"react\": \"^18.2.0\"}\n}\n",
		".nvmrc":                        "22\n",
		"go.mod":                        "module x\n\ngo 1.22\n",
		"web/package.json":              "{\"scripts\": {\"storybook\": \"sb\"}, \"devDependencies\": {\"vite\": \"^5.0.0\"}}",
		"web/.gitignore":                "build/\n*.tmp\n",
		".github/workflows/ci.yml":      "jobs:\n  test:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n          go-version: '1.22'\n",
		".memory/decisions.md":          memory,
		"src/auth/session.ts":           "export const session = 1; // long enough for git to see a rename\n",
		"lib/math.ts":                   "export const add = (a, b) => a + b; // long enough for a rename\n",
		"docs/adr/0001.md":              "# ADR 1\n",
		"tools/gen.sh":                  "echo gen\n",
		"web/src/main.ts":               "console.log('main')\n",
		"src/app.ts":                    "app\n",
		"notes.txt":                     "notes\n",
		"lib/deep/x.go":                 "package deep\n",
		"pkg/auth/session.ts":           "export const other = 2;\n",
		"src/util/math.ts":              "export const mul = (a, b) => a * b;\n",
		"web/dist/out.js":               "built\n",
		"session.ts":                    "root session\n",
		"docs/adr/0002.md":              "# ADR 2\n",
		"lib/deep/y.go":                 "package deep // y\n",
		".github/workflows/release.yml": "jobs: {}\n",
	}
	g.Write(start)
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	commit := func(msg string) {
		day = day.AddDate(0, 0, 1)
		g.Git("add", "-A")
		g.Commit(day.Format("2006-01-02"), msg)
	}
	commit("start")
	// Moves and deletions in the history, before and after the memory.
	g.Git("mv", "src/auth/session.ts", "src/auth/login.ts")
	commit("rename")
	g.Write(map[string]string{"src/auth/session.ts": "export const session = 3; // back\n"})
	commit("back")

	files := []rules.File{rules.NewFile(".memory/decisions.md", []byte(memory))}
	cfg := config.Default()
	cur := openRepo(t, root).(Updatable)
	checker := &rules.Checker{Repo: cur}
	checker.Check(files, cfg)
	seen := map[string]bool{}
	for i := 0; i < steps; i++ {
		var what string
		var named []string
		switch op := rng.IntN(10); op {
		case 0, 1: // a file created or written
			f := pick(verdictFiles)
			g.Write(map[string]string{f: fmt.Sprintf("content %d\n", i)})
			what, named = "write "+f, []string{f}
		case 2, 5: // a file or a folder deleted
			f := pick(verdictFiles)
			if op == 5 {
				f = pick(verdictFolders)
			}
			if !exists(f) {
				continue
			}
			if err := os.RemoveAll(at(f)); err != nil {
				t.Fatal(err)
			}
			what, named = "rm -r "+f, []string{f}
		case 3: // git mv of a tracked file
			tracked := strings.Fields(g.Git("ls-files"))
			from := pick(tracked)
			to := pick(verdictFiles)
			if strings.HasPrefix(from, ".") || !exists(from) || exists(to) || strings.HasPrefix(to, from+"/") {
				continue
			}
			what, named = move(from, to)
		case 4: // git mv of a folder
			from, to := pick(verdictFolders), pick(verdictFolders)
			if !exists(from) || exists(to) || strings.HasPrefix(to, from+"/") || strings.HasPrefix(from, to+"/") ||
				strings.TrimSpace(g.Git("ls-files", from)) == "" || strings.TrimSpace(g.Git("ls-files", "--deleted", from)) != "" {
				continue
			}
			what, named = move(from, to)
		case 6: // a manifest edited
			f, src := pick([]string{"Makefile", "package.json", "web/package.json", "lib/Makefile"}), ""
			targets := []string{"build", "lint", "gen", "dev", "storybook", "test"}
			a, b := pick(targets), pick(targets)
			if path.Base(f) == "Makefile" {
				src = fmt.Sprintf(".PHONY: %s %s\n%s:\n\ttrue\n%s:\n\ttrue\n", a, b, a, b)
			} else {
				src = fmt.Sprintf("{\"scripts\": {%q: \"x\", %q: \"y\"}}", a, b)
			}
			g.Write(map[string]string{f: src})
			what, named = "manifest "+f+": "+a+" "+b, []string{f}
		case 7: // a pin edited
			f := pick([]string{".nvmrc", "go.mod", "web/package.json", ".github/workflows/ci.yml", "lib/go.mod"})
			v := pick([]string{"1.21", "1.22", "20.11.1", "22", "18.2.0", "5.0.0", "4.1.0"})
			src := map[string]string{
				".nvmrc":                   v + "\n",
				"go.mod":                   "module x\n\ngo " + v + "\n",
				"lib/go.mod":               "module x/lib\n\ngo " + v + "\n",
				"web/package.json":         fmt.Sprintf("{\"scripts\": {\"storybook\": \"sb\"}, \"dependencies\": {\"vite\": \"^%s\", \"react\": \"%s\"}}", v, v),
				".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: '" + v + "'\n",
			}[f]
			g.Write(map[string]string{f: src})
			what, named = "pin "+f+": "+v, []string{f}
		case 8: // a .gitignore edited
			f := pick([]string{".gitignore", "web/.gitignore", "lib/.gitignore"})
			g.Write(map[string]string{f: pick([]string{"dist/\n", "dist/\n*.log\nlib/deep/\n", "src/\n", "build/\n*.ts\n", "*.md\n"})})
			what, named = "ignore "+f, []string{f}
		default: // everything committed
			if strings.TrimSpace(g.Git("status", "--porcelain")) == "" {
				continue
			}
			commit(fmt.Sprint("step ", i))
			what = "commit"
		}
		var abs []string
		for _, n := range named {
			abs = append(abs, at(n))
		}
		next, _, err := cur.Update(context.Background(), abs)
		if err != nil {
			t.Fatalf("step %d, %s: %v", i, what, err)
		}
		cur = next.(Updatable)
		checker.Repo = next
		got := findingsText(checker.Check(files, cfg))
		want := findingsText(rules.CheckWithRepo(files, cfg, openRepo(t, root)))
		if got != want {
			t.Fatalf("step %d, %s: the findings of the reused verdicts\n%s\nwant, as a full check finds\n%s", i, what, got, want)
		}
		for _, l := range strings.Split(want, "\n") {
			seen[strings.SplitN(l, " ", 2)[0]] = true
		}
	}
	// The changes must have made each reference rule find something, or
	// the comparison proves little.
	for _, code := range []string{"stale-path", "stale-command", "version-drift"} {
		if !seen[code] {
			t.Errorf("no step found %s", code)
		}
	}
}

// findingsText is every finding as text, in the order found.
func findingsText(fs []rules.Finding) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s %+v", f.Code, f)
	}
	return strings.Join(out, "\n")
}
