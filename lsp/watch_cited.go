package lsp

import (
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

// citedWatch is what the entries of last's files cite and the folders to
// watch for them, each once, in order (the work tree's root and git's
// folders first), read afresh from every entry at each publish, after the
// diagnostics are out: no one waits for it, and a reuse between publishes
// did not pay within the scale budget (BenchmarkStoreBinary/clone;
// BENCHMARKS.md, "What the server follows after a publish, afresh").
// f.pub is held.
func (s *Server) citedWatch(f *folder, last *checked, sc *memory.RepoScope) (dirs []string, in *memory.Interest) {
	seen := map[string]bool{}
	add := func(ds ...string) {
		for _, d := range ds {
			if !seen[d] && filepath.Base(d) != memory.DirName {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	add(sc.Root)
	if sc.GitDir != "" {
		add(sc.GitDir, filepath.Join(sc.GitDir, "logs"))
	}
	repo := last.repo.get()
	in = memory.NewInterest()
	for i := range last.v.files {
		// by entry, not f.cites.In: the spans are not needed
		for _, ec := range f.cites.Of(&last.v.files[i]) {
			for _, r := range ec.Refs {
				add(memory.CitedDirs(repo, sc.Root, sc.Within, r, in)...)
			}
		}
	}
	for _, target := range memory.InstructionLinks(sc.Root) {
		in.Links[target] = true
		add(filepath.Dir(target))
	}
	return dirs, in
}
