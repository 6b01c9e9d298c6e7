package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/merge"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// The git merge driver for `.memory/*.md` and its registration by
// `init --git`. Git runs the driver as merge.memory-lsp.driver says, through
// the shell, in the top folder of the work tree, with %O %A %B %P replaced
// by the quoted paths of the base, ours (where the result goes), theirs and
// the file's name in the repository.

func mergeDriverCommand() command {
	return command{name: "merge-driver", positional: true, args: "BASE OURS THEIRS [PATH]", help: "git merge driver for .memory/*.md: merges entry by entry into OURS (registered by init --git)",
		notes:    "git runs it with %O %A %B %P; a person runs init --git once instead.",
		examples: []string{"memory-lsp init --git", "git config merge.memory-lsp.driver 'memory-lsp merge-driver %O %A %B %P'"},
		run:      runMergeDriver}
}

func runMergeDriver(_ context.Context, e *env, a *parsedArgs) (int, error) {
	if n := len(a.pos); n < 3 || n > 4 {
		return exitError, usagef("merge-driver takes BASE OURS THEIRS and optionally PATH (git's %%O %%A %%B %%P), got %d arguments", n)
	}
	oursPath := a.pos[1]
	name := oursPath
	if len(a.pos) == 4 {
		name = a.pos[3]
	}
	var in [3][]byte
	for i, what := range []string{"base", "ours", "theirs"} {
		b, err := store.ReadFile(a.pos[i])
		if err != nil {
			return exitError, fmt.Errorf("merging %s: reading %s: %w", name, what, err)
		}
		in[i] = b
	}
	res := merge.Merge(in[0], in[1], in[2])
	if err := store.WriteFileAtomic(oursPath, res.Data); err != nil {
		return exitError, fmt.Errorf("merging %s: writing the result: %w", name, err)
	}
	if e.json {
		type conflict struct {
			Slug   string `json:"slug"`
			Ours   int    `json:"oursLine"`
			Theirs int    `json:"theirsLine"`
		}
		cs := make([]conflict, 0, len(res.Conflicts))
		for _, c := range res.Conflicts {
			cs = append(cs, conflict{c.Slug, c.Ours, c.Theirs})
		}
		writeJSON(e.stdout, map[string]any{"path": name, "conflicts": cs})
	}
	// An entry both sides changed is not a failed merge: the file is valid
	// and holds both versions, and the checker reports them, so git goes on
	// (a non-zero exit would leave the file to be resolved by hand, with
	// nothing in it to find).
	for _, c := range res.Conflicts {
		fmt.Fprintf(e.stderr, "memory-lsp: %s: both sides changed the entry [%s]; kept both versions (lines %d and %d), which `memory-lsp check` reports as an error until one is removed\n", name, c.Slug, c.Ours, c.Theirs)
	}
	return exitOK, nil
}

// gitSetup is what `init --git` did.
type gitSetup struct {
	// Attributes is the .gitattributes file, AttributesChanged whether
	// init added to it, and AttributesAdded the lines it added (the
	// driver's for the memory files, git's union for the logs).
	Attributes        string           `json:"attributes"`
	AttributesChanged bool             `json:"attributesChanged"`
	AttributesAdded   []string         `json:"attributesAdded,omitempty"`
	Config            []gitConfigValue `json:"config"`
	// Note says how the driver was registered when memory-lsp is not on
	// PATH (its absolute path is).
	Note string `json:"note,omitempty"`
}

type gitConfigValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// Set is true when init wrote the value; false when it was there
	// already, or (Kept) a different value was, which init leaves alone
	// because someone chose it (a full path to the binary, say).
	Set  bool `json:"set"`
	Kept bool `json:"kept,omitempty"`
}

func (g *gitSetup) changed() bool {
	if g.AttributesChanged {
		return true
	}
	for _, c := range g.Config {
		if c.Set {
			return true
		}
	}
	return false
}

// gitRepo is a work tree init registers the driver in.
type gitRepo struct {
	git  string // the git binary
	root string // the workspace root: .memory/'s parent, inside the work tree
}

// findGit checks, before init writes anything, that git is installed and
// root is inside a work tree.
func findGit(ctx context.Context, root string) (*gitRepo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("init --git: git is not installed (not found on PATH): %w", err)
	}
	r := &gitRepo{git: git, root: root}
	out, err := r.run(ctx, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(out) != "true" {
		msg := fmt.Sprintf("init --git: %s is not inside a git work tree (run git init first)", root)
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, errors.New(msg)
	}
	return r, nil
}

// run runs git in the workspace root and returns its standard output; an
// error carries git's own message.
func (r *gitRepo) run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, r.git, append([]string{"-C", r.root}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return out.String(), fmt.Errorf("git %s: %s (%w)", strings.Join(args, " "), msg, err)
		}
		return out.String(), fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return out.String(), nil
}

// register routes `.memory/*.md` to the driver in the .gitattributes beside
// `.memory/` (where that relative pattern means this workspace's memory,
// also when the workspace is a subfolder of the repository) and defines the
// driver in the repository's local config. Running it again changes
// nothing.
func (r *gitRepo) register(ctx context.Context) (*gitSetup, error) {
	path := filepath.Join(r.root, ".gitattributes")
	// A repository could link .gitattributes to any file its user may write.
	if err := store.CheckWorkspaceFile(r.root, path); err != nil {
		return nil, fmt.Errorf("init --git: %w", err)
	}
	cur, err := store.ReadIfExists(path)
	if err != nil {
		return nil, fmt.Errorf("init --git: reading %s: %w", path, err)
	}
	s := &gitSetup{Attributes: path}
	if out, added := merge.AddAttributes(cur); len(added) > 0 {
		if err := store.WriteFileAtomic(path, out); err != nil {
			return nil, fmt.Errorf("init --git: %w", err)
		}
		s.AttributesChanged, s.AttributesAdded = true, added
	}
	driver, note, err := driverCommand()
	if err != nil {
		return s, err
	}
	s.Note = note
	for _, kv := range [][2]string{
		{"merge." + merge.Driver + ".name", merge.DriverName},
		{"merge." + merge.Driver + ".driver", driver},
	} {
		v := gitConfigValue{Key: kv[0], Value: kv[1]}
		old, err := r.run(ctx, "config", "--local", "--get", kv[0])
		var ee *exec.ExitError
		switch {
		case err == nil:
			// set already: ours, or someone's choice — unless it is our
			// PATH form and memory-lsp is not on PATH, where git would
			// fail and leave a conflict
			old = strings.TrimRight(old, "\n")
			if old != kv[1] && !(old == merge.DriverCommand && kv[1] != merge.DriverCommand) {
				v.Value, v.Kept = old, true
				break
			}
			if old != kv[1] {
				if _, err := r.run(ctx, "config", "--local", kv[0], kv[1]); err != nil {
					return s, fmt.Errorf("init --git: %w", err)
				}
				v.Set = true
			}
		case errors.As(err, &ee) && ee.ExitCode() == 1: // unset
			if _, err := r.run(ctx, "config", "--local", kv[0], kv[1]); err != nil {
				return s, fmt.Errorf("init --git: %w", err)
			}
			v.Set = true
		default:
			return s, fmt.Errorf("init --git: %w", err)
		}
		s.Config = append(s.Config, v)
	}
	return s, nil
}

// driverCommand is what git runs to merge a memory file: memory-lsp from
// PATH when it is there, else this binary by its absolute path (with a note
// saying so), never a temporary `go run` build that will be gone.
func driverCommand() (cmd, note string, err error) {
	if _, err := exec.LookPath("memory-lsp"); err == nil {
		return merge.DriverCommand, "", nil
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", "", fmt.Errorf("init --git: memory-lsp is not on PATH and the running binary cannot be found (%v); install memory-lsp on PATH and run init --git again", err)
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", "", fmt.Errorf("init --git: memory-lsp is not on PATH, and this is a temporary `go run` build (%s) that git could not run later; install it (go install ./cmd/memory-lsp, or go build -o ~/bin/memory-lsp ./cmd/memory-lsp) and run init --git again", exe)
	}
	return shellQuote(exe) + merge.DriverArgs, fmt.Sprintf("memory-lsp is not on PATH, so git will run %s; run init --git again if you move it", exe), nil
}

// shellQuote quotes a word for a POSIX shell (the one git runs the driver
// with, or the user's, for a command we print) where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// print reports the registration in words.
func (g *gitSetup) print(e *env) {
	if g.Note != "" {
		fmt.Fprintf(e.stdout, "note: %s\n", g.Note)
	}
	if len(g.AttributesAdded) > 0 {
		fmt.Fprintf(e.stdout, "wrote %s: %s\n", display(g.Attributes), strings.Join(g.AttributesAdded, "; "))
	}
	for _, c := range g.Config {
		switch {
		case c.Set:
			fmt.Fprintf(e.stdout, "set git config %s = %s\n", c.Key, c.Value)
		case c.Kept:
			fmt.Fprintf(e.stdout, "kept git config %s = %s (already set; left as it is)\n", c.Key, c.Value)
		}
	}
}
