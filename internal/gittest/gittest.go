// Package gittest makes real git repositories for tests: a work tree in the
// test's temporary folder, files written into it, git run there and
// commits dated as the test says, so that what a test reads from history
// (renames, blame, last changes) does not depend on the clock.
//
// Git runs isolated from the machine: no system or global configuration
// (a developer's hooks, signing or default branch change nothing), none of
// the GIT_ variables a test run from a git hook inherits (GIT_DIR would
// point every command at the developer's repository), LC_ALL=C for
// messages a test can read, and a fixed identity with signing off in the
// repository's own configuration, so that commits git makes on its own (a
// merge) work too.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Repo is a git work tree made for one test.
type Repo struct {
	// Dir is the work tree's top level: a folder of t.TempDir(), as it
	// gives it (not resolved through symbolic links).
	Dir string
	// Env is the environment git runs with here. A test that runs another
	// program in the repository (the built binary git calls as a merge
	// driver) runs it with Env too; a variable appended to it overrides an
	// earlier one of the same name, as os/exec reads it.
	Env []string

	t testing.TB
}

// The author and committer of every commit a Repo makes.
const (
	name  = "Memory Test"
	email = "memory@example.com"
)

// New runs git init in a new temporary folder, or skips the test when git
// is not installed.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; this test needs a real git repository")
	}
	r := &Repo{Dir: t.TempDir(), Env: isolated(t.TempDir()), t: t}
	r.Git("init", "-q")
	r.Git("config", "user.name", name)
	r.Git("config", "user.email", email)
	r.Git("config", "commit.gpgsign", "false")
	return r
}

// isolated is the environment of this process without what would let the
// machine's git configuration in, with home as HOME.
func isolated(home string) []string {
	env := []string{
		"HOME=" + home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig"),
		"LC_ALL=C",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "GIT_") && k != "HOME" && k != "LC_ALL" {
			env = append(env, kv)
		}
	}
	return env
}

// Top is Dir resolved through symbolic links, as git names the top level
// of the work tree (rev-parse --show-toplevel) and a server reports paths.
func (r *Repo) Top() string {
	r.t.Helper()
	top, err := filepath.EvalSymlinks(r.Dir)
	if err != nil {
		r.t.Fatal(err)
	}
	return top
}

// Write writes files (slash paths relative to Dir) with their text,
// creating the folders they need.
func (r *Repo) Write(files map[string]string) {
	r.t.Helper()
	WriteFiles(r.t, r.Dir, files)
}

// Git runs git with args in Dir and returns what it printed (stdout and
// stderr); a failure fails the test, naming the command.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	return r.run(nil, args...)
}

// Commit stages everything in the work tree and commits it as msg at date:
// a day (2006-01-02) is its midnight UTC, other text is given to git as it
// is (2006-01-02T15:04:05Z), and "" is now.
func (r *Repo) Commit(date, msg string) {
	r.t.Helper()
	r.commit(date, msg)
}

// CommitBy is Commit with another author than the Repo's: "Name <email>".
func (r *Repo) CommitBy(date, msg, author string) {
	r.t.Helper()
	r.commit(date, msg, "--author", author)
}

// AddAll stages everything in the work tree (git add -A). A file that goes
// between git's listing of a folder and its stat of the file fails the
// command ("unable to stat"): a language server under test takes and
// drops .memory/.lock at any moment, which a real project ignores (init
// writes the .gitignore line). It is tried again.
func (r *Repo) AddAll() {
	r.t.Helper()
	for try := 0; ; try++ {
		cmd := exec.Command("git", "add", "-A")
		cmd.Dir = r.Dir
		cmd.Env = r.Env
		out, err := cmd.CombinedOutput()
		switch {
		case err == nil:
			return
		case try < 20 && strings.Contains(string(out), "unable to stat"):
			// LC_ALL=C (isolated) keeps git's message in English
			time.Sleep(5 * time.Millisecond)
			continue
		}
		r.t.Fatalf("git add -A: %v\n%s", err, out)
	}
}

func (r *Repo) commit(date, msg string, args ...string) {
	r.t.Helper()
	r.AddAll()
	var env []string
	if date != "" {
		if len(date) == len(time.DateOnly) {
			date += "T00:00:00Z"
		}
		env = []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}
	}
	r.run(env, append([]string{"commit", "-q", "-m", msg}, args...)...)
}

func (r *Repo) run(extra []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = append(r.Env[:len(r.Env):len(r.Env)], extra...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Day is the midnight UTC of a day written 2006-01-02: the time of a commit
// Commit dated with that day.
func Day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// WriteFiles writes files (slash paths relative to dir) with their text,
// creating the folders they need; for a folder that is not a repository
// as for one.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
