package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
)

func TestNewFileBytes(t *testing.T) {
	want := map[category.Category]string{
		category.Instruction: "# Instructions\n\n",
		category.Quirk:       "# Quirks\n\n",
		category.Preference:  "# Preferences\n\n",
		category.Decision:    "# Decisions\n\n",
		category.Security:    "# Security\n\n",
	}
	for c, w := range want {
		if got := string(NewFileBytes(c)); got != w {
			t.Errorf("NewFileBytes(%v) = %q, want %q", c, got, w)
		}
	}
}

func mkdirs(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// workspaceWith is a workspace whose .memory folder holds files (by name).
func workspaceWith(t *testing.T, files map[string]string) *Workspace {
	t.Helper()
	w, _ := Open(t.TempDir())
	mkdirs(t, w.Dir)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(w.Dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func TestFindRoot(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	mkdirs(t, filepath.Join(base, "ws", ".memory"), filepath.Join(base, "ws", "a", "b"),
		filepath.Join(base, "ws", "a", "inner", ".memory"), filepath.Join(base, "plain", "x"),
		filepath.Join(base, "repo", ".git"), filepath.Join(base, "repo", "cmd", "app"),
		filepath.Join(base, "wt", "deep", "er"))
	os.WriteFile(filepath.Join(base, "plain", ".memory"), []byte("a file, not a dir"), 0o644)
	os.WriteFile(filepath.Join(base, "wt", ".git"), []byte("gitdir: /elsewhere\n"), 0o644)
	tests := []struct{ start, want string }{
		{"repo/cmd/app", "repo"}, // no .memory: the git top level, not the subfolder
		{"wt/deep/er", "wt"},     // a worktree's .git is a file
		{"ws", "ws"},
		{"ws/a/b", "ws"},
		{"ws/.memory", "ws"},
		{"ws/a/inner", "ws/a/inner"},
		{"plain/x", "plain/x"}, // no .memory dir up the tree: start itself
	}
	for _, tc := range tests {
		got, err := FindRoot(filepath.Join(base, tc.start))
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(base, tc.want); got != want {
			t.Errorf("FindRoot(%s) = %s, want %s", tc.start, got, want)
		}
	}
	// Relative start comes back absolute.
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(filepath.Join(base, "ws", "a", "b"))
	if got, _ := FindRoot("."); got != filepath.Join(base, "ws") {
		t.Errorf("FindRoot(.) = %s", got)
	}
}

func TestOpenPathSafety(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	mkdirs(t, outside, filepath.Join(base, "evil"), filepath.Join(base, "good", "shared"), filepath.Join(base, "file"))
	os.Symlink(outside, filepath.Join(base, "evil", ".memory"))
	os.Symlink("shared", filepath.Join(base, "good", ".memory"))
	os.WriteFile(filepath.Join(base, "file", ".memory"), nil, 0o644)

	_, err := Open(filepath.Join(base, "evil"))
	if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("Open(evil) err = %v, want refusal", err)
	}
	if _, err := Open(filepath.Join(base, "file")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Open(file) err = %v", err)
	}
	if _, err := Open(filepath.Join(base, "missing")); err == nil {
		t.Error("Open(missing root) succeeded")
	}
	w, err := Open(filepath.Join(base, "good"))
	if err != nil {
		t.Fatalf("symlink inside the root refused: %v", err)
	}
	if _, err := w.Update(context.Background(), appendIfAbsent("- ok\n")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(base, "good", "shared", "decisions.md")); got != "# Decisions\n\n- ok\n" {
		t.Errorf("got %q", got)
	}

	// Swapped for an outside symlink after Open: Update and Snapshot refuse.
	mkdirs(t, filepath.Join(base, "later"))
	w3, err := Open(filepath.Join(base, "later"))
	if err != nil {
		t.Fatal(err)
	}
	os.Symlink(outside, filepath.Join(base, "later", ".memory"))
	if _, err := w3.Update(context.Background(), appendIfAbsent("- x\n")); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("Update err = %v", err)
	}
	if _, err := w3.Snapshot(); err == nil {
		t.Error("Snapshot through an outside symlink succeeded")
	}
	noLeftovers(t, outside)
}

func TestSnapshot(t *testing.T) {
	root := t.TempDir()
	w, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Files) != 5 {
		t.Fatalf("missing .memory: %d files", len(s.Files))
	}
	for i, f := range s.Files {
		if f.Exists || !f.Known || f.Category != category.All[i] || f.Name != category.All[i].File() || f.Path != filepath.Join(w.Dir, f.Name) {
			t.Errorf("file %d = %+v", i, f)
		}
	}
	if _, err := os.Stat(w.Dir); err == nil {
		t.Error("Snapshot created .memory")
	}

	mkdirs(t, filepath.Join(w.Dir, "dir.md"))
	os.WriteFile(filepath.Join(w.Dir, "decisions.md"), []byte("# D\n- a\n"), 0o640)
	os.WriteFile(filepath.Join(w.Dir, "quirks.md"), nil, 0o644)
	os.WriteFile(filepath.Join(w.Dir, "zeta.md"), []byte("z"), 0o644)
	os.WriteFile(filepath.Join(w.Dir, "alpha.md"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(w.Dir, "notes.txt"), []byte("n"), 0o644)
	os.WriteFile(filepath.Join(w.Dir, ".decisions.md.tmp-123"), []byte("t"), 0o644)
	os.WriteFile(filepath.Join(w.Dir, ".lock"), []byte("{}"), 0o644)
	outside := filepath.Join(root, "outside.md")
	os.WriteFile(outside, []byte("secret"), 0o644)
	os.Symlink(outside, filepath.Join(w.Dir, "link-out.md"))
	os.Symlink("alpha.md", filepath.Join(w.Dir, "link-in.md"))

	s, err = w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Files {
		names = append(names, f.Name)
	}
	want := []string{"instructions.md", "quirks.md", "preferences.md", "decisions.md", "security.md", "alpha.md", "link-in.md", "link-out.md", "zeta.md"}
	if !slices.Equal(names, want) {
		t.Errorf("files = %q, want %q", names, want)
	}
	d := s.Category(category.Decision)
	if !d.Exists || string(d.Data) != "# D\n- a\n" || d.Mode != 0o640 {
		t.Errorf("decisions = %+v", *d)
	}
	if q := s.Category(category.Quirk); !q.Exists || q.Data == nil || len(q.Data) != 0 {
		t.Errorf("empty quirks = %+v", *q)
	}
	if a := s.Lookup("alpha.md"); a.Known || !a.Exists || string(a.Data) != "a" {
		t.Errorf("alpha = %+v", *a)
	}
	if l := s.Lookup("link-in.md"); string(l.Data) != "a" {
		t.Errorf("link-in = %+v", *l)
	}
	if l := s.Lookup("link-out.md"); !l.Exists || l.Data != nil || l.Link != outside {
		t.Errorf("link-out = %+v (must not be read)", *l)
	}

	// A category file leading outside makes Snapshot fail.
	os.Remove(filepath.Join(w.Dir, "security.md"))
	os.Symlink(outside, filepath.Join(w.Dir, "security.md"))
	if _, err := w.Snapshot(); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("err = %v", err)
	}
}

// appendIfAbsent is a read-decide-write transaction: append line to
// decisions.md unless it is already there.
func appendIfAbsent(line string) func(*Snapshot) ([]Change, error) {
	return func(s *Snapshot) ([]Change, error) {
		f := s.Category(category.Decision)
		data := f.Data
		if !f.Exists {
			data = NewFileBytes(category.Decision)
		}
		if bytes.Contains(data, []byte("\n"+line)) {
			return nil, nil
		}
		return []Change{{Path: f.Path, Data: slices.Concat(data, []byte(line))}}, nil
	}
}

func countLine(t *testing.T, p, line string) int {
	t.Helper()
	return strings.Count(readString(t, p), "\n"+line)
}

func TestUpdateBasics(t *testing.T) {
	ctx := context.Background()
	w, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dec := filepath.Join(w.Dir, "decisions.md")

	// Creates .memory and the file.
	got, err := w.Update(ctx, appendIfAbsent("- a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != dec {
		t.Errorf("written = %+v", got)
	}
	if s := readString(t, dec); s != "# Decisions\n\n- a\n" {
		t.Errorf("content %q", s)
	}
	noLeftovers(t, w.Dir, "decisions.md")

	// No change: nothing written, file untouched.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(dec, old, old)
	got, err = w.Update(ctx, appendIfAbsent("- a\n"))
	if err != nil || got != nil {
		t.Fatalf("got %v, %v", got, err)
	}
	if fi, _ := os.Stat(dec); !fi.ModTime().Equal(old) {
		t.Error("file rewritten although fn returned no changes")
	}
	// Same bytes: dropped.
	got, err = w.Update(ctx, func(s *Snapshot) ([]Change, error) {
		return []Change{{Path: "decisions.md", Data: s.Category(category.Decision).Data}}, nil
	})
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
	if fi, _ := os.Stat(dec); !fi.ModTime().Equal(old) {
		t.Error("identical content rewritten")
	}

	// Relative paths, several files, mode kept.
	os.Chmod(dec, 0o600)
	got, err = w.Update(ctx, func(s *Snapshot) ([]Change, error) {
		return []Change{
			{Path: "decisions.md", Data: []byte("# Decisions\n\n- b\n")},
			{Path: filepath.Join(w.Dir, "quirks.md"), Data: NewFileBytes(category.Quirk)},
		}, nil
	})
	if err != nil || len(got) != 2 {
		t.Fatalf("got %v, %v", got, err)
	}
	if fi, _ := os.Stat(dec); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	noLeftovers(t, w.Dir, "decisions.md", "quirks.md")

	// fn sees a fresh snapshot: a change made outside between updates shows.
	os.WriteFile(dec, []byte("external\n"), 0o600)
	w.Update(ctx, func(s *Snapshot) ([]Change, error) {
		if d := string(s.Category(category.Decision).Data); d != "external\n" {
			t.Errorf("fn saw %q", d)
		}
		return nil, nil
	})
}

func TestUpdateErrorsReleaseTheLock(t *testing.T) {
	ctx := context.Background()
	w, _ := Open(t.TempDir())
	boom := errors.New("boom")
	tests := []struct {
		name string
		fn   func(*Snapshot) ([]Change, error)
		want string
	}{
		{"fn error", func(*Snapshot) ([]Change, error) { return []Change{{Path: "decisions.md", Data: []byte("x")}}, boom }, "boom"},
		{"panic", func(*Snapshot) ([]Change, error) { panic("kaboom") }, "panicked: kaboom"},
		{"parent dir", changeTo("../decisions.md"), "only files directly inside"},
		{"absolute outside", changeTo("/tmp/decisions.md"), "only files directly inside"},
		{"subdir", changeTo("sub/decisions.md"), "only files directly inside"},
		{"lock file", changeTo(".lock"), "hidden"},
		{"the dir itself", changeTo("."), "only files directly inside"},
		{"empty path", changeTo(""), "no path"},
		{"twice", func(*Snapshot) ([]Change, error) {
			return []Change{{Path: "a.md", Data: []byte("1")}, {Path: "a.md", Data: []byte("2")}}, nil
		}, "twice"},
		{"valid then invalid", func(*Snapshot) ([]Change, error) {
			return []Change{{Path: "decisions.md", Data: []byte("x")}, {Path: "../x.md", Data: []byte("x")}}, nil
		}, "only files directly inside"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := w.Update(ctx, tc.fn)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if tc.name == "fn error" && !errors.Is(err, boom) {
				t.Errorf("fn's error not wrapped: %v", err)
			}
			if got != nil {
				t.Errorf("written = %v", got)
			}
			noLeftovers(t, w.Dir) // nothing written, lock gone
		})
	}
	noLeftovers(t, w.Root, ".memory") // no decisions.md or x.md escaped
}

func changeTo(p string) func(*Snapshot) ([]Change, error) {
	return func(*Snapshot) ([]Change, error) { return []Change{{Path: p, Data: []byte("x")}}, nil }
}

func TestUpdateRefusesSymlinkedFileOutside(t *testing.T) {
	root := t.TempDir()
	w, _ := Open(root)
	mkdirs(t, w.Dir)
	target := filepath.Join(root, "target.md")
	os.WriteFile(target, []byte("keep"), 0o644)
	os.Symlink(target, filepath.Join(w.Dir, "other.md"))
	_, err := w.Update(context.Background(), changeTo("other.md"))
	if err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("err = %v", err)
	}
	if got := readString(t, target); got != "keep" {
		t.Errorf("target overwritten: %q", got)
	}
	// A category file linked outside blocks the snapshot, hence the update.
	os.Symlink(target, filepath.Join(w.Dir, "decisions.md"))
	if _, err := w.Update(context.Background(), appendIfAbsent("- x\n")); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("err = %v", err)
	}
	if got := readString(t, target); got != "keep" {
		t.Errorf("target overwritten: %q", got)
	}
	noLeftovers(t, w.Dir, "decisions.md", "other.md")
}

func TestUpdateReportsTakeOver(t *testing.T) {
	w, _ := Open(t.TempDir())
	_, err := w.Update(context.Background(), func(s *Snapshot) ([]Change, error) {
		// Someone judged us stale and took the lock while we worked.
		os.WriteFile(filepath.Join(s.Dir, ".lock"), []byte(`{"pid":1,"ts":1}`), 0o644)
		return nil, nil
	})
	if !errors.Is(err, ErrTakenOver) {
		t.Errorf("err = %v, want ErrTakenOver", err)
	}
	if got := readString(t, filepath.Join(w.Dir, ".lock")); got != `{"pid":1,"ts":1}` {
		t.Errorf("new holder's lock changed: %q", got)
	}
}

func TestUpdateConcurrentGoroutines(t *testing.T) {
	w, _ := Open(t.TempDir())
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine also opens its own Workspace: the in-process
			// lock is keyed by directory, not by value.
			w2, err := Open(w.Root)
			if err != nil {
				errs <- err
				return
			}
			if _, err := w2.Update(context.Background(), appendIfAbsent("- x\n")); err != nil {
				errs <- err
			}
			for i := range 5 {
				if _, err := w.Update(context.Background(), appendIfAbsent(fmt.Sprintf("- g%d-%d\n", g, i))); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	dec := filepath.Join(w.Dir, "decisions.md")
	if n := countLine(t, dec, "- x\n"); n != 1 {
		t.Errorf("%d copies of the line, want 1", n)
	}
	if n := strings.Count(readString(t, dec), "\n- g"); n != 40 {
		t.Errorf("%d distinct lines, want 40", n)
	}
	noLeftovers(t, w.Dir, "decisions.md")
}

// A lock holder removes the temp files dead writers left, and nothing else:
// not HackLM's files, not the lock, not look-alikes that are not ours.
func TestUpdateRemovesLeftoverTemps(t *testing.T) {
	w, _ := Open(t.TempDir())
	mkdirs(t, w.Dir, filepath.Join(w.Dir, ".dir.md.tmp-1"))
	keep := []string{".dir.md.tmp-1", ".notes.tmp-12x", "conflicts.log", "decisions.md.tmp-5", "quirks.md"}
	for _, n := range keep[1:] {
		os.WriteFile(filepath.Join(w.Dir, n), []byte("keep"), 0o644)
	}
	stray := []string{".decisions.md.tmp-0123456789abcdef", ".quirks.md.tmp-4242", ".gone.md.tmp-1"}
	for _, n := range stray {
		os.WriteFile(filepath.Join(w.Dir, n), []byte("- stray entry\n"), 0o600)
	}
	os.Symlink("quirks.md", filepath.Join(w.Dir, ".link.md.tmp-2"))
	keep = append(keep, ".link.md.tmp-2")
	// A read before the update does not see them as memory.
	s, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.Files {
		if strings.Contains(f.Name, tempMarker) || bytes.Contains(f.Data, []byte("stray")) {
			t.Errorf("Snapshot read %s: %q", f.Name, f.Data)
		}
	}
	if _, err := w.Update(context.Background(), appendIfAbsent("- a\n")); err != nil {
		t.Fatal(err)
	}
	want := append([]string{"decisions.md"}, keep...)
	slices.Sort(want)
	noLeftovers(t, w.Dir, want...)
	if got := readString(t, filepath.Join(w.Dir, "decisions.md")); got != "# Decisions\n\n- a\n" {
		t.Errorf("decisions.md = %q", got)
	}
}
