package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/merge"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestMergeDriverCommand runs merge-driver in process on files, as git
// would call it.
func TestMergeDriverCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	drive := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"merge-driver"}, args...), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
		return out.String(), errb.String(), code
	}
	base := write("O", "# Decisions\n\n- [db] Use PostgreSQL 15.\n")

	t.Run("clean", func(t *testing.T) {
		a := write("A", "# Decisions\n\n- [db] Use PostgreSQL 15.\n- [ci] Run CI on every push.\n")
		b := write("B", "# Decisions\n\n- [db] Use PostgreSQL 15.\n- [tags] Tag releases with semver.\n")
		out, errs, code := drive(base, a, b, ".memory/decisions.md")
		if code != 0 || out != "" || errs != "" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
		}
		got, _ := os.ReadFile(a)
		if want := "# Decisions\n\n- [db] Use PostgreSQL 15.\n- [ci] Run CI on every push.\n- [tags] Tag releases with semver.\n"; string(got) != want {
			t.Errorf("merged %q, want %q", got, want)
		}
	})

	t.Run("entry conflict", func(t *testing.T) {
		a := write("A", "# Decisions\n\n- [db] Use PostgreSQL 16.\n")
		b := write("B", "# Decisions\n\n- [db] Use MySQL 8.\n")
		_, errs, code := drive(base, a, b, ".memory/decisions.md")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		want := "memory-lsp: .memory/decisions.md: both sides changed the entry [db]; kept both versions (lines 3 and 4), which `memory-lsp check` reports as an error until one is removed\n"
		if errs != want {
			t.Errorf("stderr %q, want %q", errs, want)
		}
		got, _ := os.ReadFile(a)
		if string(got) != "# Decisions\n\n- [db] Use PostgreSQL 16.\n- [db] Use MySQL 8.\n" {
			t.Errorf("merged %q", got)
		}
	})

	t.Run("json", func(t *testing.T) {
		a := write("A", "- [db] One.\n")
		b := write("B", "- [db] Two.\n")
		out, _, code := drive("--json", base, a, b)
		var res struct {
			Path      string
			Conflicts []struct{ Slug string }
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Path != a || len(res.Conflicts) != 1 || res.Conflicts[0].Slug != "db" {
			t.Errorf("exit %d, %s", code, out)
		}
	})

	t.Run("unreadable input", func(t *testing.T) {
		a := write("A", "- ours\n")
		_, errs, code := drive(filepath.Join(dir, "missing"), a, base, "x.md")
		if code != exitError || !strings.Contains(errs, "merging x.md: reading base") {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
		if got, _ := os.ReadFile(a); string(got) != "- ours\n" {
			t.Errorf("ours changed to %q", got)
		}
	})

	t.Run("usage", func(t *testing.T) {
		if _, errs, code := drive(base, base); code != exitError || !strings.Contains(errs, "BASE OURS THEIRS") {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
	})
}

// testRepo is a repository made for one test (git isolated from the
// machine's configuration, by gittest) with memory-lsp (the built binary)
// on its PATH, as the driver command needs, and main as its branch.
type testRepo struct {
	*gittest.Repo
	t *testing.T
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	g := gittest.New(t)
	g.Env = append(g.Env, "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	g.Git("symbolic-ref", "HEAD", "refs/heads/main")
	return &testRepo{Repo: g, t: t}
}

func (r *testRepo) exec(name string, args ...string) (string, int) {
	r.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return string(out), 0
}

func (r *testRepo) memory(args ...string) (string, int) {
	r.t.Helper()
	return r.exec(binary, args...)
}

func (r *testRepo) write(name, data string) {
	r.t.Helper()
	writeTestFile(r.t, filepath.Join(r.Dir, filepath.FromSlash(name)), []byte(data))
}

// wantMerged checks .memory/decisions.md after a merge.
func (r *testRepo) wantMerged(want string) {
	r.t.Helper()
	if got := r.read(".memory/decisions.md"); got != want {
		r.t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
}

func (r *testRepo) read(name string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(name)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// setup registers the driver with the built binary's `init --git` and
// commits decisions.md as base.
func (r *testRepo) setup(base string) {
	r.t.Helper()
	if out, code := r.memory("init", "--git"); code != 0 {
		r.t.Fatalf("init --git: exit %d\n%s", code, out)
	}
	r.write(".memory/decisions.md", base)
	r.Commit("", "base")
}

// branches commits feature's decisions.md on branch feature and main's on
// main, then merges feature into main and returns git's output.
func (r *testRepo) branches(main, feature string) string {
	r.t.Helper()
	r.Git("checkout", "-q", "-b", "feature")
	r.write(".memory/decisions.md", feature)
	r.Commit("", "feature")
	r.Git("checkout", "-q", "main")
	r.write(".memory/decisions.md", main)
	r.Commit("", "main")
	return r.mergeFeature()
}

func (r *testRepo) mergeFeature() string {
	r.t.Helper()
	out, code := r.exec("git", "merge", "--no-edit", "feature")
	if code != 0 {
		r.t.Fatalf("git merge: exit %d\n%s", code, out)
	}
	if st := r.Git("status", "--porcelain"); st != "" {
		r.t.Errorf("work tree not clean after the merge:\n%s", st)
	}
	r.noMarkers()
	return out
}

// noMarkers fails if any file of the work tree holds a conflict marker.
func (r *testRepo) noMarkers() {
	r.t.Helper()
	err := filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil && (bytes.Contains(b, []byte("<<<<<<<")) || bytes.Contains(b, []byte(">>>>>>>"))) {
			r.t.Errorf("conflict markers in %s:\n%s", p, b)
		}
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

// TestMergeDriverGit merges real branches with the driver that the built
// binary's `init --git` registered.
func TestMergeDriverGit(t *testing.T) {
	longtest.Skip(t)
	const head = "# Decisions\n\n"
	t.Run("both append: no conflict, both entries", func(t *testing.T) {
		r := newTestRepo(t)
		r.setup(head + "- [db] Use PostgreSQL 16 for the primary store.\n")
		r.Git("checkout", "-q", "-b", "feature")
		if out, code := r.memory("store", "--category", "Decision", "--slug", "tags", "Tag every release with semver."); code != 0 {
			t.Fatalf("store: %s", out)
		}
		r.Commit("", "feature")
		r.Git("checkout", "-q", "main")
		if out, code := r.memory("store", "--category", "Decision", "--slug", "ci", "Run CI on every push to main."); code != 0 {
			t.Fatalf("store: %s", out)
		}
		r.Commit("", "main")
		r.mergeFeature()
		// Both branches' provenance survives the merge (git's union driver
		// on the logs, which init --git registered).
		prov := r.read(".memory/provenance.log")
		for _, want := range []string{`"content":"Run CI on every push to main."`, `"content":"Tag every release with semver."`} {
			if strings.Count(prov, want) != 1 {
				t.Errorf("provenance.log lacks %s once:\n%s", want, prov)
			}
		}
		got := r.read(".memory/decisions.md")
		for _, want := range []string{"- [db] Use PostgreSQL 16 for the primary store.", "- [ci] Run CI on every push to main.", "- [tags] Tag every release with semver."} {
			if strings.Count(got, want) != 1 {
				t.Errorf("%q is not there once:\n%s", want, got)
			}
		}
		if strings.Index(got, "[ci]") > strings.Index(got, "[tags]") {
			t.Errorf("ours' addition should come first:\n%s", got)
		}
		if out, code := r.memory("check"); code != 0 {
			t.Errorf("check after a clean merge: exit %d\n%s", code, out)
		}
	})

	t.Run("same slug edited differently: both lines, check reports both versions", func(t *testing.T) {
		r := newTestRepo(t)
		r.setup(head + "- [db] Use PostgreSQL 15 for the primary store.\n- [ci] Run CI on every push.\n")
		out := r.branches(
			head+"- [db] Use PostgreSQL 16 for the primary store.\n- [ci] Run CI on every push.\n",
			head+"- [db] Use MySQL 8 for the primary store.\n- [ci] Run CI on every push.\n")
		if !strings.Contains(out, "both sides changed the entry [db]") {
			t.Errorf("git's output does not relay the driver's note:\n%s", out)
		}
		want := head + "- [db] Use PostgreSQL 16 for the primary store.\n- [db] Use MySQL 8 for the primary store.\n- [ci] Run CI on every push.\n"
		r.wantMerged(want)
		check, code := r.memory("check")
		if code != exitFindings || !strings.Contains(check, ".memory/decisions.md:4:4: error: slug \"db\" holds a different text on line 3") || !strings.Contains(check, "[duplicate-slug]") {
			t.Errorf("check: exit %d\n%s", code, check)
		}
	})

	t.Run("deleted on one side, unchanged on the other: deleted", func(t *testing.T) {
		r := newTestRepo(t)
		r.setup(head + "- [db] Use PostgreSQL 16.\n- [old] Deploy with Capistrano.\n- [ci] Run CI on every push.\n")
		r.branches(
			head+"- [db] Use PostgreSQL 16.\n- [old] Deploy with Capistrano.\n- [ci] Run CI on every push.\n- [k8s] Deploy with Helm charts.\n",
			head+"- [db] Use PostgreSQL 16.\n- [ci] Run CI on every push.\n")
		want := head + "- [db] Use PostgreSQL 16.\n- [ci] Run CI on every push.\n- [k8s] Deploy with Helm charts.\n"
		r.wantMerged(want)
	})

	t.Run("both add the identical entry: once", func(t *testing.T) {
		r := newTestRepo(t)
		r.setup(head + "- [db] Use PostgreSQL 16.\n")
		r.branches(
			head+"- [db] Use PostgreSQL 16.\n- [ci] Run CI on every push.\n- [tags] Tag releases with semver.\n",
			head+"- [tags] Tag releases with semver.\n- [db] Use PostgreSQL 16.\n")
		want := head + "- [db] Use PostgreSQL 16.\n- [ci] Run CI on every push.\n- [tags] Tag releases with semver.\n"
		r.wantMerged(want)
	})
}

// TestInitGit checks init --git's registration: what it writes, that it is
// idempotent, and its refusals.
func TestInitGit(t *testing.T) {
	t.Run("registers once, keeps other content", func(t *testing.T) {
		r := newTestRepo(t)
		r.write(".gitattributes", "*.png binary")
		out, code := r.memory("init", "--git")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, out)
		}
		for _, want := range []string{"wrote .gitattributes: .memory/*.md merge=memory-lsp", "set git config merge.memory-lsp.driver = memory-lsp merge-driver %O %A %B %P"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if got := r.read(".gitattributes"); got != "*.png binary\n"+merge.AttributesLine+"\n"+merge.LogsLine+"\n" {
			t.Errorf(".gitattributes: %q", got)
		}
		if got := r.Git("config", "--local", "merge.memory-lsp.name"); got != merge.DriverName+"\n" {
			t.Errorf("merge.memory-lsp.name = %q", got)
		}
		if got := r.Git("config", "--local", "merge.memory-lsp.driver"); got != merge.DriverCommand+"\n" {
			t.Errorf("merge.memory-lsp.driver = %q", got)
		}
		if got := r.Git("check-attr", "merge", "--", ".memory/decisions.md"); got != ".memory/decisions.md: merge: memory-lsp\n" {
			t.Errorf("git check-attr: %q", got)
		}
		out, code = r.memory("init", "--git")
		if code != 0 || !strings.HasPrefix(out, "Nothing to do") {
			t.Errorf("second init --git: exit %d\n%s", code, out)
		}
		if got := r.read(".gitattributes"); strings.Count(got, merge.AttributesLine) != 1 {
			t.Errorf(".gitattributes after a second run: %q", got)
		}
	})

	t.Run("memory-lsp not on PATH: its absolute path is registered, and git merges with it", func(t *testing.T) {
		if p, err := exec.LookPath("memory-lsp"); err == nil {
			t.Skipf("memory-lsp is on this machine's PATH (%s): cannot test its absence", p)
		}
		r := newTestRepo(t)
		for i, kv := range r.Env {
			if strings.HasPrefix(kv, "PATH=") {
				r.Env[i] = "PATH=" + os.Getenv("PATH") // without the test binary's folder
			}
		}
		// A second registration (memory-lsp was on PATH once) is mended.
		r.Git("config", "merge.memory-lsp.driver", merge.DriverCommand)
		out, code := r.memory("init", "--git")
		if code != 0 || !strings.Contains(out, "note: memory-lsp is not on PATH, so git will run "+binary) {
			t.Fatalf("init --git: exit %d\n%s", code, out)
		}
		if got := r.Git("config", "--local", "merge.memory-lsp.driver"); got != shellQuote(binary)+merge.DriverArgs+"\n" {
			t.Errorf("merge.memory-lsp.driver = %q, want the absolute path", got)
		}
		const head = "# Decisions\n\n- [db] Use PostgreSQL 16 for the primary store.\n"
		r.write(".memory/decisions.md", head)
		r.Commit("", "base")
		r.branches(head+"- [ci] Run CI on every push to main.\n", head+"- [tags] Tag every release with semver.\n")
		r.wantMerged(head + "- [ci] Run CI on every push to main.\n- [tags] Tag every release with semver.\n")
	})

	t.Run("a .gitattributes linked outside the workspace is refused", func(t *testing.T) {
		r := newTestRepo(t)
		outside := filepath.Join(t.TempDir(), "profile")
		if err := os.WriteFile(outside, []byte("export PATH=$HOME/bin:$PATH\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(r.Dir, ".gitattributes")); err != nil {
			t.Fatal(err)
		}
		out, code := r.memory("init", "--git")
		if code == 0 || !strings.Contains(out, "outside the workspace") {
			t.Errorf("exit %d, want a refusal naming the symlink:\n%s", code, out)
		}
		if got, _ := os.ReadFile(outside); string(got) != "export PATH=$HOME/bin:$PATH\n" {
			t.Errorf("the linked file changed: %q", got)
		}
	})

	t.Run("a driver someone configured is kept", func(t *testing.T) {
		r := newTestRepo(t)
		r.Git("config", "merge.memory-lsp.driver", "/opt/bin/memory-lsp merge-driver %O %A %B %P")
		out, code := r.memory("init", "--git", "--json")
		var res struct {
			Git struct {
				Config []struct {
					Key, Value string
					Set, Kept  bool
				}
			}
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Git.Config) != 2 || !res.Git.Config[0].Set || !res.Git.Config[1].Kept {
			t.Fatalf("exit %d\n%s", code, out)
		}
		if got := r.Git("config", "merge.memory-lsp.driver"); got != "/opt/bin/memory-lsp merge-driver %O %A %B %P\n" {
			t.Errorf("driver changed to %q", got)
		}
	})

	t.Run("not a repository", func(t *testing.T) {
		r := newTestRepo(t)
		dir := t.TempDir()
		cmd := exec.Command(binary, "init", "--git")
		// git must not find a repository above the temporary folder
		cmd.Dir, cmd.Env = dir, append(r.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitError || !strings.Contains(string(out), "is not inside a git work tree") {
			t.Errorf("%v\n%s", err, out)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("a refused init wrote %v", entries)
		}
	})

	t.Run("git missing", func(t *testing.T) {
		dir := t.TempDir()
		cmd := exec.Command(binary, "init", "--git")
		cmd.Dir, cmd.Env = dir, []string{"PATH=" + t.TempDir(), "HOME=" + dir}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitError || !strings.Contains(string(out), "git is not installed") {
			t.Errorf("%v\n%s", err, out)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("a refused init wrote %v", entries)
		}
	})
}

// TestInitPointerFlags: --agents-md and --claude-md write their blocks; init
// alone does not.
func TestInitPointerFlags(t *testing.T) {
	root := t.TempDir()
	if out, _, code := runBinary(t, root, "", "init"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	for _, n := range []string{"AGENTS.md", "CLAUDE.md"} {
		if _, err := os.Stat(filepath.Join(root, n)); !os.IsNotExist(err) {
			t.Errorf("plain init wrote %s", n)
		}
	}
	out, _, code := runBinary(t, root, "", "init", "--agents-md", "--claude-md")
	if code != 0 || out != "wrote AGENTS.md\nwrote CLAUDE.md\n" {
		t.Fatalf("init --agents-md --claude-md: exit %d\n%s", code, out)
	}
	for _, n := range []string{"AGENTS.md", "CLAUDE.md"} {
		b, _ := os.ReadFile(filepath.Join(root, n))
		if !bytes.HasPrefix(b, []byte("<!-- memory-lsp:start -->\n")) || !bytes.Contains(b, []byte("(.memory/decisions.md)")) {
			t.Errorf("%s:\n%s", n, b)
		}
	}
	if out, _, code := runBinary(t, root, "", "init", "--agents-md", "--claude-md"); code != 0 || !strings.HasPrefix(out, "Nothing to do") {
		t.Errorf("second run: exit %d\n%s", code, out)
	}
}
