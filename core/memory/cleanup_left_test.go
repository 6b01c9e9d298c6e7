package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// TestCleanupNamesEveryHazardLineItLeaves (found by the red team of issue
// 26, round c; leftAsIs now also names the hazard lines FindHazards reads
// from the unlisted spans):
// cleanup lists each line it leaves to a person (leftAsIs) from the
// findings of the hazard and error rules, one step a finding's line. A file
// lists at most rules.MaxListed findings of a rule, so a file with a secret
// on each of 2,100 lines ("* " bullets: no entries, nothing pruned) gets 2,001 "left-as-is" steps (the 2,000 listed
// and the summary's line) and `memory-lsp cleanup` says "2001 lines left to
// you": the 99 lines after the summary's hold a credential that cleanup
// neither touched nor names. The lines are protected (FindHazards reads
// the summary's spans); the verdict is not told of them.
//
// Measured with `memory-lsp cleanup --apply`: "Cleanup plan: 0 entries
// before, 0 after (2001 lines left to you)", exit 0, the file unchanged.
func TestCleanupNamesEveryHazardLineItLeaves(t *testing.T) {
	const n = rules.MaxListed + 100
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range n {
		fmt.Fprintf(&b, "* Deploy app%d with the password is Qz7v%dxK9pWm\n", i, i)
	}
	files := []rules.File{rules.NewFile(".memory/decisions.md", []byte(b.String()))}
	p := PlanCleanup(files, config.Default(), CleanupOptions{})
	left := 0
	for _, s := range p.Steps {
		if s.Kind == StepLeft {
			left++
		}
	}
	if left != n {
		t.Errorf("%d lines left to a person listed, but %d lines hold a secret that cleanup leaves", left, n)
	}
}
