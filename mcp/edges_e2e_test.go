package mcp

// Issue 26, nothing lost at the edges: `memory-lsp mcp` through the binary,
// in a git repository, driven line by line as a broken or hostile client
// would. Every malformed line gets the error JSON-RPC 2.0 gives and the
// session goes on; a store of text that is not UTF-8 is refused; and
// .memory/ is byte for byte what it was.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// lineClient drives `memory-lsp mcp` by writing lines to its stdin and
// reading every line of its stdout, each of which must be a JSON-RPC
// message or a batch of them.
type lineClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *syncBuffer
	// held are messages read but not yet awaited.
	held []wireMessage
}

// wireMessage is one message the server wrote.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	JSONRPC string `json:"jsonrpc"`
	// line is the stdout line it came in, alone or in a batch.
	line string
}

// edgeRepo is a git repository holding poison.Seed in .memory/, committed.
func edgeRepo(t *testing.T) string {
	t.Helper()
	g := gittest.New(t)
	files := map[string]string{}
	for name, text := range poison.Seed {
		files[filepath.Join(".memory", name)] = text
	}
	g.Write(files)
	g.Commit("2025-01-02", "memory")
	return g.Dir
}

// startLines runs `memory-lsp mcp` in dir, its workspace the folder it
// starts in, and initializes a session asking for version.
func startLines(t *testing.T, dir, version string) *lineClient {
	t.Helper()
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = dir
	c := &lineClient{t: t, cmd: cmd, lines: make(chan string, 64), stderr: &syncBuffer{}}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		if c.stdin != nil {
			c.stdin.Close()
			c.cmd.Wait()
		}
	})
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"edges","version":"1"}}}`)
	if m := c.await("the answer to initialize", byID(`"init"`)); m.Result == nil {
		t.Fatalf("initialize: %s", m.line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *lineClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("writing to the server: %v\nstderr:\n%s", err, c.stderr)
	}
}

func byID(id string) func(wireMessage) bool {
	return func(m wireMessage) bool { return string(m.ID) == id }
}

// await returns the first message, held or yet to come, that match
// accepts. The bound only ends a run that would wait forever.
func (c *lineClient) await(what string, match func(wireMessage) bool) wireMessage {
	c.t.Helper()
	deadline := time.After(testTimeout)
	for {
		for i, m := range c.held {
			if match(m) {
				c.held = append(c.held[:i], c.held[i+1:]...)
				return m
			}
		}
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("stdout closed while waiting for %s; stderr:\n%s", what, c.stderr)
			}
			c.held = append(c.held, c.parse(line)...)
		case <-deadline:
			c.t.Fatalf("no %s; read but not awaited: %v\nstderr:\n%s", what, c.held, c.stderr)
		}
	}
}

// parse checks one stdout line: a JSON-RPC 2.0 message, or a non-empty
// array of them, on one line.
func (c *lineClient) parse(line string) []wireMessage {
	c.t.Helper()
	body, ok := strings.CutSuffix(line, "\n")
	if !ok || strings.Contains(body, "\n") {
		c.t.Errorf("stdout line %q is not one line", line)
	}
	var msgs []wireMessage
	var err error
	if strings.HasPrefix(body, "[") {
		err = json.Unmarshal([]byte(body), &msgs)
	} else {
		msgs = make([]wireMessage, 1)
		err = json.Unmarshal([]byte(body), &msgs[0])
	}
	if err != nil || len(msgs) == 0 {
		c.t.Errorf("stdout line is not JSON-RPC: %q (%v)", body, err)
		return nil
	}
	for i := range msgs {
		msgs[i].line = body
		if msgs[i].JSONRPC != "2.0" {
			c.t.Errorf("stdout line is not JSON-RPC 2.0: %q", body)
		}
	}
	return msgs
}

// close ends the session by closing stdin: the server must exit with 0,
// having written nothing it was not awaited for but what holds.
func (c *lineClient) close() {
	c.t.Helper()
	c.stdin.Close()
	c.stdin = nil
	for line := range c.lines {
		c.parse(line)
	}
	if err := c.cmd.Wait(); err != nil {
		c.t.Errorf("exit: %v\nstderr:\n%s", err, c.stderr)
	}
}

// queryLine is a valid request the server must answer after each bad line.
func queryLine(id string) string {
	return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"queryMemory","arguments":{"query":"Postgres ledger"}}}`
}

// answered awaits the normal answer to queryLine(id).
func (c *lineClient) answered(id string, after string) {
	c.t.Helper()
	m := c.await("the answer to "+id+" after "+after, byID(`"`+id+`"`))
	if m.Error != nil || !strings.Contains(string(m.Result), "Use Postgres for the ledger.") {
		c.t.Errorf("after %s, the query was answered %s", after, m.line)
	}
}

const storeArgs = `"method":"tools/call","params":{"name":"storeMemory","arguments":{"category":"Decision","content":"Use MySQL for reporting."}}`

// TestBinaryMalformedLinesAreAnswered: each malformed line gets its
// JSON-RPC error (-32700 with id null for what is not JSON, -32600 for
// JSON that is no valid message, with the id of a request whose id could
// be read, else null), the valid request after it its normal answer, a
// store inside a refused line is not run, and the server exits with 0
// when stdin closes. The newest version the SDK speaks, and the last one
// that had batches.
func TestBinaryMalformedLinesAreAnswered(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":"long",` + strings.Replace(storeArgs, "Use MySQL for reporting.", strings.Repeat("x", MaxLine), 1) + `}`
	cases := []struct {
		name, line string
		code       int
		id         string
		// legacy: the answer under 2025-03-26, when it differs.
		legacy string
	}{
		{"not JSON", `{not json`, -32700, "null", ""},
		{"100,000 [", strings.Repeat("[", 100000), -32700, "null", ""},
		{"two values on a line", `{"jsonrpc":"2.0","id":"two","method":"ping"} {"jsonrpc":"2.0","id":"three","method":"ping"}`, -32700, "null", ""},
		{"a message cut short", `{"jsonrpc":"2.0","id":"cut",` + storeArgs[:40], -32700, "null", ""},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},` + storeArgs + `}`, -32600, "null", ""},
		{"an array id", `{"jsonrpc":"2.0","id":[1],` + storeArgs + `}`, -32600, "null", ""},
		{"a boolean id", `{"jsonrpc":"2.0","id":true,` + storeArgs + `}`, -32600, "null", ""},
		{"a null id", `{"jsonrpc":"2.0","id":null,` + storeArgs + `}`, -32600, "null", ""},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,` + storeArgs + `}`, -32600, "null", ""},
		{"an id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,` + storeArgs + `}`, -32600, "null", ""},
		{`"jsonrpc":"1.0"`, `{"jsonrpc":"1.0","id":"v1",` + storeArgs + `}`, -32600, `"v1"`, ""},
		{`no "jsonrpc"`, `{"id":"v2",` + storeArgs + `}`, -32600, `"v2"`, ""},
		{"a number as method", `{"jsonrpc":"2.0","id":"m1","method":7}`, -32600, `"m1"`, ""},
		{"no method and no id", `{"jsonrpc":"2.0","params":{}}`, -32600, "null", ""},
		{"params a string", `{"jsonrpc":"2.0","id":"p1","method":"tools/list","params":"all"}`, -32600, `"p1"`, ""},
		{"nested 300 deep", `{"jsonrpc":"2.0","id":"d1","method":"ping","params":{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}`, -32600, "null", ""},
		{"a malformed notification", `{"jsonrpc":"1.0","method":"notifications/initialized"}`, -32600, "null", ""},
		{"a response without result", `{"jsonrpc":"2.0","id":"r1"}`, -32600, "null", ""},
		{"a response with a string error", `{"jsonrpc":"2.0","id":"r2","error":"no"}`, -32600, "null", ""},
		{"a number", `42`, -32600, "null", ""},
		{"a string", `"tools/list"`, -32600, "null", ""},
		{"null", `null`, -32600, "null", ""},
		{"an empty batch", `[]`, -32600, "null", ""},
		{"a batch", `[{"jsonrpc":"2.0","id":"b1",` + storeArgs + `}]`, -32600, "null", "stored"},
		{"a batch of one bad member", `[{"jsonrpc":"2.0","id":true,` + storeArgs + `}]`, -32600, "null", ""},
		{"a line over the bound", long, -32600, "null", ""},
	}
	for _, version := range []string{"2025-11-25", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			root := edgeRepo(t)
			c := startLines(t, root, version)
			before := poison.Files(t, root)
			for i, tc := range cases {
				c.send(tc.line)
				id := fmt.Sprintf("ok-%d", i)
				c.send(queryLine(id))
				if tc.legacy == "stored" && version == "2025-03-26" {
					m := c.await("the batch's answer", byID(`"b1"`))
					if !strings.HasPrefix(m.line, "[") || !strings.Contains(string(m.Result), "Stored in decisions.md") {
						t.Errorf("%s: answered %s, want a batch holding the store's answer", tc.name, m.line)
					}
					before = poison.Files(t, root)
				} else {
					m := c.await("an error answer to "+tc.name, func(m wireMessage) bool { return m.Error != nil })
					if m.Error.Code != tc.code || string(m.ID) != tc.id {
						t.Errorf("%s: answered %s, want code %d and id %s", tc.name, m.line, tc.code, tc.id)
					}
				}
				c.answered(id, tc.name)
			}
			for _, m := range c.held {
				t.Errorf("an answer no line asked for: %s", m.line)
			}
			poison.Unchanged(t, root, before, "malformed lines")
			c.close()
		})
	}
}

// TestBinaryLegacyBatch: under 2025-03-26, which has batches, a batch's
// invalid members are answered in one array, its requests are run and
// answered in arrays, and its notification is taken.
func TestBinaryLegacyBatch(t *testing.T) {
	root := edgeRepo(t)
	c := startLines(t, root, "2025-03-26")
	c.send(`[{"jsonrpc":"2.0","id":"s1",` + storeArgs + `},` +
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},` +
		`{"jsonrpc":"2.0","id":"s1","method":"ping"},` +
		`7,` +
		`{"jsonrpc":"2.0","id":"q1","method":"tools/call","params":{"name":"queryMemory","arguments":{"query":"Postgres ledger"}}}]`)
	s1 := c.await("the store's answer", func(m wireMessage) bool { return string(m.ID) == `"s1"` && m.Result != nil })
	if !strings.HasPrefix(s1.line, "[") || !strings.Contains(string(s1.Result), "Stored in decisions.md") {
		t.Errorf("the store in a batch: %s", s1.line)
	}
	// The notification between them is passed on in its place, so the
	// query comes in a batch of its own.
	q1 := c.await("the query's answer", byID(`"q1"`))
	if !strings.HasPrefix(q1.line, "[") || !strings.Contains(string(q1.Result), "Use Postgres for the ledger.") {
		t.Errorf("the query in a batch: %s", q1.line)
	}
	e := c.await("the refusals", func(m wireMessage) bool { return m.Error != nil })
	e2 := c.await("the refusals", func(m wireMessage) bool { return m.Error != nil })
	if e.line != e2.line || !strings.HasPrefix(e.line, "[") || e.Error.Code != -32600 || e2.Error.Code != -32600 ||
		!strings.Contains(e.line, "used twice in this batch") || !strings.Contains(e.line, "not a number") {
		t.Errorf("the batch's refused members were answered %s and %s", e.line, e2.line)
	}
	c.send(queryLine("after"))
	c.answered("after", "a batch")
	if got := readMemory(t, root, "decisions.md"); got != poison.Seed["decisions.md"]+"- Use MySQL for reporting.\n" {
		t.Errorf("decisions.md after the batch:\n%s", got)
	}
	c.close()
}

// TestBinaryStoreRefusesInvalidUTF8: storeMemory refuses each content of
// poison.NotUTF8, sent as the bytes of the line (raw bytes, lone surrogate
// escapes), with a tool error naming the problem, and .memory/ is
// byte-identical; a U+FFFD really sent is text and is stored.
func TestBinaryStoreRefusesInvalidUTF8(t *testing.T) {
	root := edgeRepo(t)
	c := startLines(t, root, "2025-11-25")
	n := 0
	store := func(content string) wireMessage {
		n++
		id := fmt.Sprintf("store-%d", n)
		c.send(`{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"storeMemory","arguments":{"category":"Decision","content":"` + content + `"}}}`)
		return c.await("the answer to "+id, byID(`"`+id+`"`))
	}
	poison.RefusedNotUTF8(t, root, func(row poison.NotText) (string, bool, bool) {
		m := store(row.JSON)
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || len(res.Content) == 0 {
			return m.line, false, false
		}
		return res.Content[0].Text, res.IsError && strings.HasPrefix(res.Content[0].Text, "Failed to store memory: "), false
	})
	for _, r := range poison.RealFFFD {
		if m := store(r.JSON); !strings.Contains(string(m.Result), "Stored in decisions.md") {
			t.Errorf("store of a real U+FFFD, %q: %s", r.JSON, m.line)
		}
	}
	got := readMemory(t, root, "decisions.md")
	for _, r := range poison.RealFFFD {
		if !strings.Contains(got, r.Stored) {
			t.Errorf("decisions.md lacks %q after storing a real U+FFFD:\n%s", r.Stored, got)
		}
	}
	c.close()
}
