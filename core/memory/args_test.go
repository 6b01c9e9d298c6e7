package memory

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestDecodeArgs(t *testing.T) {
	type root struct {
		Root string `json:"root,omitempty"`
	}
	type args struct {
		root
		Category string   `json:"category"`
		Limit    int      `json:"limit"`
		Score    *float64 `json:"score"`
		Apply    bool     `json:"apply"`
		Tags     []string `json:"tags"`
		hidden   int      //lint:ignore U1000 an unexported field: the decoder must neither fill it nor offer it as an argument
	}
	for _, tc := range []struct {
		raw, field, problem string
	}{
		{raw: ``},
		{raw: `null`},
		{raw: ` {"category": "Quirk", "limit": 3, "root": "/w"} `},
		{raw: `[1]`, field: "arguments", problem: "the arguments must be one JSON object"},
		{raw: `"x"`, field: "arguments", problem: "the arguments must be one JSON object"},
		{raw: `{"catgory": "Quirk"}`, field: "catgory", problem: "unknown argument; the arguments are root, category, limit, score, apply, tags"},
		{raw: `{"limit": "five"}`, field: "limit", problem: "must be a whole number, not a JSON string"},
		{raw: `{"limit": 2.5}`, field: "limit", problem: "must be a whole number, not a JSON number 2.5"},
		{raw: `{"score": "high"}`, field: "score", problem: "must be a number, not a JSON string"},
		{raw: `{"apply": "yes"}`, field: "apply", problem: "must be a boolean, not a JSON string"},
		{raw: `{"category": 42}`, field: "category", problem: "must be a string, not a JSON number"},
		{raw: `{"tags": {}}`, field: "tags", problem: "must be an array, not a JSON object"},
		{raw: `{"root": false}`, field: "root", problem: "must be a string, not a JSON bool"},
		{raw: `{"category": "Quirk"`, field: "arguments", problem: "unexpected EOF"},
		// Not text: refused, where decoding alone would give U+FFFD.
		{raw: "{\"category\": \"Qu\xffirk\"}", field: "category", problem: "category is not valid UTF-8: byte 0xFF is not part of any character"},
		{raw: "{\"root\": \"/w\", \"tags\": [\"a\", \"\xed\xa0\x80\"]}", field: "tags", problem: "tags is not valid UTF-8: byte 0xED is not part of any character"},
		{raw: `{"category": "\ud800"}`, field: "category", problem: `category is not valid UTF-8: \ud800 is half of a UTF-16 surrogate pair, without its other half`},
		{raw: `{"category": "a\uDFFFb"}`, field: "category", problem: `category is not valid UTF-8: \udfff is half of a UTF-16 surrogate pair, without its other half`},
		{raw: `{"category": "\ud83d\u0041"}`, field: "category", problem: `category is not valid UTF-8: \ud83d is half of a UTF-16 surrogate pair, without its other half`},
		{raw: `{"category": "\ud83d"}`, field: "category", problem: `category is not valid UTF-8: \ud83d is half of a UTF-16 surrogate pair, without its other half`},
		{raw: "{\"cat\xffegory\": \"Quirk\"}", field: "cat\ufffdegory", problem: "unknown argument; the arguments are root, category, limit, score, apply, tags"},
		// Text: a real U+FFFD, a pair, an escaped backslash before a u.
		{raw: `{"category": "\ufffd \ud83d\ude00 \\ud800"}`},
		{raw: "{\"category\": \"\xef\xbf\xbd \xf0\x9f\x98\x80\"}"},
	} {
		var a args
		err := DecodeArgs(json.RawMessage(tc.raw), &a)
		if tc.field == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.raw, err)
			}
			continue
		}
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field || ie.Problem != tc.problem {
			t.Errorf("%s: error %#v, want field %q problem %q", tc.raw, err, tc.field, tc.problem)
		}
	}
	var a args
	if err := DecodeArgs(json.RawMessage(`{"category":"Quirk","limit":3,"root":"/w","apply":true}`), &a); err != nil || a.Category != "Quirk" || a.Limit != 3 || a.Root != "/w" || !a.Apply {
		t.Errorf("decoded %+v, %v", a, err)
	}
	if err := DecodeArgs(json.RawMessage(`{"x":1}`), &struct{}{}); err == nil || err.(*InputError).Problem != "unknown argument; this call takes none" {
		t.Errorf("no-argument call: %v", err)
	}
}
