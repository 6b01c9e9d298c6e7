package lsp_test

// Scripted sessions: each testdata/sessions/*.txtar holds workspace files, a
// "steps" section (one JSON object per line; ${root} is the workspace
// folder) and "want/…" sections the steps compare against. Every session
// runs twice: against a server in this process, and against the binary.
//
// Steps:
//
//	{"open": REL}                          didOpen with the file's contents on disk
//	{"change": REL, "range": "L:C-L:C", "text": T}  incremental didChange
//	{"diagnostics": REL, "codes": [...]}   the codes published for the file, in order
//	{"diagnostics": REL, "want": {CODE: "L:C-L:C" or [...]}}  codes and exact ranges
//	{"request": M, "params": P, "result": R}  R must match the result (objects: the keys given)
//	{"notify": M, "params": P}
//	{"fix": REL, "kind": K}                codeAction over the whole file with only [K];
//	                                       exactly one action, whose edit is applied
//	{"command": ID, "arguments": A, "result": R}  workspace/executeCommand
//	{"buffer": REL, "want": SECTION}       the client's buffer equals a section
//	{"disk": REL, "want": SECTION}         the file on disk equals a section
//	{"write": REL, "from": SECTION}        an external write of a closed file
//
// Diagnostics of an open file are awaited for its current version; those of
// a closed file are awaited until the codes match, from the step before.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tliron/commonlog"

	"github.com/memory-lsp/memory-lsp/core/repo"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/internal/txtar"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// inProcess connects a client to a Server running in this process, with
// diagnostics published for every change (no debounce).
func inProcess(t testing.TB) *lsptest.Client {
	return inProcessWith(t, lsp.Options{Version: "test", Debounce: -1})
}

// inProcessWith is inProcess with other options; the repository is the
// real one, as cmd/memory-lsp wires it, unless opts names another.
func inProcessWith(t testing.TB, opts lsp.Options) *lsptest.Client {
	if opts.OpenRepo == nil {
		opts.OpenRepo = repo.Open
	}
	return lsptest.Pipe(t, func(in io.Reader, out io.Writer) int {
		log := commonlog.GetLogger("lsptest")
		srv := lsp.NewServer(opts, log)
		ok, _ := srv.Serve(context.Background(), lsp.NewConn(in, out, srv, log))
		if !ok {
			return 1
		}
		return 0
	})
}

type step struct {
	Open        string          `json:"open"`
	Change      string          `json:"change"`
	Range       string          `json:"range"`
	Text        string          `json:"text"`
	Diagnostics string          `json:"diagnostics"`
	Codes       []string        `json:"codes"`
	Want        json.RawMessage `json:"want"`
	Request     string          `json:"request"`
	Notify      string          `json:"notify"`
	Params      json.RawMessage `json:"params"`
	Result      json.RawMessage `json:"result"`
	Fix         string          `json:"fix"`
	Kind        string          `json:"kind"`
	Command     string          `json:"command"`
	Arguments   json.RawMessage `json:"arguments"`
	Buffer      string          `json:"buffer"`
	Disk        string          `json:"disk"`
	Write       string          `json:"write"`
	From        string          `json:"from"`
}

func TestSessions(t *testing.T) {
	files, err := filepath.Glob("../testdata/sessions/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sessions: %v", err)
	}
	for _, mode := range []string{"inprocess", "binary"} {
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".txtar")
			t.Run(mode+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				runSession(t, mode, txtar.Parse(data))
			})
		}
	}
}

func runSession(t *testing.T, mode string, a *txtar.Archive) {
	root := t.TempDir()
	sections := map[string]string{}
	var steps string
	for _, f := range a.Files {
		sections[f.Name] = string(f.Data)
		switch {
		case f.Name == "steps":
			steps = string(f.Data)
		case f.Name == "initializationOptions":
		case strings.HasPrefix(f.Name, "want/"), strings.HasPrefix(f.Name, "later/"):
		default:
			writeFile(t, filepath.Join(root, f.Name), string(f.Data))
		}
	}
	var c *lsptest.Client
	if mode == "binary" {
		c = startBinary(t, root)
	} else {
		c = inProcess(t)
	}
	var opts any
	if raw, ok := sections["initializationOptions"]; ok {
		if err := json.Unmarshal([]byte(raw), &opts); err != nil {
			t.Fatalf("initializationOptions: %v", err)
		}
	}
	var caps capabilities
	if err := json.Unmarshal(c.Initialize(lsptest.InitializeParams(root, opts)), &caps); err != nil {
		t.Fatal(err)
	}
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	uri := func(rel string) string { return lsptest.URI(abs(rel)) }
	section := func(name string) string {
		s, ok := sections[name]
		if !ok {
			t.Fatalf("no section %q", name)
		}
		return s
	}
	mark := c.Mark()
	for n, line := range strings.Split(steps, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.ReplaceAll(line, "${root}", filepath.ToSlash(root))
		var s step
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("steps line %d: %v", n+1, err)
		}
		where := fmt.Sprintf("steps line %d", n+1)
		if s.Diagnostics == "" && s.Buffer == "" && s.Disk == "" {
			mark = c.Mark() // expectations look at what follows the last action
		}
		switch {
		case s.Open != "":
			c.OpenFile(abs(s.Open))
		case s.Change != "":
			c.Change(uri(s.Change), lsptest.TextEdit{Range: parseRange(t, s.Range), NewText: s.Text})
		case s.Diagnostics != "":
			u := uri(s.Diagnostics)
			var d *lsptest.Diagnostics
			ok := func(d *lsptest.Diagnostics) bool { return diagnosticsMatch(t, d, s, false) }
			if v := c.Version(u); v > 0 {
				d = c.AwaitDiagnostics(u, v, wait)
			} else {
				d = c.AwaitDiagnosticsWhere(mark, u, wait, func(d *lsptest.Diagnostics) bool { return d.Version == nil && ok(d) })
			}
			if !diagnosticsMatch(t, d, s, true) {
				t.Fatalf("%s: diagnostics for %s do not match", where, s.Diagnostics)
			}
		case s.Request != "":
			res, err := c.Request(s.Request, json.RawMessage(s.Params))
			if err != nil {
				t.Fatalf("%s: %s: %v", where, s.Request, err)
			}
			if err := matchJSON(s.Result, res); err != nil {
				t.Fatalf("%s: %s result %s: %v", where, s.Request, res, err)
			}
		case s.Notify != "":
			c.Notify(s.Notify, json.RawMessage(s.Params))
		case s.Fix != "":
			if !caps.codeActions() {
				t.Skipf("%s: the server does not advertise code actions yet", where)
			}
			u := uri(s.Fix)
			text := c.Text(u)
			var actions []codeAction
			c.RequestInto("textDocument/codeAction", map[string]any{
				"textDocument": map[string]any{"uri": u},
				"range":        lsptest.Range{End: lsptest.PositionAt(text, len(text))},
				"context":      map[string]any{"diagnostics": []any{}, "only": []string{s.Kind}},
			}, &actions)
			if len(actions) != 1 || actions[0].Kind != s.Kind {
				t.Fatalf("%s: code actions of kind %s: %+v, want one", where, s.Kind, actions)
			}
			if err := c.ApplyEdit(actions[0].Edit); err != nil {
				t.Fatalf("%s: applying %q: %v", where, actions[0].Title, err)
			}
		case s.Command != "":
			if !caps.command(s.Command) {
				t.Skipf("%s: the server does not advertise %s yet", where, s.Command)
			}
			res, err := c.Request("workspace/executeCommand", map[string]any{"command": s.Command, "arguments": json.RawMessage(s.Arguments)})
			if err != nil {
				t.Fatalf("%s: %s: %v", where, s.Command, err)
			}
			if err := matchJSON(s.Result, res); err != nil {
				t.Fatalf("%s: %s result %s: %v", where, s.Command, res, err)
			}
		case s.Buffer != "":
			var want string
			json.Unmarshal(s.Want, &want)
			if got := c.Text(uri(s.Buffer)); got != section(want) {
				t.Fatalf("%s: buffer of %s:\n%s\nwant:\n%s", where, s.Buffer, got, section(want))
			}
		case s.Disk != "":
			var want string
			json.Unmarshal(s.Want, &want)
			if got := readFile(t, abs(s.Disk)); got != section(want) {
				t.Fatalf("%s: %s on disk:\n%s\nwant:\n%s", where, s.Disk, got, section(want))
			}
		case s.Write != "":
			writeFile(t, abs(s.Write), section(s.From))
		default:
			t.Fatalf("%s: no action in %s", where, line)
		}
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d after shutdown and exit", code)
	}
}

func parseRange(t *testing.T, s string) lsptest.Range {
	t.Helper()
	var r lsptest.Range
	if _, err := fmt.Sscanf(s, "%d:%d-%d:%d", &r.Start.Line, &r.Start.Character, &r.End.Line, &r.End.Character); err != nil {
		t.Fatalf("range %q: %v", s, err)
	}
	return r
}

// diagnosticsMatch compares a publish with a step's codes (in order) or its
// want map (codes and exact ranges, any order); report says whether to log
// the differences.
func diagnosticsMatch(t *testing.T, d *lsptest.Diagnostics, s step, report bool) bool {
	t.Helper()
	if s.Want == nil {
		want := s.Codes
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(d.Codes(), want) {
			if report {
				t.Errorf("codes %v, want %v", d.Codes(), want)
			}
			return false
		}
		return true
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(s.Want, &raw); err != nil {
		t.Fatalf("want: %v", err)
	}
	want := map[string][]string{}
	for code, r := range raw {
		var one string
		if json.Unmarshal(r, &one) == nil {
			want[code] = []string{one}
			continue
		}
		var many []string
		if err := json.Unmarshal(r, &many); err != nil {
			t.Fatalf("want %s: %v", code, err)
		}
		want[code] = many
	}
	got := map[string][]string{}
	for _, x := range d.Diagnostics {
		got[x.Code] = append(got[x.Code], x.Range.String())
	}
	for _, v := range got {
		sort.Strings(v)
	}
	for _, v := range want {
		sort.Strings(v)
	}
	if !reflect.DeepEqual(got, want) {
		if report {
			t.Errorf("diagnostics %v, want %v", got, want)
		}
		return false
	}
	return true
}

// matchJSON reports whether got matches want: objects match when every key
// of want matches (extra keys in got are fine), arrays element by element
// with equal lengths, other values when equal. An absent want matches
// anything.
func matchJSON(want, got json.RawMessage) error {
	if len(bytes.TrimSpace(want)) == 0 {
		return nil
	}
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("want: %v", err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Errorf("result: %v", err)
	}
	return match("result", w, g)
}

func match(path string, w, g any) error {
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok {
			return fmt.Errorf("%s is %v, want an object", path, g)
		}
		for k, wv := range w {
			if err := match(path+"."+k, wv, gm[k]); err != nil {
				return err
			}
		}
		return nil
	case []any:
		ga, ok := g.([]any)
		if !ok || len(ga) != len(w) {
			return fmt.Errorf("%s is %v, want %d elements", path, g, len(w))
		}
		for i := range w {
			if err := match(fmt.Sprintf("%s[%d]", path, i), w[i], ga[i]); err != nil {
				return err
			}
		}
		return nil
	default:
		if !reflect.DeepEqual(w, g) {
			return fmt.Errorf("%s is %v, want %v", path, g, w)
		}
		return nil
	}
}
