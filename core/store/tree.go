package store

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/store/regfile"
)

// MaxAgentFileBytes bounds what is read of an agent's instruction file for
// its load budget: past the largest limit an agent has (Claude Code skips a
// CLAUDE.md over 4 MiB), so a larger file is judged on its head — every cut
// falls inside it — and only its size is understated.
const MaxAgentFileBytes = 16 << 20

// Tree reads the files of a workspace that agents load besides `.memory/`
// (AGENTS.md, CLAUDE.md, .cursor/rules/ …) by slash path relative to its
// root, as budget.Reader asks: regular files only (a pipe or a device named
// AGENTS.md is never opened for reading), each up to MaxAgentFileBytes, and
// none that a symlink leads to outside the root.
type Tree struct{ Root string }

// ReadFile is the file's bytes (its head past MaxAgentFileBytes); false
// when there is no regular file there, one that cannot be read, or one
// outside the root.
func (t Tree) ReadFile(rel string) ([]byte, bool) {
	p := filepath.Join(t.Root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, false
	}
	if root, err := filepath.EvalSymlinks(t.Root); err != nil || !Within(root, real) {
		return nil, false
	}
	data, _, err := regfile.ReadHead(real, MaxAgentFileBytes)
	return data, err == nil
}

// List names what the folder at rel holds, sorted; nil when it is no
// folder or cannot be read.
func (t Tree) List(rel string) []string {
	entries, err := os.ReadDir(filepath.Join(t.Root, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	slices.Sort(out)
	return out
}
