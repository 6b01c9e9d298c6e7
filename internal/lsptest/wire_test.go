package lsptest

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
)

// The checks the reader applies to every byte a server writes.
func TestReadFrameAndMessage(t *testing.T) {
	for _, c := range []struct{ headers, body string }{
		{"", `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n", `{"jsonrpc":"2.0","method":"x","params":{"a":"😀"}}`},
	} {
		in := fmt.Sprintf("Content-Length: %d\r\n%s\r\n%s", len(c.body), c.headers, c.body)
		body, err := readFrame(bufio.NewReader(strings.NewReader(in)))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if _, err := parseMessage(body); err != nil {
			t.Errorf("%q: %v", body, err)
		}
	}
	badFrames := []string{
		"Content-Length: 5\n\n{}",      // LF only
		"Content-Length: 99\r\n\r\n{}", // short body
		"X-Other: 1\r\n\r\n{}",         // no length
		"hello\r\n\r\n",                // stray output
		"Content-Length: -1\r\n\r\n",   // bad length
	}
	for _, in := range badFrames {
		if _, err := readFrame(bufio.NewReader(strings.NewReader(in))); err == nil {
			t.Errorf("%q: accepted", in)
		}
	}
	badBodies := []string{
		`{"id":1,"result":null}`,                 // no jsonrpc
		`{"jsonrpc":"1.0","id":1,"result":null}`, // wrong version
		`{"jsonrpc":"2.0","id":1}`,               // neither result nor error
		`{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}`,
		`{"jsonrpc":"2.0"}`,                 // nothing
		`{"jsonrpc":"2.0","method":"m"} {}`, // two values
		`[1]`,
	}
	for _, b := range badBodies {
		if _, err := parseMessage([]byte(b)); err == nil {
			t.Errorf("%s: accepted", b)
		}
	}
}

func TestOffsetCountsUTF16(t *testing.T) {
	text := "a😀b\r\n发e\u0301x\rlast"
	for _, c := range []struct {
		p    Position
		want int
		ok   bool
	}{
		{Position{0, 0}, 0, true},
		{Position{0, 1}, 1, true},
		{Position{0, 2}, 0, false}, // inside the surrogate pair
		{Position{0, 3}, 5, true},
		{Position{0, 4}, 6, true},
		{Position{0, 5}, 0, false}, // past the end of the line
		{Position{1, 1}, 11, true}, // after 发 (3 bytes), line starts at 8
		{Position{1, 3}, 14, true}, // after e + U+0301
		{Position{2, 4}, 20, true}, // a lone CR ends a line too
		{Position{3, 0}, 0, false},
	} {
		got, err := Offset(text, c.p)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("Offset(%v) = %d, %v; want %d ok=%v", c.p, got, err, c.want, c.ok)
		}
		if c.ok && PositionAt(text, got) != c.p {
			t.Errorf("PositionAt(%d) = %v, want %v", got, PositionAt(text, got), c.p)
		}
	}
	out, err := Apply("one\ntwo\n", []TextEdit{{R(1, 0, 1, 3), "2"}, {R(0, 0, 0, 0), ">"}, {R(0, 0, 0, 0), ">"}})
	if err != nil || out != ">>one\n2\n" {
		t.Errorf("Apply = %q, %v", out, err)
	}
	if _, err := Apply("abc", []TextEdit{{R(0, 0, 0, 2), ""}, {R(0, 1, 0, 3), ""}}); err == nil {
		t.Error("overlapping edits accepted")
	}
}
