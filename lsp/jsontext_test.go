package lsp

import (
	"encoding/json"
	"testing"
)

// The didOpen text is decoded as encoding/json decodes a string, byte for
// byte: escapes, surrogate pairs, unpaired surrogates and invalid UTF-8.
var jsonTextSeeds = []string{
	`""`, `"plain"`, `"- [db] Use Postgres.\n- Keep it.\r\n"`, `"\"\\\/\b\f\n\r\t"`,
	`"\u00e9\u4e2d\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`,
	"\"\xff\xfe ok \xe2\x82\"", `"é中😀"`, `"\u0000"`, `"bad \x escape"`, "\"raw\ncontrol\"", `"unterminated`, `"a"b"`, `null`, `12`,
}

func FuzzJSONText(f *testing.F) {
	for _, s := range jsonTextSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want string
		wantErr := json.Unmarshal(b, &want)
		var got jsonText
		err := json.Unmarshal(b, &got)
		switch {
		case wantErr != nil:
			if err == nil {
				t.Fatalf("%q: decoded %q where encoding/json refuses: %v", b, got, wantErr)
			}
		case string(b) == "null":
			if err != nil || got != nil {
				t.Fatalf("null: %q, %v", got, err)
			}
		case err != nil:
			t.Fatalf("%q: %v, encoding/json decodes %q", b, err, want)
		case string(got) != want:
			t.Fatalf("%q: %q, encoding/json decodes %q", b, got, want)
		case cap(got) != len(got):
			t.Fatalf("%q: %d bytes in a slice of %d", b, len(got), cap(got))
		}
	})
}

func TestJSONTextSeeds(t *testing.T) {
	for _, s := range jsonTextSeeds {
		var want string
		wantErr := json.Unmarshal([]byte(s), &want)
		var got jsonText
		err := json.Unmarshal([]byte(s), &got)
		if (err != nil) != (wantErr != nil) || (err == nil && s != "null" && string(got) != want) {
			t.Errorf("%q: %q, %v; encoding/json %q, %v", s, got, err, want, wantErr)
		}
	}
}
