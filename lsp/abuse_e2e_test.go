package lsp_test

// Protocol abuse against the real binary: what a broken, confused or
// hostile client sends. The server must answer what deserves an answer,
// drop the rest with a line on stderr where that helps, keep its documents
// intact, and go on serving.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

const abuseDecisions = "# Decisions\n\n- [db] Use Postgres for the ledger.\n- [ship] Ship it 😀 on Tuesdays.\n"

// startCmd is the command startBinary runs, for tests that need its
// process.
func startCmd(dir string) *exec.Cmd {
	cmd := exec.Command(binary, "serve", "--stdio")
	cmd.Dir = dir
	return cmd
}

// symbolNames asks for uri's document symbols and returns their names.
func symbolNames(t *testing.T, c *lsptest.Client, uri string) []string {
	t.Helper()
	var syms []struct {
		Name  string        `json:"name"`
		Range lsptest.Range `json:"range"`
	}
	c.RequestInto("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	names := make([]string, len(syms))
	for i, s := range syms {
		names[i] = s.Name
	}
	return names
}

func wantError(t *testing.T, what string, err error, code int) {
	t.Helper()
	var e *lsptest.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: %v, want an error with code %d", what, err, code)
	}
}

// TestE2EProtocolAbuse runs one session through every kind of bad input
// and checks after each that the server still serves the open document as
// the client holds it.
func TestE2EProtocolAbuse(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".memory", "decisions.md")
	writeFile(t, path, abuseDecisions)
	never := filepath.Join(root, ".memory", "quirks.md") // never opened
	c := startBinary(t, root)
	c.Initialize(lsptest.InitializeParams(root, nil))
	uri := c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, wait)
	wantSymbols := []string{"db", "ship"}
	healthy := func(t *testing.T) {
		t.Helper()
		if got := symbolNames(t, c, uri); strings.Join(got, ",") != strings.Join(wantSymbols, ",") {
			t.Errorf("document symbols %v, want %v", got, wantSymbols)
		}
	}

	t.Run("unknown request", func(t *testing.T) {
		_, err := c.Request("memory/noSuchMethod", map[string]any{})
		wantError(t, "an unknown request", err, lsptest.CodeMethodNotFound)
		healthy(t)
	})

	t.Run("unknown notifications", func(t *testing.T) {
		mark := c.Mark()
		for _, m := range []string{"memory/noSuchNotification", "$/noSuchNotification", "$/setTrace"} {
			if err := c.Notify(m, map[string]any{"value": "verbose"}); err != nil {
				t.Fatal(err)
			}
		}
		healthy(t) // notifications are handled in order: they are behind us
		for _, m := range c.Messages()[mark:] {
			if !m.IsResponse() {
				t.Errorf("the server answered an unknown notification with %s", m.Raw)
			}
		}
		// stderr is written in the order the messages were handled: once a
		// later line is there, any line about those notifications is too.
		from := len(c.Stderr())
		c.Close(lsptest.URI(never))
		c.AwaitStderr(from, "ignoring didClose for "+never, wait)
		for _, l := range c.Stderr() {
			if strings.Contains(l, "noSuchNotification") || strings.Contains(l, "setTrace") {
				t.Errorf("noise on stderr for a notification that may be ignored: %s", l)
			}
		}
	})

	t.Run("documents never opened", func(t *testing.T) {
		neverURI := lsptest.URI(never)
		from := len(c.Stderr())
		c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": neverURI, "version": 2},
			"contentChanges": []any{map[string]any{"range": lsptest.R(0, 0, 0, 0), "text": "x"}}})
		_, from = c.AwaitStderr(from, "ignoring didChange for "+never+": it is not open", wait)
		c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": neverURI}})
		_, from = c.AwaitStderr(from, "didSave for "+never+", which is not open", wait)
		c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": neverURI}})
		c.AwaitStderr(from, "ignoring didClose for "+never+": it is not open", wait)
		if _, err := os.Stat(never); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a change to a document never opened reached the disk: %v", err)
		}
		healthy(t)
	})

	t.Run("didChange out of range", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			r     lsptest.Range
			delta int    // version after the client's
			why   string // what the log line must say
		}{
			{"line past the end", lsptest.R(99, 0, 99, 0), 1, "99:0 is outside the document"},
			{"column past the line end", lsptest.R(2, 500, 2, 500), 1, "2:500 is past the end of line 2"},
			{"inside a surrogate pair", lsptest.R(3, 18, 3, 18), 1, "3:18 splits a surrogate pair"},
			{"end before start", lsptest.R(2, 10, 2, 4), 1, "end 2:4 is before its start 2:10"},
		} {
			from := len(c.Stderr())
			c.Notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": c.Version(uri) + tc.delta},
				"contentChanges": []any{map[string]any{"range": tc.r, "text": "CORRUPT"}}})
			line, _ := c.AwaitStderr(from, "rejected didChange for "+path+": ", wait)
			if !strings.Contains(line, tc.why) {
				t.Errorf("%s: the log says %q, not why (%q)", tc.name, line, tc.why)
			}
			healthy(t)
		}
		// The next good change applies where the client means it: the
		// server still holds exactly the client's text.
		v := c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: "- [ci] Cache 用户 builds 😀 twice.\n"})
		c.AwaitDiagnostics(uri, v, wait)
		wantSymbols = append(wantSymbols, "ci")
		healthy(t)
		if strings.Contains(c.Text(uri), "CORRUPT") {
			t.Fatal("the client's own copy was corrupted; the test is wrong")
		}
	})

	t.Run("requests out of range", func(t *testing.T) {
		for _, p := range []lsptest.Position{{Line: 999}, {Line: 2, Character: 999}, {Line: 3, Character: 18}} {
			res, err := c.Request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p})
			if err != nil || string(res) != "null" {
				t.Errorf("hover at %v = %s, %v; want null", p, res, err)
			}
		}
		for _, r := range []lsptest.Range{lsptest.R(999, 0, 999, 5), lsptest.R(2, 9, 2, 2), lsptest.R(3, 18, 3, 19)} {
			res, err := c.Request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
				"range": r, "context": map[string]any{"diagnostics": []any{}}})
			if err != nil || string(res) != "[]" {
				t.Errorf("codeAction for %v = %s, %v; want []", r, res, err)
			}
		}
		for _, u := range []string{lsptest.URI(filepath.Join(root, ".memory", "security.md")), "untitled:Untitled-1", "file://"} {
			res, err := c.Request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}})
			if err != nil || string(res) != "[]" {
				t.Errorf("documentSymbol for %s = %s, %v; want []", u, res, err)
			}
		}
		_, err := c.Request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": "here"})
		wantError(t, "hover with a string position", err, lsptest.CodeInvalidParams)
		_, err = c.Request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": -1, "character": 0}})
		wantError(t, "hover at line -1", err, lsptest.CodeInvalidParams)
		healthy(t)
	})

	t.Run("malformed JSON", func(t *testing.T) {
		for _, tc := range []struct {
			body string
			code int
		}{
			{`{bad}`, -32700},
			{`[1,2]`, lsptest.CodeInvalidRequest}, // JSON, but no object
			{`true`, lsptest.CodeInvalidRequest},
			{`{"jsonrpc":"2.0","id":7,"method":5}`, lsptest.CodeInvalidRequest},
			{`{"jsonrpc":"2.0","id":`, -32700},
			{`{"jsonrpc":"2.0"}`, lsptest.CodeInvalidRequest},
		} {
			mark := c.Mark()
			if err := c.WriteRaw([]byte("Content-Length: " + strconv.Itoa(len(tc.body)) + "\r\n\r\n" + tc.body)); err != nil {
				t.Fatal(err)
			}
			m, _ := c.Await(mark, wait, "an error answer to "+tc.body, func(m *lsptest.Message) bool { return m.Error != nil })
			if m.Error.Code != tc.code || m.ID != nil {
				t.Errorf("%s answered %s, want code %d and id null", tc.body, m.Raw, tc.code)
			}
		}
		healthy(t)
	})

	if v := c.Violations(); len(v) > 0 {
		t.Errorf("stdout carried something other than framed JSON-RPC: %v", v)
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d after all that, want 0", code)
	}
}

// TestE2ELifecycleAbuse: notifications before initialize are dropped,
// requests get ServerNotInitialized (whatever the method), a second
// initialize and anything after shutdown get InvalidRequest.
func TestE2ELifecycleAbuse(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".memory", "decisions.md")
	writeFile(t, path, abuseDecisions)
	c := startBinary(t, root)
	uri := lsptest.URI(path)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": "- [x] early\n"}})
	for _, m := range []string{"textDocument/hover", "memory/noSuchMethod", "shutdown"} {
		_, err := c.Request(m, map[string]any{})
		wantError(t, m+" before initialize", err, lsptest.CodeServerNotInitialized)
	}
	c.Initialize(lsptest.InitializeParams(root, nil))
	// The early didOpen was dropped: the server reads the file from disk.
	if got := symbolNames(t, c, uri); strings.Join(got, ",") != "db,ship" {
		t.Errorf("symbols after an early didOpen: %v, want the disk's db, ship", got)
	}
	_, err := c.Request("initialize", lsptest.InitializeParams(root, nil))
	wantError(t, "a second initialize", err, lsptest.CodeInvalidRequest)
	if res, err := c.Request("shutdown", nil); err != nil || string(res) != "null" {
		t.Fatalf("shutdown: %s, %v", res, err)
	}
	_, err = c.Request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	wantError(t, "a request after shutdown", err, lsptest.CodeInvalidRequest)
	c.Notify("exit", nil)
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

// bigMemory is a quirks.md of at least size bytes: a heading and entries.
func bigMemory(size int) string {
	var b strings.Builder
	b.Grow(size + 100)
	b.WriteString("# Quirks\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "- [q-%d] The build cache of job %d is keyed on the lock file only.\n", i, i)
	}
	return b.String()
}

// vmHWM is the peak resident memory of a process, in bytes.
func vmHWM(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// TestE2EOversizedFile: a 50 MB memory file, first written into the watched
// folder by someone else, then opened, edited and trimmed in the editor.
// While it is over the limit it gets one file-too-large diagnostic and is
// otherwise left alone (no symbols, hover or code actions, no store into
// it); the rest of the folder is served as usual; once trimmed, it is an
// ordinary file again. The server's peak memory stays a small multiple of
// the file.
func TestE2EOversizedFile(t *testing.T) {
	longtest.Skip(t)
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: the peak memory cannot be read")
	}
	if testing.Short() {
		t.Skip("moves 50 MB files around")
	}
	const size = 50 << 20
	root := t.TempDir()
	decisionsPath := filepath.Join(root, ".memory", "decisions.md")
	writeFile(t, decisionsPath, abuseDecisions)
	bigPath := filepath.Join(root, ".memory", "quirks.md")
	bigURI := lsptest.URI(bigPath)
	big := bigMemory(size)

	cmd := startCmd(root)
	c := lsptest.Start(t, cmd)
	c.Initialize(lsptest.InitializeParams(root, nil))
	decisionsURI := lsptest.URI(decisionsPath)
	c.AwaitDiagnostics(decisionsURI, lsptest.NoVersion, wait)

	onlyTooLarge := func(d *lsptest.Diagnostics) bool {
		return len(d.Diagnostics) == 1 && d.Diagnostics[0].Code == "file-too-large" && d.Diagnostics[0].Range == lsptest.R(0, 0, 0, 0)
	}
	left := func(t *testing.T) {
		t.Helper()
		if got := symbolNames(t, c, bigURI); len(got) != 0 {
			t.Errorf("%d symbols for the oversized file, want none", len(got))
		}
		if res, err := c.Request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": bigURI}, "position": lsptest.Position{Line: 2, Character: 4}}); err != nil || string(res) != "null" {
			t.Errorf("hover on the oversized file = %.200s, %v; want null", res, err)
		}
		if res, err := c.Request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": bigURI},
			"range": lsptest.R(2, 0, 2, 5), "context": map[string]any{"diagnostics": []any{}}}); err != nil || string(res) != "[]" {
			t.Errorf("code actions for the oversized file = %.200s, %v; want []", res, err)
		}
		// The rest of the folder is served.
		if got := symbolNames(t, c, decisionsURI); strings.Join(got, ",") != "db,ship" {
			t.Errorf("symbols of decisions.md beside it: %v", got)
		}
		var q struct {
			Results []struct {
				Slug string `json:"slug"`
			} `json:"results"`
		}
		c.RequestInto("workspace/executeCommand", map[string]any{"command": "memory.queryMemory",
			"arguments": []any{map[string]any{"query": "Postgres ledger"}}}, &q)
		if len(q.Results) == 0 || q.Results[0].Slug != "db" {
			t.Errorf("query beside the oversized file: %+v", q)
		}
		_, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
			"arguments": []any{map[string]any{"category": "Quirk", "content": "The linter caches nothing."}}})
		var e *lsptest.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "quirks.md: it is") {
			t.Errorf("store into the oversized file: %v, want a refusal naming it", err)
		}
	}

	t.Run("on disk", func(t *testing.T) {
		// As an agent writes it: a temporary file renamed into place.
		tmp := filepath.Join(root, "quirks.tmp")
		writeFile(t, tmp, big)
		mark := c.Mark()
		if err := os.Rename(tmp, bigPath); err != nil {
			t.Fatal(err)
		}
		c.AwaitDiagnosticsWhere(mark, bigURI, wait, func(d *lsptest.Diagnostics) bool { return d.Version == nil && onlyTooLarge(d) })
		left(t)
	})

	t.Run("open", func(t *testing.T) {
		c.Open(bigPath, big)
		if d := c.AwaitDiagnostics(bigURI, 1, wait); !onlyTooLarge(d) {
			t.Errorf("diagnostics of the open oversized file: %v", d.Codes())
		}
		left(t)
		lines := strings.Count(big, "\n")
		v := c.Change(bigURI, lsptest.TextEdit{Range: lsptest.R(lines, 0, lines, 0), NewText: "- One more.\n"})
		if d := c.AwaitDiagnostics(bigURI, v, wait); !onlyTooLarge(d) {
			t.Errorf("diagnostics after an edit of the oversized file: %v", d.Codes())
		}
		// Trimmed back under the limit, it is parsed and checked again, from
		// the text the server kept through the edits.
		v = c.Change(bigURI, lsptest.TextEdit{Range: lsptest.R(3, 0, lines+1, 0), NewText: ""})
		d := c.AwaitDiagnostics(bigURI, v, wait)
		if d.Find("file-too-large") != nil {
			t.Errorf("the trimmed file is still too large: %v", d.Codes())
		}
		if got := symbolNames(t, c, bigURI); strings.Join(got, ",") != "q-0" {
			t.Errorf("symbols of the trimmed file: %v, want q-0", got)
		}
	})

	// The bound: the server must read a frame of the whole file (the JSON
	// is a little larger), decode the text out of it, keep its own copy of
	// the buffer and hold the old and the new buffer while it applies an
	// edit (the copy on disk is only stat-ed: it is over the cap). With the
	// collector's soft limit of 44 MiB, these add up to about four times the
	// file at worst, plus the runtime and the test's small files (~20 MB).
	// Parsing the file instead (lines, entries, analyses) would take
	// hundreds of megabytes more.
	peak := vmHWM(t, cmd.Process.Pid)
	t.Logf("peak resident memory with a %d MiB file: %d MiB", size>>20, peak>>20)
	if limit := 4*size + 20<<20; peak > limit {
		t.Errorf("peak resident memory %d MiB, over the %d MiB bound", peak>>20, limit>>20)
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
