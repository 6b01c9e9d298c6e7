package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	sep := string(filepath.Separator)
	dir := filepath.Join(sep+"w", "proj")
	for _, tc := range []struct {
		path string
		rel  string // "" when outside
	}{
		{dir, "."},
		{filepath.Join(dir, ".memory"), ".memory"},
		{filepath.Join(dir, ".memory", "x.md"), filepath.Join(".memory", "x.md")},
		{filepath.Join(dir, "..memory"), "..memory"},
		{filepath.Dir(dir), ""},
		{dir + "2", ""},
		{filepath.Join(sep+"w", "other", "x.md"), ""},
		{sep, ""},
	} {
		rel, ok := RelativePath(dir, tc.path)
		if ok != (tc.rel != "") || rel != tc.rel {
			t.Errorf("RelativePath(%q, %q) = %q, %v; want %q", dir, tc.path, rel, ok, tc.rel)
		}
		if Within(dir, tc.path) != ok {
			t.Errorf("Within(%q, %q) = %v, RelativePath says %v", dir, tc.path, !ok, ok)
		}
	}
}

func TestResolveIn(t *testing.T) {
	top := t.TempDir()
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	base := filepath.Join(top, "base")
	mkdirs(t, base, filepath.Join(top, "outside"))
	write := func(p string) {
		t.Helper()
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	write(filepath.Join(base, "plain.md"))
	write(filepath.Join(top, "outside", "x.md"))
	link("plain.md", filepath.Join(base, "in.md"))
	link(filepath.Join(top, "outside", "x.md"), filepath.Join(base, "out.md"))
	link(filepath.Join("..", "outside"), filepath.Join(base, "outdir"))
	link("gone.md", filepath.Join(base, "dangling.md"))
	// A base that is itself a link: compared once resolved.
	link(base, filepath.Join(top, "via"))

	for _, tc := range []struct {
		base, name string
		link       string // "" for a plain file
		inside     bool
		step       ResolveStep
		err        error // nil for success
	}{
		{base: base, name: "plain.md", inside: true},
		{base: base, name: "in.md", link: filepath.Join(base, "plain.md"), inside: true},
		{base: base, name: "out.md", link: filepath.Join(top, "outside", "x.md")},
		{base: base, name: "outdir", link: filepath.Join(top, "outside")},
		{base: filepath.Join(top, "via"), name: "in.md", link: filepath.Join(base, "plain.md"), inside: true},
		{base: base, name: "missing.md", step: LookingAtPath, err: fs.ErrNotExist},
		{base: base, name: "dangling.md", step: ResolvingLink, err: fs.ErrNotExist},
		{base: filepath.Join(top, "nowhere"), name: "in.md", step: ResolvingBase, err: fs.ErrNotExist},
	} {
		p := filepath.Join(base, tc.name) // tc.base may name the folder otherwise
		r, err := ResolveIn(tc.base, p)
		if tc.err != nil {
			if !errors.Is(err, tc.err) || FailedStep(err) != tc.step {
				t.Errorf("ResolveIn(%s, %s) err = %v at step %d, want %v at step %d", tc.base, tc.name, err, FailedStep(err), tc.err, tc.step)
			}
			continue
		}
		if err != nil {
			t.Errorf("ResolveIn(%s, %s): %v", tc.base, tc.name, err)
			continue
		}
		if r.Link != tc.link || r.Inside != tc.inside || r.Info == nil {
			t.Errorf("ResolveIn(%s, %s) = link %q inside %v, want %q %v", tc.base, tc.name, r.Link, r.Inside, tc.link, tc.inside)
		}
	}
}
