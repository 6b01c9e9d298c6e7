package hacklm

import (
	"slices"
	"testing"
)

func TestKeywords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"don't", []string{"dont"}},
		{"Use use-any types", []string{"types", "use-any"}},
		{"x86_64 builds", []string{"builds", "x8664"}},
		{"the and always never not only need use", nil},
		{"ab abc ABC", []string{"abc"}},
		{"café naïve", []string{"caf", "nave"}},
		{"发布前更新变更日志", nil},
		{"--workspace -D", []string{"--workspace"}},
		{"---", []string{"---"}},
		{"a\u00a0b\u3000cde\u2028fgh\ufeffijk", []string{"cde", "fgh", "ijk"}},
		{"line\u0085break", []string{"linebreak"}}, // NEL is not JS whitespace
		{"\u212Aelvin", []string{"kelvin"}},        // the Kelvin sign lowercases to ASCII k
		{"", nil},
	}
	for _, tt := range tests {
		if got := Keywords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Keywords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Use snake_case  for\tPython!  ", "use snakecase for python"},
		{"auto-scaling", "autoscaling"},
		{"Java 1.8", "java 18"},
		{"发布 前", ""},
		{"a \u3000 b", "a b"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
