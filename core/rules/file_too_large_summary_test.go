package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// TestFileTooLargeSummaryNamesTheLimits: the summary of the file-too-large
// rule (rules.Rules, what listings of the rules and the README show) names
// the limits a file is held to (the red team found it naming old ones).
func TestFileTooLargeSummaryNamesTheLimits(t *testing.T) {
	for _, r := range Rules() {
		if r.Code != "file-too-large" {
			continue
		}
		if !strings.Contains(r.Summary, fmt.Sprintf("%d MiB", MaxFileBytes>>20)) || !strings.Contains(r.Summary, text.Thousands(MaxFileLines)+" lines") {
			t.Errorf("file-too-large summary %q does not name the limits (%d bytes, %d lines)", r.Summary, MaxFileBytes, MaxFileLines)
		}
		return
	}
	t.Fatal("no file-too-large rule")
}
