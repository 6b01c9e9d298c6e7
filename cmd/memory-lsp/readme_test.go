package main

import (
	"os"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/rules"
)

// TestReadmeRuleTable keeps the README's table of diagnostic codes equal to
// the rule registry: codes are API, and a table that drifts from the code is
// worse than none. `go test ./cmd/memory-lsp -run TestReadmeRuleTable -update`
// regenerates it.
func TestReadmeRuleTable(t *testing.T) {
	const path = "../../README.md"
	const start, end = "<!-- rules:start -->\n", "<!-- rules:end -->"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %q … %q markers", start, end)
	}
	var b strings.Builder
	b.WriteString("| code | severity | meaning |\n|---|---|---|\n")
	for _, r := range rules.Rules() {
		b.WriteString("| `" + r.Code + "` | " + r.Severity.String() + " | " + strings.ReplaceAll(r.Summary, "|", `\|`) + " |\n")
	}
	want := s[:i+len(start)] + b.String() + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of diagnostic codes is out of date; run go test ./cmd/memory-lsp -run TestReadmeRuleTable -update")
}
