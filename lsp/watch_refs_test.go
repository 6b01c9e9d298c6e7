package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
)

// TestConcerns: which changes to the code a folder's repository follows,
// and which of them check the folder again.
func TestConcerns(t *testing.T) {
	root := t.TempDir()
	gitDir := filepath.Join(root, ".git")
	if err := os.MkdirAll(gitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	f := newFolder(filepath.Join(root, ".memory"), filepath.Join(root, ".memory"))
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	if _, follow, _ := concerns(f, at("src/auth/session.ts"), fileDeleted); follow {
		t.Error("a folder whose repository was never built follows a change")
	}
	f.scope.Store(memory.FindRepoScope(root))
	f.repo.Store(&repoState{repo: &fakeRepo{root: root, Repo: refstest.Repo{Ignore: []string{"node_modules/", "dist/"}}}})
	in := memory.NewInterest()
	in.Names["session.ts"] = true
	for _, p := range []string{"src/auth/session.ts", "lib/utils", "docs/adr"} {
		in.AddPath(p)
		in.Cited[p] = true
	}
	f.interest.Store(in)
	for _, tc := range []struct {
		path              string
		ch                fileChange
		follow, republish bool
	}{
		{"src/auth/session.ts", fileDeleted, true, true},   // the cited file
		{"src/auth/session.ts", fileCreated, true, true},   // back
		{"src/auth/session.ts", fileChanged, false, false}, // its content is never judged
		{"src", fileDeleted, true, true},                   // a folder of it
		{"lib/session.ts", fileCreated, true, true},        // a bare name's file
		{"README.md", fileCreated, true, true},             // in the root: is there code?
		{"other/x.go", fileCreated, true, false},           // nothing cited there, but a file all the same
		{"src/utils.ts", fileCreated, true, false},         // below a folder of a cited path, and cited by nothing
		{"lib/utils.ts", fileCreated, true, true},          // `lib/utils` cited: its module's file
		{"docs/adr/0001.md", fileCreated, true, true},      // the first file of a cited folder
		{"docs/adr/old/0001.md", fileDeleted, true, false}, // below it: its folder's event tells
		{"web/package.json", fileChanged, true, true},      // a manifest
		{"web/Dockerfile.dev", fileChanged, true, true},
		{"deploy/compose.prod.yaml", fileCreated, true, true},
		{".gitignore", fileChanged, true, true},
		{".github/workflows/lint.yml", fileChanged, true, true},          // pins what nothing else does
		{"web/.github/workflows/lint.yml", fileChanged, false, false},    // a subproject's is not read
		{"node_modules/left-pad/package.json", fileCreated, true, false}, // ignored
		{"dist/session.ts", fileCreated, true, false},
		{".memory/decisions.md", fileChanged, false, false}, // the memory watcher's
		{".memory", fileCreated, false, false},
		{".git/objects/ab", fileCreated, false, false},
		{".git/index", fileChanged, true, true},   // the repository looks whether it changed
		{".git/shallow", fileChanged, true, true}, // a shallow clone deepened
		{"src/auth/session.ts", 0, false, false},  // a chmod
	} {
		if _, follow, republish := concerns(f, at(tc.path), tc.ch); follow != tc.follow || republish != tc.republish {
			t.Errorf("%s (change %d): follow %v, republish %v; want %v, %v", tc.path, tc.ch, follow, republish, tc.follow, tc.republish)
		}
	}
	if _, follow, _ := concerns(f, filepath.Join(t.TempDir(), "Makefile"), fileChanged); follow {
		t.Error("a manifest of another repository is followed by this one")
	}
}
