package mcp

import (
	"regexp"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// TestCategorySchemaSaysWhatIsAccepted (issue 28): the category's schema
// keeps HackLM's enum of the five names, and its description names the
// other spellings the server reads, each of which the server does read:
// the schema does not contradict the server.
func TestCategorySchemaSaysWhatIsAccepted(t *testing.T) {
	s := categoryEnum("The memory category")
	if len(s.Enum) != len(category.All) {
		t.Fatalf("enum %v, want the five names", s.Enum)
	}
	examples := regexp.MustCompile(`\(([^)]+)\)`).FindAllStringSubmatch(s.Description, -1)
	if len(examples) < 2 {
		t.Fatalf("the description %q names no other spelling", s.Description)
	}
	for _, ex := range append(examples, []string{"", "DECISION"}) {
		if c, err := category.Parse(ex[1]); err != nil || c != category.Decision {
			t.Errorf("the description says %q is accepted; the server reads %v, %v", ex[1], c, err)
		}
	}
}
