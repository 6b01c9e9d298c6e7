package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// tooLargeBytes is a decisions.md just over rules.MaxFileBytes.
func tooLargeBytes() []byte {
	line := []byte("- [same] A line repeated until the file is over the limit.\n")
	return bytes.Repeat(line, rules.MaxFileBytes/len(line)+1)
}

// TestFileTooLargeRefusesWrites: a store into, a fix of or a cleanup of a
// workspace whose category file is over the limit is refused with an error
// naming the file and its size, and no file changes; a store into another
// category still works.
func TestFileTooLargeRefusesWrites(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	big := tooLargeBytes()
	bigPath := filepath.Join(dir, "decisions.md")
	secPath := filepath.Join(dir, "security.md")
	sec := []byte("# Security\n\n* Never run the API container as root.\n")
	for p, b := range map[string][]byte{bigPath: big, secPath: sec} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	svc := newService(root)
	ctx := context.Background()
	refusals := []struct {
		op  string
		run func() error
	}{
		{"store into", func() error {
			_, err := svc.Store(ctx, StoreRequest{Category: "Decision", Content: "Use MySQL for reporting."}, false)
			return err
		}},
		{"store into", func() error {
			_, err := svc.Store(ctx, StoreRequest{Category: "Decision", Content: "Use MySQL for reporting."}, true)
			return err
		}},
		{"fix", func() error { _, err := svc.Fix(ctx, nil); return err }},
		{"clean up", func() error { _, _, err := svc.Cleanup(ctx, CleanupOptions{}, false, nil); return err }},
		{"clean up", func() error { _, _, err := svc.Cleanup(ctx, CleanupOptions{}, true, nil); return err }},
	}
	for _, r := range refusals {
		err := r.run()
		var tl *FileTooLargeError
		if !errors.As(err, &tl) || tl.Op != r.op || tl.Path != bigPath || tl.Size != int64(len(big)) {
			t.Fatalf("%s: err = %v, want a FileTooLargeError for %s", r.op, err, bigPath)
		}
		for _, want := range []string{"refusing to " + r.op, bigPath, " bytes (", fmt.Sprintf("over the %d MiB limit", rules.MaxFileBytes>>20)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", r.op, err, want)
			}
		}
	}
	if b, _ := os.ReadFile(bigPath); !bytes.Equal(b, big) {
		t.Error("the large file changed")
	}
	if b, _ := os.ReadFile(secPath); !bytes.Equal(b, sec) {
		t.Errorf("security.md changed to %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf(".memory holds %d entries, want the 2 files", len(ents))
	}
	if _, err := svc.Store(ctx, StoreRequest{Category: "Quirk", Content: "The Gradle daemon leaks memory."}, false); err != nil {
		t.Errorf("store into another category: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "quirks.md")); err != nil {
		t.Error(err)
	}
}

// TestPlanStoreRefusesTooLarge: the planner itself (which the language
// server calls with an editor's buffer) refuses bytes over the limit.
func TestPlanStoreRefusesTooLarge(t *testing.T) {
	cur := tooLargeBytes()
	out, _, err := PlanStore(cur, Store{Category: category.Decision, Content: "Use MySQL."}, config.Default())
	var tl *FileTooLargeError
	if out != nil || !errors.As(err, &tl) || tl.Path != "decisions.md" {
		t.Errorf("PlanStore = %d bytes, %v", len(out), err)
	}
}

// TestCheckPointerPath: init's files outside .memory are written only where
// the write stays inside the workspace root.
func TestCheckPointerPath(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, root, outside string)
		path    string // relative to root
		wantErr string // "" to allow
	}{
		{"absent .github", func(*testing.T, string, string) {}, ".github/copilot-instructions.md", ""},
		{"existing file", func(t *testing.T, root, _ string) {
			mkfile(t, filepath.Join(root, ".github", "copilot-instructions.md"))
		}, ".github/copilot-instructions.md", ""},
		{"file linked inside the root", func(t *testing.T, root, _ string) {
			mkfile(t, filepath.Join(root, "docs", "agents.md"))
			symlink(t, "docs/agents.md", filepath.Join(root, "AGENTS.md"))
		}, "AGENTS.md", ""},
		{"file linked outside", func(t *testing.T, root, outside string) {
			mkfile(t, filepath.Join(outside, "bashrc"))
			os.MkdirAll(filepath.Join(root, ".github"), 0o755)
			symlink(t, filepath.Join(outside, "bashrc"), filepath.Join(root, ".github", "copilot-instructions.md"))
		}, ".github/copilot-instructions.md", "outside the workspace"},
		{".github linked outside", func(t *testing.T, root, outside string) {
			os.MkdirAll(filepath.Join(outside, "gh"), 0o755)
			symlink(t, filepath.Join(outside, "gh"), filepath.Join(root, ".github"))
		}, ".github/copilot-instructions.md", "outside the workspace"},
		{"dangling link", func(t *testing.T, root, outside string) {
			symlink(t, filepath.Join(outside, "missing"), filepath.Join(root, "CLAUDE.md"))
		}, "CLAUDE.md", "cannot be resolved"},
		{"a directory", func(t *testing.T, root, _ string) {
			os.MkdirAll(filepath.Join(root, "AGENTS.md"), 0o755)
		}, "AGENTS.md", "not a regular file"},
		{"outside the root", func(*testing.T, string, string) {}, "../x.md", "not a file inside the workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
			os.MkdirAll(root, 0o755)
			os.MkdirAll(outside, 0o755)
			tt.setup(t, root, outside)
			err := newService(root).checkPointerPath(filepath.Join(root, tt.path))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func mkfile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
