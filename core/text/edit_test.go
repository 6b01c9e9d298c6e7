package text

import (
	"reflect"
	"testing"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{"no edits", "abc", nil, "abc"},
		{"empty buffer insert", "", []Edit{{0, 0, "x"}}, "x"},
		{"replace", "hello world", []Edit{{6, 11, "there"}}, "hello there"},
		{"delete", "abc", []Edit{{1, 2, ""}}, "ac"},
		{"insert at end", "abc", []Edit{{3, 3, "d"}}, "abcd"},
		{"replace whole", "abc", []Edit{{0, 3, "xyz!"}}, "xyz!"},
		{"given out of order", "0123456789", []Edit{{8, 9, "H"}, {0, 1, "A"}, {4, 6, "E"}}, "A123E67H9"},
		{"adjacent edits", "abcd", []Edit{{2, 4, "YZ"}, {0, 2, "WX"}}, "WXYZ"},
		{"insertions at same offset keep order", "ac", []Edit{{1, 1, "1"}, {1, 1, "2"}, {1, 1, "3"}}, "a123c"},
		{"same-offset insertions keep order among others", "ac", []Edit{{2, 2, "!"}, {1, 1, "x"}, {0, 0, ">"}, {1, 1, "y"}}, ">axyc!"},
		{"insert then replace at same start", "abcd", []Edit{{1, 1, "Y"}, {1, 3, "X"}}, "aYXd"},
		{"insert at end of replaced range", "abcd", []Edit{{1, 3, "X"}, {3, 3, "Y"}}, "aXYd"},
		{"shrink and grow", "aaaa bbbb", []Edit{{0, 4, "a"}, {5, 9, "bbbbbbbb"}}, "a bbbbbbbb"},
		{"multibyte replaced", "a😀b", []Edit{{1, 5, "🙂🙂"}}, "a🙂🙂b"},
		{"crlf line replaced", "- a\r\n- b\r\n", []Edit{{5, 8, "- c"}}, "- a\r\n- c\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			orig := append([]Edit(nil), tt.edits...)
			got, err := Apply(src, tt.edits)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Apply = %q, want %q", got, tt.want)
			}
			if string(src) != tt.src {
				t.Errorf("Apply modified its input to %q", src)
			}
			if !reflect.DeepEqual(orig, tt.edits) {
				t.Errorf("Apply reordered the caller's edits: %v", tt.edits)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
	}{
		{"negative start", "abc", []Edit{{-1, 1, ""}}},
		{"end before start", "abc", []Edit{{2, 1, ""}}},
		{"end past buffer", "abc", []Edit{{1, 4, ""}}},
		{"start past buffer", "abc", []Edit{{4, 4, "x"}}},
		{"insert into empty past end", "", []Edit{{1, 1, "x"}}},
		{"overlap", "abcdef", []Edit{{0, 3, "x"}, {2, 4, "y"}}},
		{"overlap given reversed", "abcdef", []Edit{{2, 4, "y"}, {0, 3, "x"}}},
		{"same range twice", "abcdef", []Edit{{1, 2, "x"}, {1, 2, "y"}}},
		{"nested", "abcdef", []Edit{{0, 6, "x"}, {2, 3, "y"}}},
		{"insert inside replaced range", "abcdef", []Edit{{1, 4, "x"}, {2, 2, "y"}}},
		{"one bad among good", "abcdef", []Edit{{0, 1, "x"}, {5, 7, "y"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := Apply([]byte(tt.src), tt.edits); err == nil {
				t.Errorf("Apply = %q, want an error", got)
			}
			if _, err := Sorted(tt.edits, len(tt.src)); err == nil {
				t.Error("Sorted accepted the edits")
			}
		})
	}
}

func TestSorted(t *testing.T) {
	in := []Edit{{5, 6, "c"}, {1, 1, "a1"}, {0, 1, "z"}, {1, 1, "a2"}, {1, 3, "b"}}
	got, err := Sorted(in, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Edit{{0, 1, "z"}, {1, 1, "a1"}, {1, 1, "a2"}, {1, 3, "b"}, {5, 6, "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sorted = %v, want %v", got, want)
	}
	if in[0].Start != 5 {
		t.Error("Sorted reordered its argument")
	}
}
