package merge

import (
	"slices"
	"strings"
	"testing"
)

func TestAddAttributes(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		changed        bool
	}{
		{"missing file", "", ".memory/*.md merge=memory-lsp\n", true},
		{"other lines kept", "*.png binary\n", "*.png binary\n.memory/*.md merge=memory-lsp\n", true},
		{"no final newline", "*.png binary", "*.png binary\n.memory/*.md merge=memory-lsp\n", true},
		{"CRLF file", "*.png binary\r\n", "*.png binary\r\n.memory/*.md merge=memory-lsp\r\n", true},
		{"already there", "*.png binary\n.memory/*.md merge=memory-lsp\n", "*.png binary\n.memory/*.md merge=memory-lsp\n", false},
		{"already there with other attributes", ".memory/*.md  text eol=lf merge=memory-lsp", ".memory/*.md  text eol=lf merge=memory-lsp", false},
		{"overridden by a later line", ".memory/*.md merge=memory-lsp\n.memory/*.md merge=union\n", ".memory/*.md merge=memory-lsp\n.memory/*.md merge=union\n.memory/*.md merge=memory-lsp\n", true},
		{"another driver", ".memory/*.md merge=union\n", ".memory/*.md merge=union\n.memory/*.md merge=memory-lsp\n", true},
		{"a comment does not count", "# .memory/*.md merge=memory-lsp\n", "# .memory/*.md merge=memory-lsp\n.memory/*.md merge=memory-lsp\n", true},
		{"another pattern does not count", "**/.memory/*.md merge=memory-lsp\n", "**/.memory/*.md merge=memory-lsp\n.memory/*.md merge=memory-lsp\n", true},
	} {
		// The logs' line follows, in the file's line ending.
		eol := "\n"
		if strings.Contains(c.want, "\r\n") {
			eol = "\r\n"
		}
		want := c.want
		if !strings.HasSuffix(want, "\n") {
			want += eol
		}
		want += LogsLine + eol
		got, added := AddAttributes([]byte(c.in))
		if string(got) != want || slices.Contains(added, AttributesLine) != c.changed {
			t.Errorf("%s: AddAttributes(%q) = %q, %q; want %q, the driver's line added %v", c.name, c.in, got, added, want, c.changed)
		}
		if again, ch := AddAttributes(got); len(ch) > 0 || string(again) != string(got) {
			t.Errorf("%s: not idempotent: %q", c.name, again)
		}
	}
}

// The logs get git's union driver: both branches' appended lines kept.
func TestAddAttributesLogs(t *testing.T) {
	got, added := AddAttributes(nil)
	if string(got) != ".memory/*.md merge=memory-lsp\n.memory/*.log merge=union\n" || len(added) != 2 {
		t.Errorf("AddAttributes(nil) = %q, %q", got, added)
	}
	got, added = AddAttributes([]byte(".memory/*.log merge=union\r\n"))
	if string(got) != ".memory/*.log merge=union\r\n.memory/*.md merge=memory-lsp\r\n" || len(added) != 1 {
		t.Errorf("with the logs' line there: %q, %q", got, added)
	}
}
