package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func testGate() *gate {
	g := &gate{max: 1 << 10, log: slog.New(slog.DiscardHandler), pending: map[string]bool{}}
	g.out = &stdout{w: io.Discard, g: g}
	return g
}

const initLegacy = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestGateCheck: what each line passes on to the SDK, and the error it is
// answered with (code and id), under a legacy protocol version that has
// batches.
func TestGateCheck(t *testing.T) {
	for _, tc := range []struct {
		line string
		pass []string
		// answer is the refusals, "code id" each.
		answer []string
	}{
		{line: ``},
		{line: " \t\r"},
		{line: `{"jsonrpc":"2.0","id":2,"method":"ping"}`, pass: []string{`{"jsonrpc":"2.0","id":2,"method":"ping"}`}},
		{line: ` {"jsonrpc":"2.0","method":"notifications/x","params":null} `, pass: []string{`{"jsonrpc":"2.0","method":"notifications/x","params":null}`}},
		{line: `{"jsonrpc":"2.0","id":"r1","result":{}}`, pass: []string{`{"jsonrpc":"2.0","id":"r1","result":{}}`}},
		{line: `{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`, pass: []string{`{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`}},
		{line: `{not json`, answer: []string{"-32700 null"}},
		{line: strings.Repeat("[", 100000), answer: []string{"-32700 null"}},
		{line: `{"jsonrpc":"2.0","id":2,"method":"ping"} {}`, answer: []string{"-32700 null"}},
		{line: `{"jsonrpc":"2.0","id":{},"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":[2],"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":false,"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"1.0","id":"a","method":"ping"}`, answer: []string{`-32600 "a"`}},
		{line: `{"jsonrpc":2,"id":3,"method":"ping"}`, answer: []string{`-32600 3`}},
		{line: `{"id":3,"method":"ping"}`, answer: []string{`-32600 3`}},
		{line: `{"JSONRPC":"2.0","id":3,"method":"ping"}`, answer: []string{`-32600 3`}},
		{line: `{"jsonrpc":"1.0","method":"notifications/initialized"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3,"method":7}`, answer: []string{"-32600 3"}},
		{line: `{"jsonrpc":"2.0","method":null}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}`, answer: []string{"-32600 3"}},
		{line: `{"jsonrpc":"2.0","id":3,"method":"ping","params":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0"}`, answer: []string{"-32600 null"}},
		{line: `{}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3,"result":1,"error":{"code":1,"message":"x"}}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3,"error":"bad"}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"x"}}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":3,"error":{"code":1}}`, answer: []string{"-32600 null"}},
		{line: `{"jsonrpc":"2.0","id":null,"result":{}}`, answer: []string{"-32600 null"}},
		{line: `42`, answer: []string{"-32600 null"}},
		{line: `"ping"`, answer: []string{"-32600 null"}},
		{line: `null`, answer: []string{"-32600 null"}},
		{line: `[]`, answer: []string{"-32600 null"}},
		// A batch under 2025-03-26: the refused members answered at once,
		// requests passed on as batches, notifications and responses
		// alone and in their place.
		{line: `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"n"},1,{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":"5","method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"1.0","id":7,"method":"ping"}]`,
			pass:   []string{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, `{"jsonrpc":"2.0","method":"n"}`, `[{"jsonrpc":"2.0","id":"5","method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}]`},
			answer: []string{"-32600 null", "-32600 null", "-32600 7"}},
		// 5 is still waiting for its answer.
		{line: `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`,
			pass: []string{`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`}, answer: []string{"-32600 null"}},
	} {
		g := testGate()
		if pass, answer := g.check([]byte(initLegacy)); len(pass) != 1 || answer != nil {
			t.Fatalf("initialize: passed %q, answered %s", pass, answer)
		}
		if tc.line == `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]` {
			g.pending["n5"] = true
		}
		pass, answer := g.check([]byte(tc.line))
		var got []string
		for _, p := range pass {
			if !bytes.HasSuffix(p, []byte("\n")) || bytes.Count(p, []byte("\n")) != 1 {
				t.Errorf("%.80s: passed %q, not one line", tc.line, p)
			}
			got = append(got, strings.TrimSuffix(string(p), "\n"))
		}
		if strings.Join(got, "\n") != strings.Join(tc.pass, "\n") {
			t.Errorf("%.80s: passed\n%s\nwant\n%s", tc.line, strings.Join(got, "\n"), strings.Join(tc.pass, "\n"))
		}
		if a := refusals(t, answer); strings.Join(a, ", ") != strings.Join(tc.answer, ", ") {
			t.Errorf("%.80s: answered %s, want %v", tc.line, answer, tc.answer)
		}
	}
}

// refusals reads an answer of the gate: "code id" for each error in it.
func refusals(t *testing.T, answer []byte) []string {
	t.Helper()
	if answer == nil {
		return nil
	}
	if !bytes.HasSuffix(answer, []byte("\n")) || bytes.Count(answer, []byte("\n")) != 1 {
		t.Errorf("answer %q is not one line", answer)
	}
	type reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	var list []reply
	if answer[0] != '[' {
		answer = append(append([]byte("["), bytes.TrimSuffix(answer, []byte("\n"))...), ']')
	}
	if err := json.Unmarshal(answer, &list); err != nil {
		t.Fatalf("answer %s: %v", answer, err)
	}
	var out []string
	for _, r := range list {
		if r.JSONRPC != "2.0" || r.Error == nil || r.Error.Message == "" || r.Result != nil {
			t.Errorf("answer %s is not a JSON-RPC error", answer)
			continue
		}
		id := string(r.ID)
		if id == "" {
			id = "null"
		}
		out = append(out, strconv.Itoa(r.Error.Code)+" "+id)
	}
	return out
}

// TestGateRefusesBatchesFrom20250618: once an initialize asks for a version
// without batches (or one the SDK does not know, which it answers with its
// own), a batch is answered -32600, and stays so after an initialize that
// asks for an older one, which the SDK refuses as a second initialize.
func TestGateRefusesBatchesFrom20250618(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":9,"method":"ping"}]`
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01", ""} {
		g := testGate()
		g.check([]byte(strings.Replace(initLegacy, "2025-03-26", version, 1)))
		g.check([]byte(initLegacy))
		pass, answer := g.check([]byte(batch))
		if a := refusals(t, answer); len(pass) != 0 || strings.Join(a, ",") != "-32600 null" {
			t.Errorf("%q: a batch passed %q, answered %s", version, pass, answer)
		}
	}
	g := testGate()
	if pass, _ := g.check([]byte(batch)); len(pass) != 1 {
		t.Errorf("before initialize, a batch passed %q; the SDK takes it", pass)
	}
}

// TestGateForgetsAnsweredBatches: an id of a batch may come again once the
// SDK has written the batch's answers.
func TestGateForgetsAnsweredBatches(t *testing.T) {
	g := testGate()
	batch := []byte(`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	if pass, answer := g.check(batch); len(pass) != 1 || answer != nil {
		t.Fatalf("passed %q, answered %s", pass, answer)
	}
	if pass, answer := g.check(batch); len(pass) != 0 || len(refusals(t, answer)) != 2 {
		t.Fatalf("again before the answer: passed %q, answered %s", pass, answer)
	}
	if _, err := g.out.Write([]byte(`[{"jsonrpc":"2.0","id":"a","result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]` + "\n")); err != nil {
		t.Fatal(err)
	}
	if pass, answer := g.check(batch); len(pass) != 1 || answer != nil {
		t.Fatalf("after the answer: passed %q, answered %s", pass, answer)
	}
}

// TestReadLine: lines up to the bound are read whole, CRLF or LF; a longer
// one is reported and skipped to its end, and the next line is read whole.
func TestReadLine(t *testing.T) {
	const max = 8
	in := "12345678\r\n123456789\n" + strings.Repeat("x", 100000) + "\nok\nlast"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	type line struct {
		text string
		long bool
	}
	var got []line
	for {
		l, long, err := readLine(r, max, nil)
		if long {
			l = nil
		}
		got = append(got, line{string(l), long})
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
	}
	want := []line{{"12345678", false}, {"", true}, {"", true}, {"ok", false}, {"last", false}}
	if len(got) != len(want) {
		t.Fatalf("lines %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// FuzzGate feeds arbitrary lines to the gate, after a legacy initialize
// (batches allowed): it must never panic, what it passes on must be lines
// the SDK reads without error (so the session goes on), and what it
// answers must be JSON-RPC errors.
func FuzzGate(f *testing.F) {
	for _, s := range []string{
		`{not json`, strings.Repeat("[", 1000), `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]`, `[]`, `[1,{}]`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`, "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[[[[]]]]}`, `{"jsonrpc":"2.0","id":-0,"method":"p"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		g := testGate()
		g.check([]byte(initLegacy))
		pass, answer := g.check(line)
		for _, p := range pass {
			if !bytes.HasSuffix(p, []byte("\n")) || bytes.Count(p, []byte("\n")) != 1 {
				t.Fatalf("passed %q, not one line", p)
			}
			p = bytes.TrimSuffix(p, []byte("\n"))
			msgs := []json.RawMessage{p}
			if p[0] == '[' {
				if err := json.Unmarshal(p, &msgs); err != nil || len(msgs) == 0 {
					t.Fatalf("passed the batch %q: %v", p, err)
				}
			}
			for _, m := range msgs {
				if _, err := jsonrpc.DecodeMessage(m); err != nil {
					t.Fatalf("passed %q, which the SDK cannot read: %v", m, err)
				}
			}
		}
		if answer != nil {
			refusals(t, answer)
		}
	})
}
