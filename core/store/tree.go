package store

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/store/regfile"
)

// MaxAgentFileBytes bounds an agent's instruction file read for its load
// budget: past the largest limit an agent has (Claude Code skips a
// CLAUDE.md over 4 MiB) with room to say by how much.
const MaxAgentFileBytes = 16 << 20

// Tree reads the files of a workspace that agents load besides `.memory/`
// (AGENTS.md, CLAUDE.md, .cursor/rules/ …) by slash path relative to its
// root, as budget.Reader asks: regular files only (a pipe or a device named
// AGENTS.md is never opened for reading), each up to MaxAgentFileBytes.
type Tree struct{ Root string }

// ReadFile is the file's bytes; false when there is no regular file there,
// or one that cannot be read.
func (t Tree) ReadFile(rel string) ([]byte, bool) {
	data, err := regfile.Read(filepath.Join(t.Root, filepath.FromSlash(rel)), MaxAgentFileBytes)
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
