package txtar

import "testing"

func TestRoundTrip(t *testing.T) {
	in := "comment line\n-- a.md --\nhello\n-- dir/b.md --\n-- not a marker\n--  --\n"
	a := Parse([]byte(in))
	if string(a.Comment) != "comment line\n" || len(a.Files) != 2 {
		t.Fatalf("Parse = %q %+v", a.Comment, a.Files)
	}
	if a.Files[0].Name != "a.md" || string(a.Files[0].Data) != "hello\n" {
		t.Errorf("file 0 = %+v", a.Files[0])
	}
	if d, _ := a.Get("dir/b.md"); string(d) != "-- not a marker\n--  --\n" {
		t.Errorf("file 1 = %q", d)
	}
	if got := string(Format(a)); got != in {
		t.Errorf("Format = %q, want %q", got, in)
	}
	a.Set("c", []byte("no newline"))
	if got := string(Format(a)); got != in+"-- c --\nno newline\n" {
		t.Errorf("Format after Set = %q", got)
	}
}
