package memory

import (
	"path"
	"slices"
	"testing"
)

// The files whose content a verdict reads are followed when they change:
// manifests, pins, ignore rules, workflows, and the agents' instruction
// files the load budgets measure (issue 31); any other file only when it
// comes or goes. A client's watch covers the same files.
func TestVerdictFiles(t *testing.T) {
	for rel, want := range map[string]bool{
		"Makefile": true, "go.mod": true, ".gitignore": true, ".github/workflows/ci.yml": true,
		"AGENTS.md": true, "CLAUDE.md": true, "GEMINI.md": true, ".github/copilot-instructions.md": true,
		".cursor/rules/style.mdc": true, ".windsurf/rules/build.md": true, ".kiro/steering/tech.md": true,
		"README.md": false, "src/app.ts": false, "docs/AGENTS.txt": false,
	} {
		if got := VerdictFile(rel); got != want {
			t.Errorf("VerdictFile(%q) = %v, want %v", rel, got, want)
		}
		if !want {
			continue
		}
		if !slices.ContainsFunc(VerdictFileGlobs(), func(g string) bool {
			ok, _ := path.Match(g, rel)
			ok2, _ := path.Match(g, "pkg/"+rel)
			return ok || ok2 || g == "**/"+rel || g == "**/"+path.Base(rel) || matchesDirGlob(g, rel)
		}) {
			t.Errorf("no watch glob for %q in %v", rel, VerdictFileGlobs())
		}
	}
}

// matchesDirGlob: "**/.cursor/rules/*.mdc" covers ".cursor/rules/style.mdc".
func matchesDirGlob(g, rel string) bool {
	if len(g) < 3 || g[:3] != "**/" {
		return false
	}
	ok, _ := path.Match(g[3:], rel)
	return ok
}
