package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
)

// TestAgentFileFindingsReadsNamedFilesInHand: a named agent's file is
// judged as Read gives it (an editor's buffer), not as the disk holds it —
// its load budget too —, comes back in extra even when nothing is found in
// it, and a file in hand that the disk lacks yet is loaded as the agent
// would load it once saved.
func TestAgentFileFindingsReadsNamedFilesInHand(t *testing.T) {
	root := t.TempDir()
	small := "# Agents\n\n- Run `go test ./...`.\n"
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	agents := filepath.Join(root, "AGENTS.md")
	cfg := config.Default()
	cfg.Agents = []string{"codex", "windsurf"}
	inHand := map[string]string{agents: small}
	read := func(p string) ([]byte, error) { return []byte(inHand[p]), nil }

	extra, findings, err := AgentFileFindings(root, cfg, nil, AgentFiles{Named: []string{agents}, Read: read})
	if err != nil || len(findings) != 0 || len(extra) != 1 || extra[0].Path != agents {
		t.Fatalf("a small AGENTS.md: %v, %v, %v", extra, findings, err)
	}
	inHand[agents] = small + strings.Repeat(strings.Repeat("x", 99)+"\n", 330)
	_, findings, err = AgentFileFindings(root, cfg, nil, AgentFiles{Named: []string{agents}, Read: read})
	if err != nil || len(findings) != 1 || findings[0].Code != "load-budget" || findings[0].File != 0 {
		t.Fatalf("AGENTS.md past 32 KiB in hand: %v, %v", findings, err)
	}

	// Not on disk yet: Windsurf loads an always-on rule, past its 12,000
	// characters.
	rule := filepath.Join(root, ".windsurf", "rules", "style.md")
	inHand = map[string]string{rule: "---\ntrigger: always_on\n---\n" + strings.Repeat("- Keep functions short.\n", 1000)}
	extra, findings, err = AgentFileFindings(root, cfg, nil, AgentFiles{Named: []string{rule}, Read: read})
	if err != nil || len(extra) != 1 || extra[0].Path != rule || len(findings) == 0 {
		t.Errorf("an unsaved Cursor rule: %v, %v, %v", extra, findings, err)
	}
}
