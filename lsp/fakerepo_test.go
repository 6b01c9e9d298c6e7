package lsp

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// fakeRepo is a rules.Repo described in memory: refstest's map-backed
// refs.Repo, with the editor's questions answered from the same maps.
type fakeRepo struct {
	refstest.Repo
	root string
	// written maps "<file name>:<line>" to when that memory line was written.
	written map[string]time.Time
	// changed maps a path to its last commit.
	changed map[string]lastChange
}

type lastChange struct {
	commit string
	when   time.Time
}

func (r *fakeRepo) Written(path string, line int) time.Time {
	return r.written[filepath.Base(path)+":"+strconv.Itoa(line)]
}

func (r *fakeRepo) Locate(p string) (string, bool) {
	if _, ok := r.Stat(p); ok {
		return filepath.Join(r.root, filepath.FromSlash(p)), true
	}
	for _, f := range r.Files {
		if strings.HasSuffix(f, "/"+p) {
			return filepath.Join(r.root, filepath.FromSlash(f)), true
		}
	}
	return "", false
}

func (r *fakeRepo) LastChange(p string) (string, time.Time, bool) {
	c, ok := r.changed[p]
	return c.commit, c.when, ok
}

// repoFactory stands in for memory.OpenRepo: it counts the builds and
// makes each with make, which may read the disk or fail.
type repoFactory struct {
	mu    sync.Mutex
	roots []string
	make  func(root string) (rules.Repo, error)
}

func (f *repoFactory) open(_ context.Context, root string, _ config.Config) (rules.Repo, error) {
	f.mu.Lock()
	f.roots = append(f.roots, root)
	mk := f.make
	f.mu.Unlock()
	return mk(root)
}

func (f *repoFactory) builds() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.roots)
}

// diskFiles lists the files under root, slash-separated, without .memory's
// and .git's: the tracked files of a repository that tracks everything.
func diskFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".memory" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Error(err)
	}
	return out
}

// makefile is the manifest the fakes list: targets at lines 3, 12 and 20.
var makefile = refs.Manifest{File: "Makefile", Names: []string{"build", "e2e", "deploy-staging"}, Lines: []int{3, 12, 20}}
