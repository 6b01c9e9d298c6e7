package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tliron/commonlog"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// FuzzIncrementalSync decodes its input into a document and a script of
// didChange notifications (ranges in LSP line/UTF-16 positions, some valid,
// some inside a surrogate pair, past a line end, past the last line, or
// ending before they start; replacement texts with CRLF, lone CR, emoji,
// CJK, halves of characters and invalid UTF-8) and plays the script twice:
//
//   - on a document directly (document.apply), with the raw bytes, and a
//     rules.Checker fed after every accepted change;
//   - on a Server through its Notification entry point, as JSON a hostile
//     client could send, with the server's own per-folder Checker running
//     and publishing after every change.
//
// An independent reference keeps the same document as a plain string: it
// maps every position that exists to its byte offset by walking the text
// once, and rejects anything not in that map. After every notification the
// server's text must equal the reference, a notification must be rejected
// (whole, text and version kept) exactly when the reference rejects one of
// its changes, and the diagnostics of the incremental checker must equal a
// fresh rules.Check of the reference text.
func FuzzIncrementalSync(f *testing.F) {
	for _, s := range []struct {
		initial string
		script  []byte
	}{
		{"", nil},
		// CRLF file: an entry inserted before the last line break, the CRLF
		// of the heading deleted, then a change with a stale version.
		{"# Decisions\r\n\r\n- [db] Use Postgres.\r\n", seedScript(
			change(2, 20, 2, 20, "\r\n- [db] Use Redis for caching."), flush(0),
			change(0, 11, 1, 0, ""), flush(0),
			change(0, 0, 0, 0, "x"), flush(2))},
		// Emoji: a range ending inside the surrogate pair (refused), then
		// the whole emoji replaced, then a change after it.
		{"- [e] 😀 party\n", seedScript(
			change(0, 6, 0, 7, "x"), flush(0),
			change(0, 6, 0, 8, "用户名"), flush(0),
			change(0, 10, 0, 10, "😀"), flush(3))},
		// Lone CR: a "\n" inserted right after it joins it into a CRLF,
		// so the line count drops and positions after it move.
		{"- a\rb\n", seedScript(
			change(1, 0, 1, 0, "\n"), flush(0),
			change(1, 0, 1, 1, "- [s]text\n"), flush(0))},
		// Past the line end, past the last line, end before start: refused.
		{"- one\n- two\n", seedScript(
			change(0, 6, 0, 6, "x"), flush(0),
			change(3, 0, 3, 0, "x"), flush(0),
			change(1, 4, 1, 2, ""), flush(0),
			change(2, 0, 2, 0, "- [ ] box\n"), flush(0))},
		// One bad change refuses the whole batch; the good one alone applies.
		{"# Decisions\n\n", seedScript(
			change(2, 0, 2, 0, "- [db] Use Postgres.\n"), change(9, 0, 9, 0, "x"), flush(0),
			change(2, 0, 2, 0, "- [db] Use Postgres.\n"), flush(0))},
		// Invalid UTF-8 in the document and the replacements: each invalid
		// byte is one column.
		{"- [x] \xff\xfe ok\n", seedScript(
			change(0, 7, 0, 8, "\xed\xa0\x80"), flush(0),
			change(0, 6, 0, 6, "\xf0\x9f"), change(0, 7, 0, 7, "\x98\x80"), flush(0))},
		// A whole-document replacement inside a batch, then a conflict and
		// a duplicate made and unmade by single edits.
		{"- [db] Use Postgres.\n", seedScript(
			change(0, 0, 0, 0, "x"), whole("- Always deploy on Fridays.\n- Never deploy on Fridays.\n"), change(2, 0, 2, 0, "- [db] Use Postgres.\n"), flush(0),
			change(3, 0, 3, 0, "- [db] Use Postgres.\n"), flush(0),
			change(1, 2, 1, 7, ""), flush(0))},
	} {
		f.Add(s.initial, s.script)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, initial string, script []byte) {
		if len(initial) > maxFuzzText || len(script) > maxFuzzScript {
			// Refused rather than cut: a long input that behaved like its
			// prefix would still cost the minimizer a run per byte.
			return
		}
		playScript(t, initial, script, newDirectTarget(t, root))
		playScript(t, initial, script, newServerTarget(t, root))
	})
}

// Small documents and scripts keep the fuzzer at many executions a second;
// what can go wrong with positions shows in a few lines.
const (
	maxFuzzText   = 1024
	maxFuzzScript = 256
	maxFuzzOps    = 48
)

// fuzzTexts are replacement texts a script names by number: line breaks of
// every kind, characters of one to four bytes, halves of them, invalid
// bytes, and entries that make rules fire. The committed seeds and corpus
// name them by index: append, never reorder or remove.
var fuzzTexts = []string{
	"", "x", "\n", "\r\n", "\r", "😀", "\xf0\x9f", "\x98\x80", "用户名", "e\u0301",
	"- [db] Use Postgres.\n", "- [db] Use Redis for caching.\r\n", "\xff", "\xed\xa0\x80", "\ufeff",
	"- Always deploy on Fridays.\n- Never deploy on Fridays.\n", "* star\n", "  - indented\n",
	"- [My Slug] x", "\u2028", "- [s]text\n", "- [ ] box\n", "\r\n\r\n", "- \n", "\n- ",
	"\r\n- [db] Use Redis for caching.",
}

// syncChange is one content change of a script, before sanitising.
type syncChange struct {
	whole      bool
	start, end text.Position
	text       string
}

// syncTarget is an implementation under test: it opens a document and
// takes didChange notifications, reporting whether one was applied.
type syncTarget interface {
	// sanitize is what the target receives for a string the client sends.
	sanitize(s string) string
	open(text string)
	change(version int32, changes []syncChange) bool
	// check compares the target's state with the reference after a
	// notification; applied says whether the reference applied it.
	check(ref string, version int32, applied bool)
}

// playScript decodes script into notifications and plays them on target and
// on the reference. Positions are picked among those that exist in the
// reference's current text, then sometimes pushed off them, so that most
// changes apply and the rest probe each way a position can be wrong.
func playScript(t *testing.T, initial string, script []byte, target syncTarget) {
	t.Helper()
	sc := &scriptReader{b: script}
	ref := target.sanitize(initial)
	version := int32(1)
	target.open(initial)
	target.check(ref, version, true)

	var batch []syncChange
	cur, ok := ref, true // the batch's intermediate text; ok until a change fails
	flush := func(next int32) {
		applied := ok // a version that does not increase is applied all the same
		if got := target.change(next, batch); got != applied {
			t.Fatalf("version %d after %d, %d changes %+v: applied=%v, the reference applied=%v (text %q)", next, version, len(batch), batch, got, applied, ref)
		}
		if applied {
			ref, version = cur, next
		}
		target.check(ref, version, applied)
		batch, cur, ok = nil, ref, true
	}
	for ops := 0; ops < maxFuzzOps && !sc.done(); ops++ {
		switch op := sc.next() % 8; op {
		case 0, 1, 2, 3, 7:
			table := refPositions(cur)
			start := pickPosition(sc, table, op == 7)
			end := pickPosition(sc, table, op == 7)
			ch := syncChange{start: start, end: end, text: pickText(sc)}
			batch = append(batch, ch)
			if ok {
				cur, ok = refApply(cur, table, ch.start, ch.end, target.sanitize(ch.text))
			}
		case 4:
			ch := syncChange{whole: true, text: pickText(sc)}
			batch = append(batch, ch)
			if ok {
				cur = target.sanitize(ch.text)
			}
		case 5, 6:
			switch sc.next() % 4 {
			case 2:
				flush(version) // not newer: applied all the same (the client's text is the truth)
			case 3:
				flush(version + 3)
			default:
				flush(version + 1)
			}
		}
	}
	if len(batch) > 0 {
		flush(version + 1)
	}
}

// Seed scripts are written with these: a change between two positions
// given as raw line and column (each below 256) with a dictionary text, a
// whole-document replacement, and the end of a notification whose version
// is the next (0), the current one (2: refused) or three ahead (3).
func seedScript(ops ...[]byte) []byte { return slices.Concat(ops...) }

func change(l1, c1, l2, c2 int, s string) []byte {
	return []byte{7, byte(l1), byte(c1), byte(l2), byte(c2), dictionary(s)}
}

func whole(s string) []byte { return []byte{4, dictionary(s)} }

func flush(mode byte) []byte { return []byte{5, mode} }

func dictionary(s string) byte {
	i := slices.Index(fuzzTexts, s)
	if i < 0 {
		panic(fmt.Sprintf("%q is not in fuzzTexts", s))
	}
	return byte(i)
}

type scriptReader struct {
	b []byte
	i int
}

func (s *scriptReader) done() bool { return s.i >= len(s.b) }

// next is the next byte, or 0 past the end.
func (s *scriptReader) next() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

// pickText is a dictionary text or up to 31 raw bytes of the script.
func pickText(sc *scriptReader) string {
	n := sc.next()
	if n < 0x80 {
		return fuzzTexts[int(n)%len(fuzzTexts)]
	}
	n &= 0x1f
	end := min(sc.i+int(n), len(sc.b))
	s := string(sc.b[sc.i:end])
	sc.i = end
	return s
}

// pickPosition chooses a position of the table's text: an existing one, or
// one pushed a column or a line off it, or (raw) any line and column below 256.
func pickPosition(sc *scriptReader, table posTable, raw bool) text.Position {
	mode, k := sc.next(), int(sc.next())
	if raw {
		return text.Position{Line: int(mode), Col: k}
	}
	p := table.list[k%len(table.list)]
	switch mode % 8 {
	case 3:
		p.Col++ // maybe inside a surrogate pair, or past the line end
	case 4:
		p.Col = max(p.Col-1, 0)
	case 5:
		p.Line++
	case 6:
		p = text.Position{Line: table.lines} // one line past the last
	case 7:
		p.Col += 1 + int(mode>>3) // well past the end of short lines
	}
	return p
}

// posTable is every position of a text with its byte offset, in order.
type posTable struct {
	at    map[text.Position]int
	list  []text.Position
	lines int
}

// refPositions walks src once: a line ends at "\r\n", "\r" or "\n"; a
// column counts UTF-16 code units, an invalid byte as one (the U+FFFD a
// decoder puts there); the end of a line is a position, the inside of a
// line break or of a character is none.
func refPositions(src string) posTable {
	t := posTable{at: map[text.Position]int{}}
	line, col := 0, 0
	for i := 0; ; {
		p := text.Position{Line: line, Col: col}
		t.at[p] = i
		t.list = append(t.list, p)
		switch {
		case i == len(src):
			t.lines = line + 1
			return t
		case strings.HasPrefix(src[i:], "\r\n"):
			line, col, i = line+1, 0, i+2
		case src[i] == '\r' || src[i] == '\n':
			line, col, i = line+1, 0, i+1
		default:
			r, size := utf8.DecodeRuneInString(src[i:])
			col += len(utf16.Encode([]rune{r}))
			i += size
		}
	}
}

// refApply replaces the text between two positions, or reports that the
// range does not exist.
func refApply(src string, table posTable, start, end text.Position, repl string) (string, bool) {
	s, ok1 := table.at[start]
	e, ok2 := table.at[end]
	if !ok1 || !ok2 || e < s {
		return src, false
	}
	return src[:s] + repl + src[e:], true
}

// --- direct: document.apply and a rules.Checker --------------------------

type directTarget struct {
	t       *testing.T
	path    string
	doc     *document
	checker *rules.Checker
}

func newDirectTarget(t *testing.T, root string) *directTarget {
	return &directTarget{t: t, path: filepath.Join(root, ".memory", "decisions.md"), checker: new(rules.Checker)}
}

func (d *directTarget) sanitize(s string) string { return s }

func (d *directTarget) open(src string) {
	d.doc = newDocument(uriOf(d.path), d.path, 1, src)
}

func (d *directTarget) change(version int32, changes []syncChange) bool {
	anys := make([]any, len(changes))
	for i, c := range changes {
		if c.whole {
			anys[i] = protocol.TextDocumentContentChangeEventWhole{Text: c.text}
			continue
		}
		r := protocol.Range{Start: protocol.Position{Line: protocol.UInteger(c.start.Line), Character: protocol.UInteger(c.start.Col)},
			End: protocol.Position{Line: protocol.UInteger(c.end.Line), Character: protocol.UInteger(c.end.Col)}}
		anys[i] = protocol.TextDocumentContentChangeEvent{Range: &r, Text: c.text}
	}
	next, err := d.doc.apply(version, anys)
	if err != nil {
		return false
	}
	d.doc = next
	return true
}

func (d *directTarget) check(ref string, version int32, applied bool) {
	t := d.t
	t.Helper()
	if string(d.doc.text) != ref || d.doc.version != version {
		t.Fatalf("document v%d %q, reference v%d %q", d.doc.version, d.doc.text, version, ref)
	}
	if !reflect.DeepEqual(d.doc.ix, text.NewIndex(d.doc.text)) {
		t.Fatalf("the document's line index does not match its text %q", d.doc.text)
	}
	if !applied {
		return
	}
	parsed := d.doc.file()
	cfg := config.Default() // what a server checks with when the client sets nothing
	got := d.checker.Check([]rules.File{parsed}, cfg)
	want := rules.Check([]rules.File{rules.NewFile(d.path, []byte(ref))}, cfg)
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Fatalf("incremental check of %q:\n%+v\nfresh check:\n%+v", ref, got, want)
	}
}

// --- server: notifications in, publishDiagnostics out ---------------------

type serverTarget struct {
	t    *testing.T
	s    *Server
	out  *bytes.Buffer
	root string
	path string
	uri  protocol.DocumentUri
}

func newServerTarget(t *testing.T, root string) *serverTarget {
	// No debounce: every accepted change is checked and published before
	// Notification returns, so the test reads the result synchronously.
	log := commonlog.GetLogger("test")
	s := NewServer(Options{Debounce: -1}, log)
	out := new(bytes.Buffer)
	s.conn = NewConn(strings.NewReader(""), out, s, log)
	path := filepath.Join(root, ".memory", "decisions.md")
	st := &serverTarget{t: t, s: s, out: out, root: root, path: path, uri: uriOf(path)}
	if _, err := s.Request(context.Background(), "initialize", json.RawMessage(`{"rootUri":`+strconv.Quote(string(uriOf(root)))+`,"capabilities":{}}`)); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	// The folder publishes at once only after its repository's first build
	// (repo.go): build it now.
	s.repoOf(s.folderFor(memory.Dir(root)), s.config())
	t.Cleanup(s.stop)
	return st
}

// sanitize is what a JSON decoder makes of a string sent with its invalid
// bytes raw: the server only ever sees that.
func (st *serverTarget) sanitize(s string) string {
	var out string
	if err := json.Unmarshal(rawJSONString(s), &out); err != nil {
		st.t.Fatalf("decoding %q: %v", rawJSONString(s), err)
	}
	return out
}

// rawJSONString quotes s as a careless or hostile client might: it escapes
// only what JSON requires and leaves invalid UTF-8 as raw bytes.
func rawJSONString(s string) []byte {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = fmt.Appendf(b, `\u%04x`, c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

func (st *serverTarget) open(src string) {
	params := `{"textDocument":{"uri":` + strconv.Quote(string(st.uri)) + `,"languageId":"markdown","version":1,"text":` + string(rawJSONString(src)) + `}}`
	if err := st.s.Notification(context.Background(), "textDocument/didOpen", json.RawMessage(params)); err != nil {
		st.t.Fatalf("didOpen: %v", err)
	}
}

func (st *serverTarget) change(version int32, changes []syncChange) bool {
	var b strings.Builder
	fmt.Fprintf(&b, `{"textDocument":{"uri":%s,"version":%d},"contentChanges":[`, strconv.Quote(string(st.uri)), version)
	for i, c := range changes {
		if i > 0 {
			b.WriteByte(',')
		}
		if c.whole {
			fmt.Fprintf(&b, `{"text":%s}`, rawJSONString(c.text))
			continue
		}
		fmt.Fprintf(&b, `{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":%s}`,
			c.start.Line, c.start.Col, c.end.Line, c.end.Col, rawJSONString(c.text))
	}
	b.WriteString("]}")
	before := st.s.docAt(st.path)
	if err := st.s.Notification(context.Background(), "textDocument/didChange", json.RawMessage(b.String())); err != nil {
		st.t.Fatalf("didChange: %v", err)
	}
	return st.s.docAt(st.path) != before
}

func (st *serverTarget) check(ref string, version int32, applied bool) {
	t := st.t
	t.Helper()
	d := st.s.docAt(st.path)
	if d == nil || string(d.text) != ref || d.version != version {
		t.Fatalf("server document %+v, reference v%d %q", d, version, ref)
	}
	pubs := st.publishes()
	if !applied {
		if len(pubs) != 0 {
			t.Fatalf("a rejected change published %d times", len(pubs))
		}
		return
	}
	if len(pubs) != 1 {
		t.Fatalf("an applied change published %d times, want once", len(pubs))
	}
	got := pubs[0]
	if got.Version == nil || *got.Version != protocol.UInteger(version) {
		t.Fatalf("published for version %v, want %d", got.Version, version)
	}
	// The fresh check: the reference text alone (the folder holds nothing
	// on disk), checked from scratch, converted as the server converts.
	files := memory.Overlay(nil, map[string][]byte{st.path: []byte(ref)})
	v := &view{dir: filepath.Dir(st.path), files: files, versions: []int32{version}, docs: make([]*document, len(files)),
		index: make([]*text.Index, len(files)), uris: make([]protocol.DocumentUri, len(files))}
	want := []protocol.Diagnostic{}
	for _, f := range rules.Check(files, st.s.config()) {
		diag, err := st.s.diagnostic(v, f)
		if err != nil {
			t.Fatalf("finding %s at %v of %q has no LSP range: %v", f.Code, f.Span, ref, err)
		}
		want = append(want, diag)
	}
	displayOrder(want)
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Diagnostics, wantJSON) {
		t.Fatalf("published for %q:\n%s\nfresh check:\n%s", ref, got.Diagnostics, wantJSON)
	}
}

// rawPublish is a publishDiagnostics with its diagnostics kept as JSON.
type rawPublish struct {
	URI         protocol.DocumentUri `json:"uri"`
	Version     *protocol.UInteger   `json:"version"`
	Diagnostics json.RawMessage      `json:"diagnostics"`
}

// publishes reads what the server wrote since the last call and returns
// its publishDiagnostics for the document.
func (st *serverTarget) publishes() []rawPublish {
	t := st.t
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(st.out.Bytes()))
	st.out.Reset()
	var out []rawPublish
	for {
		body, err := readFrame(r)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("server output: %v", err)
		}
		var m struct {
			Method string     `json:"method"`
			Params rawPublish `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("server output %s: %v", body, err)
		}
		if m.Method == "textDocument/publishDiagnostics" && m.Params.URI == st.uri {
			out = append(out, m.Params)
		}
	}
}
