package refs

import (
	"strings"
	"testing"
)

func (iv interval) String() string {
	lo := "0"
	if iv.hasLo {
		lo = fullString(iv.lo)
	}
	hi := "inf"
	if iv.hasHi {
		hi = fullString(iv.hi)
	}
	return "[" + lo + "," + hi + ")"
}

func fullString(v semver) string {
	v.n = 3
	return v.String()
}

func TestParseConstraint(t *testing.T) {
	cases := []struct {
		value string
		bare  Op
		want  string // "" when unreadable
	}{
		{"22", Exact, "[22.0.0,23.0.0)"},
		{"v20.11.0", Exact, "[20.11.0,20.11.1)"},
		{"go1.23.1", Exact, "[1.23.1,1.23.2)"},
		{"16-alpine", Exact, "[16.0.0,17.0.0)"},
		{"3.12-slim-bookworm", Exact, "[3.12.0,3.13.0)"},
		{"18.x", Exact, "[18.0.0,19.0.0)"},
		{"1.22", AtLeast, "[1.22.0,inf)"},
		{"1.0", Caret, "[1.0.0,2.0.0)"},
		{"^18.2.0", Exact, "[18.2.0,19.0.0)"},
		{"^0.2.3", Exact, "[0.2.3,0.3.0)"},
		{"^0.0.3", Exact, "[0.0.3,0.0.4)"},
		{"~1.2.3", Exact, "[1.2.3,1.3.0)"},
		{"~1", Exact, "[1.0.0,2.0.0)"},
		{"~=3.10", Exact, "[3.10.0,4.0.0)"},
		{"~=3.10.2", Exact, "[3.10.2,3.11.0)"},
		{">=18 <21", Exact, "[18.0.0,21.0.0)"},
		{">= 18", Exact, "[18.0.0,inf)"},
		{">=3.10,<4", Exact, "[3.10.0,4.0.0)"},
		{">18", Exact, "[19.0.0,inf)"},
		{"<=20", Exact, "[0,21.0.0)"},
		{"==3.11.*", Exact, "[3.11.0,3.12.0)"},
		{">=3.9,!=3.9.1", Exact, "[3.9.0,inf)"},
		{"1.2 - 1.4", Exact, "[1.2.0,1.5.0)"},
		{"^16 || ^18", Exact, "[16.0.0,17.0.0) [18.0.0,19.0.0)"},
		{"*", Exact, "[0,inf)"},
		{"lts/iron", Exact, ""},
		{"latest", Exact, ""},
		{"stable", Exact, ""},
		{"workspace:*", Exact, ""},
		{">=18 <17", Exact, ""},
		{"", Exact, "[0,inf)"},
	}
	for _, c := range cases {
		got, ok := parseConstraint(c.value, c.bare)
		var parts []string
		for _, iv := range got {
			parts = append(parts, iv.String())
		}
		s := strings.Join(parts, " ")
		if !ok {
			s = ""
		}
		if s != c.want {
			t.Errorf("parseConstraint(%q, %v) = %q, want %q", c.value, c.bare, s, c.want)
		}
	}
}

func TestContradicts(t *testing.T) {
	cases := []struct {
		stated string
		op     Op
		pin    string
		want   bool
	}{
		{"18", Exact, "22", true},
		{"22", Exact, "22.11.0", false},
		{"22.1", Exact, "22", false},
		{"18", Exact, ">=18", false},
		{"18", Exact, ">=20", true},
		{"18", AtLeast, "22", false},
		{"18", AtLeast, "16", true},
		{"18", AtLeast, ">=16", false}, // the pin admits 18 and newer too
		{"18", AtLeast, "^16", true},
		{"18", Above, "18.5", true},
		{"18", Above, "19", false},
		{"20", AtMost, "22", true},
		{"22", AtMost, "22", false},
		{"20", Below, "20", true},
		{"18", Caret, "^18.3.1", false},
		{"18.2", Tilde, "18.3", true},
		{"17", Exact, "^16 || ^18", true},
		{"18", Exact, "^16 || ^18", false},
	}
	for _, c := range cases {
		v, _ := parseSemver(c.stated)
		pin, ok := parseConstraint(c.pin, Exact)
		if !ok {
			t.Fatalf("pin %q unreadable", c.pin)
		}
		if got := contradicts(c.op, bounded(c.op, v), pin); got != c.want {
			t.Errorf("contradicts(%v%s, %q) = %v, want %v", c.op, c.stated, c.pin, got, c.want)
		}
	}
}
