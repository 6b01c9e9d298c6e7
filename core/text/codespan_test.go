package text

import "testing"

func TestCodeSpans(t *testing.T) {
	tests := []struct {
		in   string
		want []string // the contents
	}{
		{"Run `make test` then `make lint`.", []string{"make test", "make lint"}},
		{"A ``code with ` inside`` span.", []string{"code with ` inside"}},
		{"An unclosed ` backtick is text.", nil},
		{"Runs of other lengths: ``a` and `b``.", []string{"a` and `b"}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range CodeSpans(tt.in) {
			if tt.in[c.Outer.Start] != '`' || tt.in[c.Outer.End-1] != '`' {
				t.Errorf("%q: outer %v does not cover the backticks", tt.in, c.Outer)
			}
			got = append(got, tt.in[c.Inner.Start:c.Inner.End])
		}
		if len(got) != len(tt.want) {
			t.Errorf("CodeSpans(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("CodeSpans(%q) = %q, want %q", tt.in, got, tt.want)
			}
		}
	}
}
