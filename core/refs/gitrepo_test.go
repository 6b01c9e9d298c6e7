package refs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// gitRepo is a Repo read from one commit of a git mirror (a git directory
// without a work tree), for measuring Judge on real repositories. It is a
// test's approximation of the repository view core/store will build: the
// tracked tree, .gitignore through `git check-ignore`, deletions and renames
// from the history before the commit, package.json scripts, Makefile
// targets and .nvmrc / package.json pins.
type gitRepo struct {
	gitDir, commit string
	files          map[string]bool
	dirs           map[string]bool
	byName         map[string][]string // last element → paths (files and folders)
	gone           map[string]Move
	goneByName     map[string]Move
	ignoreTree     string // a scratch work tree holding only the .gitignore files
	ignored        map[string]bool
}

func git(t *testing.T, gitDir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func newGitRepo(t *testing.T, gitDir, commit string) *gitRepo {
	t.Helper()
	r := &gitRepo{gitDir: gitDir, commit: commit, files: map[string]bool{}, dirs: map[string]bool{},
		byName: map[string][]string{}, gone: map[string]Move{}, goneByName: map[string]Move{}, ignored: map[string]bool{}}
	for _, f := range strings.Split(strings.TrimSpace(string(git(t, gitDir, "ls-tree", "-r", "--name-only", "-z", commit))), "\x00") {
		if f == "" {
			continue
		}
		r.files[f] = true
		r.byName[path.Base(f)] = append(r.byName[path.Base(f)], f)
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			if r.dirs[d] {
				break
			}
			r.dirs[d] = true
			r.byName[path.Base(d)] = append(r.byName[path.Base(d)], d)
		}
	}
	// Deletions and renames, newest first: the first word on a path wins.
	log := git(t, gitDir, "log", "-M", "--diff-filter=DR", "--name-status", "--format=commit %h", commit)
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var at string
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "commit "); ok {
			at = c
			continue
		}
		fs := strings.Split(line, "\t")
		var old string
		m := Move{Commit: at}
		switch {
		case len(fs) == 2 && fs[0] == "D":
			old = fs[1]
		case len(fs) == 3 && strings.HasPrefix(fs[0], "R"):
			old, m.To = fs[1], fs[2]
		default:
			continue
		}
		if _, seen := r.gone[old]; !seen && !r.files[old] {
			r.gone[old] = m
		}
		for p := old; p != "."; p = path.Dir(p) {
			if name := path.Base(p); !r.exists(p) {
				if _, seen := r.goneByName[name]; !seen {
					r.goneByName[name] = m
				}
			}
		}
	}
	r.ignoreTree = t.TempDir()
	for f := range r.files {
		if path.Base(f) != ".gitignore" {
			continue
		}
		dst := filepath.Join(r.ignoreTree, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, git(t, gitDir, "show", commit+":"+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *gitRepo) exists(p string) bool { return r.files[p] || r.dirs[p] }

func (r *gitRepo) HasCode() bool {
	for d := range r.dirs {
		if d != ".memory" {
			return true
		}
	}
	for f := range r.files {
		if !strings.HasPrefix(f, ".memory/") {
			return true
		}
	}
	return false
}

func (r *gitRepo) Stat(p string) (bool, bool) {
	if r.files[p] {
		return false, true
	}
	return r.dirs[p], r.dirs[p]
}

func (r *gitRepo) Endings(p string) int {
	n := 0
	for _, f := range r.byName[path.Base(p)] {
		if f == p || strings.HasSuffix(f, "/"+p) {
			n++
		}
	}
	return min(n, 2)
}

func (r *gitRepo) Ignored(p string) bool {
	if v, ok := r.ignored[p]; ok {
		return v
	}
	v := false
	for _, q := range []string{p, p + "/"} {
		cmd := exec.Command("git", "--git-dir="+r.gitDir, "--work-tree="+r.ignoreTree, "check-ignore", "--no-index", "-q", q)
		if cmd.Run() == nil {
			v = true
			break
		}
	}
	r.ignored[p] = v
	return v
}

func (r *gitRepo) Moved(p string) (Move, bool) {
	if !strings.Contains(p, "/") {
		m, ok := r.goneByName[p] // the latest removal of anything of that name
		return m, ok
	}
	m, ok := r.gone[p]
	return m, ok
}

var reMakeTarget = regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+)\s*:([^=]|$)`)

func (r *gitRepo) Manifest(tool Tool, dir string) (Manifest, bool) {
	join := func(name string) string {
		if dir == "" {
			return name
		}
		return dir + "/" + name
	}
	switch tool {
	case Npm, Pnpm, Yarn, Bun:
		f := join("package.json")
		var pkg struct{ Scripts map[string]string }
		if !r.files[f] || json.Unmarshal(r.show(f), &pkg) != nil {
			return Manifest{}, false
		}
		m := Manifest{File: f}
		for n := range pkg.Scripts {
			m.Names = append(m.Names, n)
		}
		return m, true
	case Make:
		for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
			f := join(name)
			if !r.files[f] {
				continue
			}
			src := r.show(f)
			m := Manifest{File: f, Open: bytes.Contains(src, []byte("%:")) || bytes.Contains(src, []byte("\ninclude "))}
			for _, g := range reMakeTarget.FindAllSubmatch(src, -1) {
				m.Names = append(m.Names, string(g[1]))
			}
			return m, true
		}
	}
	return Manifest{}, false
}

func (r *gitRepo) ListedBelow(tool Tool, name string) bool {
	for f := range r.files {
		dir := path.Dir(f)
		if dir == "." || !slices.Contains(ManifestNames(tool), path.Base(f)) {
			continue
		}
		if m, ok := r.Manifest(tool, dir); ok && slices.Contains(m.Names, name) {
			return true
		}
	}
	return false
}

func (r *gitRepo) Pins(subject string) []Pin {
	var out []Pin
	if subject == "node" && r.files[".nvmrc"] {
		out = append(out, Pin{Value: strings.TrimSpace(string(r.show(".nvmrc"))), File: ".nvmrc", Line: 1})
	}
	for f := range r.files {
		if path.Base(f) != "package.json" || strings.Contains(f, "node_modules/") {
			continue
		}
		var pkg struct {
			Engines                       map[string]string
			Dependencies, DevDependencies map[string]string
		}
		if json.Unmarshal(r.show(f), &pkg) != nil {
			continue
		}
		if v, ok := pkg.Engines[subject]; ok {
			out = append(out, Pin{Value: v, File: f})
		}
		for _, deps := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
			if v, ok := deps[subject]; ok {
				out = append(out, Pin{Value: v, File: f})
			}
		}
	}
	return out
}

func (r *gitRepo) show(f string) []byte {
	out, err := exec.Command("git", "--git-dir="+r.gitDir, "show", r.commit+":"+f).Output()
	if err != nil {
		return nil
	}
	return out
}

func (m Move) String() string { return fmt.Sprintf("%s@%s", m.To, m.Commit) }

// blame maps each line of file at commit (1-based) to the commit that last
// wrote it.
func blame(t *testing.T, gitDir, commit, file string) map[int]string {
	t.Helper()
	out := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(git(t, gitDir, "blame", "--porcelain", commit, "--", file)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		// A header line: <40-hex commit> <original line> <final line> [<group size>]
		fs := strings.Fields(sc.Text())
		if len(fs) >= 3 && len(fs[0]) == 40 && !strings.HasPrefix(sc.Text(), "\t") {
			var n int
			if _, err := fmt.Sscanf(fs[2], "%d", &n); err == nil {
				out[n] = fs[0]
			}
		}
	}
	return out
}

// entryRepo is a gitRepo scoped to one entry: a move that happened before
// the entry's line was last written is one the entry knows of.
type entryRepo struct {
	*gitRepo
	written string
}

func (e entryRepo) Moved(p string) (Move, bool) {
	m, ok := e.gitRepo.Moved(p)
	if ok && e.written != "" {
		m.Before = e.isAncestor(m.Commit, e.written)
	}
	return m, ok
}

// ManifestThen: this approximation does not read the manifests of older
// commits (the corpus it judges has no root script that a subproject took
// over); the end-to-end evaluation, scripts/eval-references, covers it.
func (r *gitRepo) ManifestThen(Tool, string) (Manifest, bool) { return Manifest{}, false }

// ManifestLost: nor the manifests' own histories.
func (r *gitRepo) ManifestLost(Tool, string, string) (Move, bool) { return Move{}, false }

// RootHad and Stem: this approximation reads neither older trees nor
// modules; the end-to-end evaluation, scripts/eval-references, covers them.
func (r *gitRepo) RootHad(string) (bool, bool) { return false, false }
func (r *gitRepo) Stem(string) bool            { return false }

var ancestry = map[[3]string]bool{}

func (r *gitRepo) isAncestor(a, b string) bool {
	k := [3]string{r.gitDir, a, b}
	if v, ok := ancestry[k]; ok {
		return v
	}
	v := exec.Command("git", "--git-dir="+r.gitDir, "merge-base", "--is-ancestor", a, b).Run() == nil
	ancestry[k] = v
	return v
}

// Committed: the tree read is the commit's, so what it holds exists.
func (r *gitRepo) Committed(p string) bool { return r.exists(strings.TrimSuffix(p, "/")) }

func (r *gitRepo) Children(dir string) []string {
	prefix := ""
	if dir != "" {
		prefix = strings.TrimSuffix(dir, "/") + "/"
	}
	var out []string
	for f := range r.files {
		if rest, ok := strings.CutPrefix(f, prefix); ok {
			name, _, _ := strings.Cut(rest, "/")
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}
