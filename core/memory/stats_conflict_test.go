package memory

import (
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// TestStatsSaysReversesOnlyOfAReversal (issues 27, 28): two texts under one
// slug are two versions of an entry, no conflict: nothing is reversed
// unless one reverses the other.
func TestStatsSaysReversesOnlyOfAReversal(t *testing.T) {
	files := []rules.File{rules.NewFile("/w/.memory/decisions.md", []byte(
		"# Decisions\n\n- [cache] Use Memcached 1.6 for sessions.\n- [cache] Use Valkey 8 for sessions.\n"+
			"- Always run tests with -race.\n- Never run tests with -race.\n- [cache] Use Redis 7 for sessions.\n"))}
	msg := ComputeStats(files, config.Default(), nil).Message("", "")
	if !strings.Contains(msg, `versions: decisions.md:4 "Use Valkey 8 for sessions." holds another text under the same slug as`) || !strings.Contains(msg, "1 conflict, 1 slug holding several texts.") {
		t.Errorf("the slug versions are not told as such:\n%s", msg)
	}
	if strings.Contains(msg, `Valkey 8 for sessions." reverses`) {
		t.Errorf("two texts under one slug are said to reverse each other:\n%s", msg)
	}
	if !strings.Contains(msg, `"Never run tests with -race." reverses`) {
		t.Errorf("the reversal is not told as one:\n%s", msg)
	}
}
