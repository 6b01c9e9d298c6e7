package category

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Category
		wantErr bool
	}{
		{"Instruction", Instruction, false},
		{"decision", Decision, false},
		{"  SECURITY ", Security, false},
		{"Quirks", Quirk, false},
		{"decisions", Decision, false},
		{"Decisions", Decision, false},
		{"decisions.md", Decision, false},
		{"PREFERENCES.MD", Preference, false},
		{"security.md", Security, false},
		{"", 0, true},
		{"notes", 0, true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseSuggests(t *testing.T) {
	for in, want := range map[string]string{"Desicion": "did you mean Decision?", "quirk.mdd": "did you mean Quirk?", "preferances": "did you mean Preference?"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want %q", in, err, want)
		}
	}
	if _, err := Parse("notes"); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("Parse(notes): %v, want no suggestion", err)
	}
}

func TestFilesRoundTrip(t *testing.T) {
	for _, c := range All {
		got, ok := FromFile(c.File())
		if !ok || got != c {
			t.Errorf("FromFile(%q) = %v, %v", c.File(), got, ok)
		}
	}
	if _, ok := FromFile("notes.md"); ok {
		t.Error("notes.md must not be a category file")
	}
}
