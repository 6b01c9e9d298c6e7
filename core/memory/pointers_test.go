package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestUpsertBlock(t *testing.T) {
	const block = "<!-- memory-lsp:start -->\nnew\n<!-- memory-lsp:end -->\n"
	const crlfBlock = "<!-- memory-lsp:start -->\r\nnew\r\n<!-- memory-lsp:end -->\r\n"
	hack := "<!-- hacklm-memory:start -->\n## Memory-Augmented Context\n<!-- hacklm-memory:end -->"
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty file", "", block},
		{"appended after a blank line", "# Agents\n\nBe kind.\n", "# Agents\n\nBe kind.\n\n" + block},
		{"no final newline", "# Agents", "# Agents\n\n" + block},
		{"already ends with a blank line", "# Agents\n\n", "# Agents\n\n" + block},
		{"ours updated in place",
			"# Agents\n\n<!-- memory-lsp:start -->\nold\ntext\n<!-- memory-lsp:end -->\n\n## After\n",
			"# Agents\n\n" + block + "\n## After\n"},
		{"ours updated in place at the end without a newline",
			"# A\n<!-- memory-lsp:start -->\nold\n<!-- memory-lsp:end -->",
			"# A\n" + strings.TrimSuffix(block, "\n")},
		{"ours unchanged", "# A\n\n" + block + "tail\n", "# A\n\n" + block + "tail\n"},
		{"HackLM's block left alone, ours appended", "# A\n\n" + hack + "\n", "# A\n\n" + hack + "\n\n" + block},
		{"any other tool's block left alone",
			"<!-- other-tool:start -->\nkeep <!-- memory-lsp:start --> me\n<!-- other-tool:end -->\n",
			"<!-- other-tool:start -->\nkeep <!-- memory-lsp:start --> me\n<!-- other-tool:end -->\n\n" + block},
		{"our markers inside another tool's block are its content",
			"<!-- other:start -->\n<!-- memory-lsp:start -->\nquoted\n<!-- memory-lsp:end -->\n<!-- other:end -->\n",
			"<!-- other:start -->\n<!-- memory-lsp:start -->\nquoted\n<!-- memory-lsp:end -->\n<!-- other:end -->\n\n" + block},
		{"ours after another tool's block updated",
			hack + "\n\n<!-- memory-lsp:start -->\nold\n<!-- memory-lsp:end -->\n",
			hack + "\n\n" + block},
		{"a marker in prose is not a marker", "Write `<!-- memory-lsp:start -->` to start.\n", "Write `<!-- memory-lsp:start -->` to start.\n\n" + block},
		{"CRLF file, appended", "# A\r\n", "# A\r\n\r\n" + crlfBlock},
		{"CRLF file, updated in place",
			"# A\r\n<!-- memory-lsp:start -->\r\nold\r\n<!-- memory-lsp:end -->\r\nz\r\n",
			"# A\r\n" + crlfBlock + "z\r\n"},
	} {
		got, err := upsertBlock(c.in, block)
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %q, %v\nwant %q", c.name, got, err, c.want)
			continue
		}
		if again, err := upsertBlock(got, block); err != nil || again != got {
			t.Errorf("%s: a second run changed the file: %q, %v", c.name, again, err)
		}
	}
	for _, in := range []string{
		"<!-- other-tool:start -->\nno end\n",
		"<!-- memory-lsp:start -->\nno end\n",
		"<!-- other-tool:start -->\n<!-- memory-lsp:end -->\n",
	} {
		if got, err := upsertBlock(in, block); !errors.Is(err, errUnterminated) {
			t.Errorf("upsertBlock(%q) = %q, %v; want errUnterminated", in, got, err)
		}
	}
}

// TestInitPointerFiles runs Init with and without the AGENTS.md and
// CLAUDE.md options against real files.
func TestInitPointerFiles(t *testing.T) {
	ctx := context.Background()
	read := func(t *testing.T, p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	block := pointerBlock(".memory/")

	t.Run("off by default", func(t *testing.T) {
		root := t.TempDir()
		if _, err := newService(root).Init(ctx, InitOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"AGENTS.md", "CLAUDE.md"} {
			if _, err := os.Stat(filepath.Join(root, n)); !os.IsNotExist(err) {
				t.Errorf("%s written without its option: %v", n, err)
			}
		}
		if got := read(t, filepath.Join(root, ".github", "copilot-instructions.md")); got != pointerBlock("../.memory/") {
			t.Errorf("copilot block:\n%s", got)
		}
	})

	t.Run("created, appended, updated, idempotent", func(t *testing.T) {
		root := t.TempDir()
		agents, claude := filepath.Join(root, "AGENTS.md"), filepath.Join(root, "CLAUDE.md")
		hack := "<!-- hacklm-memory:start -->\nTheirs.\n<!-- hacklm-memory:end -->\n"
		if err := os.WriteFile(claude, []byte("# Claude\n\n"+hack), 0o644); err != nil {
			t.Fatal(err)
		}
		svc := newService(root)
		opts := InitOptions{AgentsMD: true, ClaudeMD: true}
		wrote, err := svc.Init(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(wrote, agents) || !slices.Contains(wrote, claude) {
			t.Errorf("Init wrote %v, want both pointer files among them", wrote)
		}
		if got := read(t, agents); got != block {
			t.Errorf("new AGENTS.md:\n%q", got)
		}
		if got, want := read(t, claude), "# Claude\n\n"+hack+"\n"+block; got != want {
			t.Errorf("CLAUDE.md:\n got %q\nwant %q", got, want)
		}
		wrote, err = svc.Init(ctx, opts)
		if err != nil || len(wrote) != 0 {
			t.Errorf("second Init wrote %v, %v; want nothing", wrote, err)
		}
		// An outdated block of ours is refreshed in place, the rest kept.
		old := "# Agents\n\n<!-- memory-lsp:start -->\nstale\n<!-- memory-lsp:end -->\n\nMore rules.\n"
		if err := os.WriteFile(agents, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		if wrote, err = svc.Init(ctx, opts); err != nil || len(wrote) != 1 || wrote[0] != agents {
			t.Errorf("Init after a stale block wrote %v, %v", wrote, err)
		}
		if got, want := read(t, agents), "# Agents\n\n"+block+"\nMore rules.\n"; got != want {
			t.Errorf("refreshed AGENTS.md:\n got %q\nwant %q", got, want)
		}
	})

	t.Run("an unterminated block refuses before anything is written", func(t *testing.T) {
		root := t.TempDir()
		agents := filepath.Join(root, "AGENTS.md")
		bad := "<!-- tool:start -->\nno end\n"
		if err := os.WriteFile(agents, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := newService(root).Init(ctx, InitOptions{AgentsMD: true})
		if !errors.Is(err, errUnterminated) || !strings.Contains(err.Error(), "AGENTS.md") {
			t.Fatalf("err = %v, want errUnterminated naming AGENTS.md", err)
		}
		if got := read(t, agents); got != bad {
			t.Errorf("AGENTS.md changed: %q", got)
		}
		if _, err := os.Stat(filepath.Join(root, ".memory")); !os.IsNotExist(err) {
			t.Errorf("a refused Init created .memory: %v", err)
		}
	})

	t.Run("a symlink out of the workspace is refused", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		target := filepath.Join(outside, "victim.md")
		if err := os.WriteFile(target, []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, "CLAUDE.md")); err != nil {
			t.Skip("no symlinks here:", err)
		}
		if _, err := newService(root).Init(ctx, InitOptions{ClaudeMD: true}); err == nil {
			t.Fatal("Init wrote through a symlink out of the workspace")
		}
		if got := read(t, target); got != "mine\n" {
			t.Errorf("the symlink's target changed: %q", got)
		}
		if _, err := os.Stat(filepath.Join(root, ".memory")); !os.IsNotExist(err) {
			t.Errorf("a refused Init created .memory: %v", err)
		}
	})
}
