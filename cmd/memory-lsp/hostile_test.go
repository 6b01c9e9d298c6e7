package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestHostile runs the hostile-input catalogue, testdata/hostile/*.txtar: one
// case per archive. The archive comment holds, after any # lines, the command
// line (as in testdata/cli) and then one directive per line:
//
//	exit: N               the exit code (required)
//	stderr: TEXT          stderr must contain TEXT (repeatable)
//	stdout: TEXT          stdout must contain TEXT (repeatable)
//	changes: PATH…        the only paths (relative to the workspace) allowed
//	                      to change, appear or vanish; every other file and
//	                      symlink under the workspace and outside/ must be
//	                      byte-identical afterwards (default: none)
//	escape: NAME…         decode escapes in these sections ("args" for the
//	                      command line): \n \r \t \\ \xHH \uHHHH; in a section,
//	                      literal newlines are dropped, so \n is explicit
//	symlink: LINK -> TARGET   create a symlink (LINK relative to the workspace)
//	chmod: MODE PATH      chmod after writing the files
//	age: SECONDS PATH     set PATH's mtime that many seconds in the past
//	skip-root: REASON     skip when running as root
//	skip: REASON          skip always (a known gap, named in REASON)
//	slow: true            skipped in -short mode
//
// Sections: stdin is standard input; outside/… is written to a folder next to
// the workspace (reached as ../outside/…); want/PATH is PATH's exact content
// afterwards. In the command line and every section, {{REPEAT N TEXT}}
// becomes TEXT repeated N times, {{PID}} this process's pid and {{NOW_MS}} /
// {{OLD_MS}} the Unix time in milliseconds now / 60 s ago.
func TestHostile(t *testing.T) {
	longtest.Skip(t)
	paths, err := filepath.Glob("../../testdata/hostile/*.txtar")
	// The floor is the catalogue's size, so that a lost case is noticed.
	if err != nil || len(paths) < 130 {
		t.Fatalf("hostile catalogue: %d cases, want at least 130 (%v)", len(paths), err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runHostile(t, path)
		})
	}
}

type hostileCase struct {
	args           []string
	exit           int
	haveExit       bool
	stderr, stdout []string
	changes        map[string]bool
	escape         map[string]bool
	symlinks       [][2]string
	chmods         [][2]string
	ages           [][2]string
}

func runHostile(t *testing.T, path string) {
	_, ar := readFixture(t, path)
	c := parseHostile(t, ar.Comment)

	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var stdin []byte
	want := map[string][]byte{}
	for _, f := range ar.Files {
		content := c.decode(f.Name, expand(f.Data))
		switch {
		case f.Name == "stdin":
			stdin = content
		case strings.HasPrefix(f.Name, "want/"):
			want[strings.TrimPrefix(f.Name, "want/")] = content
		default:
			p := filepath.Join(root, filepath.FromSlash(f.Name))
			if rest, ok := strings.CutPrefix(f.Name, "outside/"); ok {
				p = filepath.Join(outside, filepath.FromSlash(rest))
			}
			writeTestFile(t, p, content)
		}
	}
	for _, l := range c.symlinks {
		p := filepath.Join(root, filepath.FromSlash(l[0]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(l[1]), p); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range c.ages {
		secs, err := strconv.Atoi(a[0])
		if err != nil {
			t.Fatalf("age: %v", err)
		}
		at := time.Now().Add(-time.Duration(secs) * time.Second)
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(a[1])), at, at); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range c.chmods {
		mode, err := strconv.ParseUint(m[0], 8, 32)
		if err != nil {
			t.Fatalf("chmod: %v", err)
		}
		p := filepath.Join(root, filepath.FromSlash(m[1]))
		if err := os.Chmod(p, fs.FileMode(mode)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) }) // let TempDir remove it
	}

	before := snapshotTree(t, base, root)
	t.Chdir(root)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), c.args, &env{stdin: bytes.NewReader(stdin), stdout: &stdout, stderr: &stderr})
	after := snapshotTree(t, base, root)

	if code != c.exit {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.exit, stdout.Bytes(), stderr.Bytes())
	}
	for _, s := range c.stderr {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr does not contain %q:\n%s", s, stderr.Bytes())
		}
	}
	for _, s := range c.stdout {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("stdout does not contain %q:\n%s", s, stdout.Bytes())
		}
	}
	// A store that succeeds journals what it acknowledged (store.Ack) and
	// records who wrote it (memory.ProvenanceLog); a refused one does
	// neither.
	journal := func(p string) bool {
		return c.exit == 0 && (strings.HasSuffix(p, "/"+store.JournalName) || strings.HasSuffix(p, "/"+memory.ProvenanceLog))
	}
	for p, b := range before {
		if journal(p) {
			continue
		}
		if a, ok := after[p]; !ok {
			if !c.changes[p] {
				t.Errorf("%s vanished", p)
			}
		} else if a != b && !c.changes[p] {
			t.Errorf("%s changed:\n--- before ---\n%q\n--- after ---\n%q", p, b, a)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && !c.changes[p] && !journal(p) {
			t.Errorf("%s appeared: %q", p, after[p])
		}
	}
	for p, w := range want {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("want/%s: %v", p, err)
		} else if !bytes.Equal(got, w) {
			t.Errorf("%s:\n--- got ---\n%q\n--- want ---\n%q", p, got, w)
		}
	}
}

func parseHostile(t *testing.T, comment []byte) *hostileCase {
	t.Helper()
	c := &hostileCase{changes: map[string]bool{}, escape: map[string]bool{}}
	c.args = commandLine(t, expand(comment))
	seenCmd := false
	for _, line := range strings.Split(string(comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !seenCmd {
			seenCmd = true
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("directive %q has no colon", line)
		}
		val = strings.TrimSpace(val)
		switch key {
		case "exit":
			n, err := strconv.Atoi(val)
			if err != nil {
				t.Fatalf("exit: %v", err)
			}
			c.exit, c.haveExit = n, true
		case "stderr":
			c.stderr = append(c.stderr, val)
		case "stdout":
			c.stdout = append(c.stdout, val)
		case "changes":
			for _, p := range strings.Fields(val) {
				c.changes[p] = true
			}
		case "escape":
			for _, n := range strings.Fields(val) {
				c.escape[n] = true
			}
		case "symlink":
			link, target, ok := strings.Cut(val, " -> ")
			if !ok {
				t.Fatalf("symlink %q: want LINK -> TARGET", val)
			}
			c.symlinks = append(c.symlinks, [2]string{strings.TrimSpace(link), strings.TrimSpace(target)})
		case "chmod", "age":
			f := strings.Fields(val)
			if len(f) != 2 {
				t.Fatalf("%s %q: want two fields", key, val)
			}
			if key == "chmod" {
				c.chmods = append(c.chmods, [2]string{f[0], f[1]})
			} else {
				c.ages = append(c.ages, [2]string{f[0], f[1]})
			}
		case "skip-root":
			if os.Geteuid() == 0 {
				t.Skip("running as root: " + val)
			}
		case "skip":
			t.Skip(val)
		case "slow":
			if testing.Short() {
				t.Skip("slow case, skipped in -short mode")
			}
		default:
			t.Fatalf("unknown directive %q", key)
		}
	}
	if !c.haveExit {
		t.Fatal("case has no exit: directive")
	}
	if c.escape["args"] {
		for i, a := range c.args {
			c.args[i] = string(unescape(a, false))
		}
	}
	return c
}

func (c *hostileCase) decode(name string, data []byte) []byte {
	if !c.escape[name] {
		return data
	}
	return unescape(string(data), true)
}

// expand replaces the {{…}} placeholders described at TestHostile.
func expand(b []byte) []byte {
	s := string(b)
	now := time.Now()
	s = strings.ReplaceAll(s, "{{PID}}", strconv.Itoa(os.Getpid()))
	s = strings.ReplaceAll(s, "{{NOW_MS}}", strconv.FormatInt(now.UnixMilli(), 10))
	s = strings.ReplaceAll(s, "{{OLD_MS}}", strconv.FormatInt(now.Add(-60*time.Second).UnixMilli(), 10))
	for {
		i := strings.Index(s, "{{REPEAT ")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		f := strings.SplitN(s[i+len("{{REPEAT "):i+j], " ", 2)
		n, err := strconv.Atoi(f[0])
		if err != nil || len(f) != 2 {
			panic(fmt.Sprintf("bad placeholder %q", s[i:i+j+2]))
		}
		s = s[:i] + strings.Repeat(f[1], n) + s[i+j+2:]
	}
	return []byte(s)
}

// unescape decodes \n \r \t \\ \xHH \uHHHH. With dropNL, literal newlines
// are removed first, so a section spells every byte it holds.
func unescape(s string, dropNL bool) []byte {
	if dropNL {
		s = strings.ReplaceAll(s, "\n", "")
	}
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			out = append(out, s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case '\\':
			out = append(out, '\\')
		case 'x', 'u':
			n := 2
			if s[i] == 'u' {
				n = 4
			}
			v, err := strconv.ParseUint(s[i+1:min(i+1+n, len(s))], 16, 32)
			if err != nil {
				panic(fmt.Sprintf("bad escape in %q: %v", s, err))
			}
			if s[i] == 'x' {
				out = append(out, byte(v))
			} else {
				out = append(out, string(rune(v))...)
			}
			i += n
		default:
			panic(fmt.Sprintf("unknown escape \\%c in %q", s[i], s))
		}
	}
	return out
}

// snapshotTree records every file (mode and bytes) and symlink (target)
// under base, keyed by its path relative to root with slashes.
func snapshotTree(t *testing.T, base, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			m[rel] = "symlink -> " + target
		case d.IsDir():
			m[rel+"/"] = "dir " + info.Mode().String()
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = info.Mode().String() + " " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
