package lsp_test

// End-to-end tests: the real memory-lsp binary, spawned as an editor spawns
// it (`memory-lsp serve --stdio`), spoken to over its stdin and stdout by
// lsptest's independent client. Every byte the server writes is checked to
// be a well-framed JSON-RPC message.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// binary is cmd/memory-lsp, built once by TestMain.
var binary string

func TestMain(m *testing.M) { os.Exit(lsptest.RunWithBinary(m, &binary)) }

// wait bounds every wait for the server in these tests; a passing run never
// waits for it.
const wait = 10 * time.Second

// startBinary spawns `memory-lsp serve --stdio` in dir.
func startBinary(t testing.TB, dir string, args ...string) *lsptest.Client {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--stdio"}, args...)...)
	cmd.Dir = dir
	return lsptest.Start(t, cmd)
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// codeAction is a CodeAction as the test reads it.
type codeAction struct {
	Title       string               `json:"title"`
	Kind        string               `json:"kind"`
	IsPreferred bool                 `json:"isPreferred"`
	Diagnostics []lsptest.Diagnostic `json:"diagnostics"`
	Edit        json.RawMessage      `json:"edit"`
	Command     json.RawMessage      `json:"command"`
}

// capabilities is the part of the initialize result the tests consult.
type capabilities struct {
	Capabilities struct {
		TextDocumentSync   json.RawMessage `json:"textDocumentSync"`
		CodeActionProvider json.RawMessage `json:"codeActionProvider"`
		ExecuteCommand     *struct {
			Commands []string `json:"commands"`
		} `json:"executeCommandProvider"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

func (c capabilities) command(id string) bool {
	return c.Capabilities.ExecuteCommand != nil && slices.Contains(c.Capabilities.ExecuteCommand.Commands, id)
}

func (c capabilities) codeActions() bool {
	s := string(c.Capabilities.CodeActionProvider)
	return s != "" && s != "null" && s != "false"
}

// token is a made-up GitHub token, built at run time so that secret
// scanners do not flag this file.
var token = "ghp_" + "16C7e42F292c6912E7710c838347Ae178B4a"

const decisions = "# Decisions\n" +
	"\n" +
	"* Use Postgres for the ledger.\n" +
	"- [My Slug] Deploy the API before the web app.\n" +
	"- [db] Use Redis for caching.\n" +
	"- [db] Keep the schema in SQL files.\n"

const quirks = "# Quirks\n\n- [gradle-leak] The Gradle daemon leaks memory after about 20 builds.\n"

// wantDiagnostics checks codes and exact ranges, in any order.
func wantDiagnostics(t *testing.T, got *lsptest.Diagnostics, want map[string]lsptest.Range) {
	t.Helper()
	if len(got.Diagnostics) != len(want) {
		t.Errorf("%s v%v: codes %v, want %d diagnostics: %v", got.URI, got.Version, got.Codes(), len(want), want)
	}
	for code, r := range want {
		d := got.Find(code)
		switch {
		case d == nil:
			t.Errorf("no %s diagnostic; got %v", code, got.Codes())
		case d.Range != r:
			t.Errorf("%s at %v, want %v", code, d.Range, r)
		case d.Source != "memory-lsp":
			t.Errorf("%s has source %q", code, d.Source)
		}
	}
}

// TestE2ESession is the session an editor runs, against the real binary.
func TestE2ESession(t *testing.T) {
	root := t.TempDir()
	decisionsPath := filepath.Join(root, ".memory", "decisions.md")
	quirksPath := filepath.Join(root, ".memory", "quirks.md")
	writeFile(t, decisionsPath, decisions)
	writeFile(t, quirksPath, quirks)

	c := startBinary(t, root)
	var caps capabilities
	if err := json.Unmarshal(c.Initialize(lsptest.InitializeParams(root, nil)), &caps); err != nil {
		t.Fatal(err)
	}
	if caps.ServerInfo.Name != "memory-lsp" {
		t.Errorf("serverInfo = %+v", caps.ServerInfo)
	}

	// Open: the diagnostics of the file as it is.
	uri := c.OpenFile(decisionsPath)
	d := c.AwaitDiagnostics(uri, 1, wait)
	wantV1 := map[string]lsptest.Range{
		"bullet-marker":  lsptest.R(2, 0, 2, 30),
		"slug-format":    lsptest.R(3, 3, 3, 10),
		"duplicate-slug": lsptest.R(5, 3, 5, 5), // [db] holds two texts: no conflict
	}
	wantDiagnostics(t, d, wantV1)
	if dup := d.Find("duplicate-slug"); dup != nil {
		if len(dup.RelatedInformation) != 1 || dup.RelatedInformation[0].Location.URI != uri || dup.RelatedInformation[0].Location.Range.Start != (lsptest.Position{Line: 4, Character: 7}) {
			t.Errorf("duplicate-slug related information = %+v, want the first [db]'s text at 4:7", dup.RelatedInformation)
		}
	}

	// Edit with multi-byte text: columns count UTF-16 units (the emoji is
	// two, each CJK character one, e + combining acute two).
	added := "- [发布-😀] Ship the e\u0301 build.\n" +
		"- 😀 发布 e\u0301 uses token " + token + " now.\n"
	v := c.Change(uri, lsptest.TextEdit{Range: lsptest.R(6, 0, 6, 0), NewText: added})
	d = c.AwaitDiagnostics(uri, v, wait)
	ranges := map[string][]lsptest.Range{}
	for _, x := range d.Diagnostics {
		ranges[x.Code] = append(ranges[x.Code], x.Range)
	}
	wantAll := map[string][]lsptest.Range{
		"bullet-marker":  {lsptest.R(2, 0, 2, 30)},
		"slug-format":    {lsptest.R(3, 3, 3, 10), lsptest.R(6, 3, 6, 8)},
		"duplicate-slug": {lsptest.R(5, 3, 5, 5)},
		"secret":         {lsptest.R(7, 22, 7, 62)},
	}
	for code, want := range wantAll {
		if !slices.Equal(ranges[code], want) {
			t.Errorf("after the multi-byte edit, %s at %v, want %v", code, ranges[code], want)
		}
	}
	if len(d.Diagnostics) != 5 {
		t.Errorf("after the multi-byte edit: %v", d.Codes())
	}

	// A change whose range is given in UTF-16 units after the multi-byte
	// text: "uses" (7:11-7:15) becomes two CJK characters, and the secret
	// moves two columns left. A server counting bytes or code points would
	// edit the wrong place.
	v = c.Change(uri, lsptest.TextEdit{Range: lsptest.R(7, 11, 7, 15), NewText: "使用"})
	if !strings.Contains(c.Text(uri), "e\u0301 使用 token") {
		t.Fatalf("client buffer after the change: %q", c.Text(uri))
	}
	d = c.AwaitDiagnostics(uri, v, wait)
	if s := d.Find("secret"); s == nil || s.Range != lsptest.R(7, 20, 7, 60) {
		t.Errorf("secret after editing before it: %+v, want 7:20-7:60", s)
	}

	t.Run("codeAction", func(t *testing.T) {
		if !caps.codeActions() {
			t.Skip("the server does not advertise codeActionProvider yet")
		}
		diag := d.Find("slug-format")
		if diag == nil || diag.Range.Start.Line != 3 {
			t.Fatalf("no slug-format on line 3: %v", d.Codes())
		}
		var actions []codeAction
		c.RequestInto("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"range":        diag.Range,
			"context":      map[string]any{"diagnostics": []lsptest.Diagnostic{*diag}},
		}, &actions)
		var fix *codeAction
		for i := range actions {
			if actions[i].Kind == "quickfix" && actions[i].Title == "Rename slug to my-slug" {
				fix = &actions[i]
			}
		}
		if fix == nil {
			t.Fatalf("no quickfix %q among %+v", "Rename slug to my-slug", actions)
		}
		if len(fix.Diagnostics) != 1 || fix.Diagnostics[0].Code != "slug-format" {
			t.Errorf("the quickfix names diagnostics %+v", fix.Diagnostics)
		}
		before := c.Text(uri)
		if err := c.ApplyEdit(fix.Edit); err != nil {
			t.Fatalf("applying %s: %v", fix.Edit, err)
		}
		want := strings.Replace(before, "- [My Slug] Deploy", "- [my-slug] Deploy", 1)
		if got := c.Text(uri); got != want {
			t.Errorf("buffer after the quickfix:\n%s\nwant:\n%s", got, want)
		}
		d = c.AwaitDiagnostics(uri, c.Version(uri), wait)
		for _, x := range d.Diagnostics {
			if x.Code == "slug-format" && x.Range.Start.Line == 3 {
				t.Errorf("slug-format still reported on line 3 after its fix")
			}
		}
	})

	t.Run("storeMemory/open", func(t *testing.T) {
		if !caps.command("memory.storeMemory") {
			t.Skip("the server does not advertise memory.storeMemory yet")
		}
		applies := len(c.ServerRequests("workspace/applyEdit"))
		before := c.Text(uri)
		res, err := c.Request("workspace/executeCommand", map[string]any{
			"command":   "memory.storeMemory",
			"arguments": []any{map[string]any{"category": "Decision", "slug": "migrations-first", "content": "Run database migrations before deploying."}},
		})
		if err != nil {
			t.Fatalf("storeMemory: %v", err)
		}
		checkAction(t, res, "stored")
		if n := len(c.ServerRequests("workspace/applyEdit")); n != applies+1 {
			t.Errorf("the server sent %d workspace/applyEdit, want 1", n-applies)
		}
		line := "- [migrations-first] Run database migrations before deploying.\n"
		if got := c.Text(uri); !strings.Contains(got, line) || !strings.HasPrefix(got, strings.TrimSuffix(before, "\n")) {
			t.Errorf("open buffer after storeMemory:\n%s", got)
		}
		// The disk gets the same change, where other agents read it; the
		// buffer's unsaved edits of earlier steps stay in the buffer.
		if got := readFile(t, decisionsPath); got != decisions+line {
			t.Errorf("disk after storeMemory into the open file:\n%s\nwant\n%s", got, decisions+line)
		}
		// The buffer changed through the client: the server learns of it by
		// didChange and publishes for that version.
		c.AwaitDiagnostics(uri, c.Version(uri), wait)
	})

	t.Run("storeMemory/closed", func(t *testing.T) {
		if !caps.command("memory.storeMemory") {
			t.Skip("the server does not advertise memory.storeMemory yet")
		}
		applies := len(c.ServerRequests("workspace/applyEdit"))
		res, err := c.Request("workspace/executeCommand", map[string]any{
			"command":   "memory.storeMemory",
			"arguments": []any{map[string]any{"category": "Quirk", "content": "The CI cache is keyed on the lock file only."}},
		})
		if err != nil {
			t.Fatalf("storeMemory: %v", err)
		}
		checkAction(t, res, "stored")
		if n := len(c.ServerRequests("workspace/applyEdit")); n != applies {
			t.Errorf("storeMemory into a closed file sent %d workspace/applyEdit", n-applies)
		}
		want := quirks + "- The CI cache is keyed on the lock file only.\n"
		if got := readFile(t, quirksPath); got != want {
			t.Errorf("quirks.md on disk:\n%q\nwant:\n%q", got, want)
		}

		// A reversal by meaning is stored as a new entry and names the
		// entry it is about, which stays (issue 27).
		res, err = c.Request("workspace/executeCommand", map[string]any{
			"command":   "memory.storeMemory",
			"arguments": []any{map[string]any{"category": "Quirk", "content": "Gradle's daemon stays stable across hundreds of builds."}},
		})
		if err != nil {
			t.Fatalf("storeMemory: %v", err)
		}
		checkAction(t, res, "stored")
		var r struct {
			Message string
			Related []struct {
				Line    int
				Content string
			}
		}
		if err := json.Unmarshal(res, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Related) != 1 || r.Related[0].Line != 3 || !strings.Contains(r.Message, `on the same subject as "The Gradle daemon leaks memory after about 20 builds." (line 3)`) {
			t.Errorf("storeMemory of a reversal by meaning: %s", res)
		}
		if got := readFile(t, quirksPath); got != want+"- Gradle's daemon stays stable across hundreds of builds.\n" {
			t.Errorf("quirks.md on disk:\n%q", got)
		}
	})

	// An agent writes a closed memory file: the server sees it on disk and
	// publishes fresh diagnostics (without a version: it is not open).
	t.Run("external write", func(t *testing.T) {
		quirksURI := lsptest.URI(quirksPath)
		mark := c.Mark()
		writeFile(t, quirksPath, quirks+"- [flaky]Retry the e2e suite once before reporting.\n")
		c.AwaitDiagnosticsWhere(mark, quirksURI, wait, func(d *lsptest.Diagnostics) bool {
			return d.Version == nil && slices.Contains(d.Codes(), "slug-malformed")
		})
	})

	if v := c.Violations(); len(v) > 0 {
		t.Errorf("stdout carried something other than framed JSON-RPC: %v", v)
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code after shutdown and exit = %d, want 0", code)
	}
}

// checkAction checks a command result that says what a store did.
func checkAction(t *testing.T, res json.RawMessage, want string) {
	t.Helper()
	var r struct {
		Action  string `json:"action"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatalf("storeMemory result %s: %v", res, err)
	}
	if r.Action != want {
		t.Errorf("storeMemory result %s: action %q, want %q", res, r.Action, want)
	}
}

func TestE2EExitWithoutShutdown(t *testing.T) {
	root := t.TempDir()
	c := startBinary(t, root)
	c.Initialize(lsptest.InitializeParams(root, nil))
	if err := c.Notify("exit", nil); err != nil {
		t.Fatal(err)
	}
	if code := c.ExitCode(); code != 1 {
		t.Errorf("exit without shutdown: exit code %d, want 1", code)
	}
}

func TestE2EEndOfInputWithoutExit(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(binary, "serve", "--stdio")
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close() // the editor died
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("end of input: %v, want exit code 1", err)
		}
	case <-time.After(wait):
		cmd.Process.Kill()
		t.Fatal("the server did not exit at the end of its input")
	}
}

func TestE2EBeforeInitialize(t *testing.T) {
	root := t.TempDir()
	c := startBinary(t, root)
	_, err := c.Request("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.URI(filepath.Join(root, ".memory", "quirks.md"))},
		"range":        lsptest.R(0, 0, 0, 0), "context": map[string]any{"diagnostics": []any{}}})
	var e *lsptest.Error
	if !errors.As(err, &e) || e.Code != lsptest.CodeServerNotInitialized {
		t.Errorf("request before initialize: %v, want code %d", err, lsptest.CodeServerNotInitialized)
	}
	c.Initialize(lsptest.InitializeParams(root, nil))
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestE2EOtherMarkdown: a Markdown file outside .memory/ gets nothing.
func TestE2EOtherMarkdown(t *testing.T) {
	root := t.TempDir()
	readme := filepath.Join(root, "README.md")
	writeFile(t, readme, "* not a memory file\n- [Bad Slug] nor this\n")
	memory := filepath.Join(root, ".memory", "quirks.md")
	writeFile(t, memory, quirks)
	c := startBinary(t, root)
	var caps capabilities
	json.Unmarshal(c.Initialize(lsptest.InitializeParams(root, nil)), &caps)
	readmeURI := c.OpenFile(readme)
	if caps.codeActions() {
		res, err := c.Request("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": readmeURI},
			"range":        lsptest.R(0, 0, 1, 0),
			"context":      map[string]any{"diagnostics": []any{}},
		})
		if err != nil || string(res) != "[]" {
			t.Errorf("codeAction for README.md = %s, %v; want []", res, err)
		}
	}
	c.Change(readmeURI, lsptest.TextEdit{Range: lsptest.R(0, 0, 0, 0), NewText: "-x\n"})
	// A memory file opened afterwards is a barrier: the server handles
	// notifications in order, so by the time its diagnostics arrive, any
	// publish for README.md would have come first.
	c.AwaitDiagnostics(c.OpenFile(memory), 1, wait)
	c.Shutdown()
	c.ExitCode()
	for _, m := range c.Messages() {
		if strings.Contains(string(m.Raw), "README.md") {
			t.Errorf("the server sent %s about README.md: %s", m.Method, m.Raw)
		}
	}
}

// TestE2ECancel cancels a request that waits: storeMemory into an open file
// waits for the .memory/.lock, which another live writer holds. The
// cancelled request answers -32800 and nothing is written, on disk or in
// the buffer.
func TestE2ECancel(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".memory", "quirks.md")
	writeFile(t, path, quirks)
	// A lock as HackLM writes it, held by this (live) test process.
	lock := filepath.Join(root, ".memory", ".lock")
	writeFile(t, lock, fmt.Sprintf(`{"pid":%d,"ts":%d}`, os.Getpid(), time.Now().UnixMilli()))
	c := startBinary(t, root)
	var caps capabilities
	json.Unmarshal(c.Initialize(lsptest.InitializeParams(root, nil)), &caps)
	if !caps.command("memory.storeMemory") {
		t.Skip("the server does not advertise memory.storeMemory yet: no request waits long enough to cancel")
	}
	uri := c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, wait)
	call, err := c.Go("workspace/executeCommand", map[string]any{
		"command":   "memory.storeMemory",
		"arguments": []any{map[string]any{"category": "Quirk", "content": "Cancelled stores write nothing."}},
	})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the store is waiting for the lock
	if err := c.Cancel(call); err != nil {
		t.Fatal(err)
	}
	_, err = call.Wait(wait)
	var e *lsptest.Error
	if !errors.As(err, &e) || e.Code != lsptest.CodeRequestCancelled {
		t.Errorf("cancelled request answered %v, want code %d", err, lsptest.CodeRequestCancelled)
	}
	if got := c.Text(uri); got != quirks {
		t.Errorf("buffer changed by a cancelled store: %q", got)
	}
	if got := readFile(t, path); got != quirks {
		t.Errorf("disk changed by a cancelled store: %q", got)
	}
	if n := len(c.ServerRequests("workspace/applyEdit")); n != 0 {
		t.Errorf("a cancelled store sent %d workspace/applyEdit", n)
	}
}
