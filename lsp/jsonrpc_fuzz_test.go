package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/tliron/commonlog"
)

// FuzzReadFrame feeds arbitrary bytes to the frame reader, as a broken or
// hostile client could: it must never panic, never return a body longer
// than its Content-Length or than the size limit, and report every problem
// as an error (io.EOF only for a clean end between frames).
func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 2\r\n\r\n{}Content-Length: 4\r\n\r\nnull",
		"content-length:  7 \r\nContent-Type: x\r\n\r\n{\"a\":1}",
		"Content-Length: 10\r\n\r\n{}",
		"Content-Length: -1\r\n\r\n",
		"Content-Length: 99999999999999999999\r\n\r\n",
		"Content-Length: 1000000000\r\n\r\n",
		"no colon here\r\n\r\n",
		"\r\n\r\nContent-Length: 2\r\n\r\n{}",
		"Content-Length: 3\n\n\xff\xfe\xfd",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for i := 0; i < 64; i++ {
			body, err := readFrame(r)
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, errFrame) {
					t.Fatalf("error %v is neither EOF nor a framing error", err)
				}
				return
			}
			if len(body) > maxMessageBytes || len(body) > len(data) {
				t.Fatalf("body of %d bytes from %d bytes of input", len(body), len(data))
			}
		}
	})
}

// TestConnSurvivesGarbage: malformed JSON gets a parse error, a request
// with a boolean id InvalidRequest, and the connection goes on; a frame
// with a bad header ends it with a framing error rather than a hang or a
// crash.
func TestConnSurvivesGarbage(t *testing.T) {
	var out bytes.Buffer
	req := `{"jsonrpc":"2.0","id":1,"method":"no/such"}`
	badID := `{"jsonrpc":"2.0","id":true,"method":"shutdown"}`
	in := "Content-Length: 5\r\n\r\n{bad}" +
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(badID), badID) +
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(req), req) +
		"Content-Length: nope\r\n\r\n"
	log := commonlog.GetLogger("test")
	s := NewServer(Options{}, log)
	_, err := s.Serve(t.Context(), NewConn(bytes.NewBufferString(in), &out, s, log))
	if !errors.Is(err, errFrame) {
		t.Fatalf("Serve ended with %v, want a framing error", err)
	}
	got := out.String()
	for _, want := range []string{`"code":-32700`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the id is a boolean; it must be a string or a number"}}`, `"id":1`, `"code":-32002`} {
		if !bytes.Contains([]byte(got), []byte(want)) {
			t.Errorf("output lacks %s:\n%s", want, got)
		}
	}
}
