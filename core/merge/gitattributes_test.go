package merge

import "testing"

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
		got, changed := AddAttributes([]byte(c.in))
		if string(got) != c.want || changed != c.changed {
			t.Errorf("%s: AddAttributes(%q) = %q, %v; want %q, %v", c.name, c.in, got, changed, c.want, c.changed)
		}
		if again, ch := AddAttributes(got); ch || string(again) != string(got) {
			t.Errorf("%s: not idempotent: %q", c.name, again)
		}
	}
}
