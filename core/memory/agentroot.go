package memory

import (
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/budget"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// AgentFileRoot is the workspace root of an agent's instruction file at
// abs (AGENTS.md, CLAUDE.md, .cursor/rules/x.mdc …), which check and the
// editor judge its bullets against: the folder it names a root file of,
// nearest first, preferring one that holds .memory/ or .git. false: no
// agent's file.
func AgentFileRoot(abs string) (string, bool) {
	var first string
	dir := filepath.Dir(abs)
	for range 3 {
		if rel, err := filepath.Rel(dir, abs); err == nil && budget.IsInstructionFile(filepath.ToSlash(rel)) {
			if store.IsDir(filepath.Join(dir, store.DirName)) || store.Exists(filepath.Join(dir, ".git")) {
				return dir, true
			}
			if first == "" {
				first = dir
			}
		}
		dir = filepath.Dir(dir)
	}
	if first == "" {
		// A nested one (packages/web/AGENTS.md): judged against the whole
		// workspace it lives in, the nearest folder above holding .memory/
		// or .git.
		for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
			if store.IsDir(filepath.Join(d, store.DirName)) || store.Exists(filepath.Join(d, ".git")) {
				if filepath.Base(abs) == "AGENTS.md" || filepath.Base(abs) == "CLAUDE.md" || filepath.Base(abs) == "GEMINI.md" {
					return d, true
				}
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return first, first != ""
}
