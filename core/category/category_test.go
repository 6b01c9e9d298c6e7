package category

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Category
		wantErr bool
	}{
		{"Instruction", Instruction, false},
		{"decision", Decision, false},
		{"  SECURITY ", Security, false},
		{"Quirks", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
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
