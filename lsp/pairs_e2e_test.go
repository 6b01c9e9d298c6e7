package lsp_test

// The choices on a pair of alike entries, through the real
// binary in a git repository: a near-duplicate, a sibling or a conflict
// offers "Keep this one", "Keep the other" and "Keep both"; each carries its
// WorkspaceEdit, so the editor can show what it will do before it does it,
// and the text it shows is what applying it leaves.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

const pairsDecisions = "# Decisions\n\n" +
	"- [snap-win] Snapshot tests break on Windows.\n" +
	"- [snap-mac] Snapshot tests break on macOS.\n" +
	"- [routing] Use chi for HTTP routing.\n" +
	"- Prefer gorilla/mux over chi for HTTP routing.\n" +
	"- [pnpm] Use pnpm for installs in this repository.\n" +
	"- Use pnpm for all installs in this repository.\n"

// preview is the text a WorkspaceEdit leaves in uri's text, computed from the
// edit alone, as an editor's preview shows it.
func preview(t *testing.T, text, uri string, edit json.RawMessage) string {
	t.Helper()
	var we struct {
		Changes         map[string][]lsptest.TextEdit `json:"changes"`
		DocumentChanges []struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []lsptest.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	if err := json.Unmarshal(edit, &we); err != nil {
		t.Fatalf("edit does not decode: %v: %s", err, edit)
	}
	edits := we.Changes[uri]
	for _, dc := range we.DocumentChanges {
		if dc.TextDocument.URI == uri {
			edits = append(edits, dc.Edits...)
		}
	}
	out, err := lsptest.Apply(text, edits)
	if err != nil {
		t.Fatalf("edit does not apply: %v: %s", err, edit)
	}
	return out
}

// pairActions asks for the code actions on line (0-based) and returns them
// by title.
func pairActions(t *testing.T, c *lsptest.Client, uri string, line int) map[string]codeAction {
	t.Helper()
	var actions []codeAction
	c.RequestInto("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        lsptest.R(line, 0, line, 0),
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	out := map[string]codeAction{}
	for _, a := range actions {
		out[a.Title] = a
	}
	for _, title := range []string{"Keep this one", "Keep the other", "Keep both"} {
		if _, ok := out[title]; !ok {
			t.Fatalf("line %d: no %q among %v", line+1, title, actions)
		}
	}
	return out
}

func TestPairChoicesE2E(t *testing.T) {
	for _, versioned := range []bool{true, false} {
		name := "unversioned edits"
		if versioned {
			name = "versioned edits"
		}
		t.Run(name, func(t *testing.T) { testPairChoices(t, versioned) })
	}
}

func testPairChoices(t *testing.T, versioned bool) {
	_, path, c, uri := session(t, pairsDecisions, versioned, nil)
	d := c.AwaitDiagnosticsWhere(0, uri, wait, func(d *lsptest.Diagnostics) bool {
		return d.Find("conflict") != nil && d.Find("near-duplicate") != nil
	})
	var sibling, near *lsptest.Diagnostic
	for i := range d.Diagnostics {
		x := &d.Diagnostics[i]
		switch {
		case x.Code == "near-duplicate" && x.Range.Start.Line == 3:
			sibling = x
		case x.Code == "near-duplicate" && x.Range.Start.Line == 7:
			near = x
		}
	}
	if sibling == nil || !strings.Contains(sibling.Message, `"windows" vs "macos"`) {
		t.Fatalf("no sibling finding naming both terms on line 4: %+v", d.Diagnostics)
	}
	if near == nil {
		t.Fatalf("no near-duplicate on line 8: %+v", d.Diagnostics)
	}
	conflict := d.Find("conflict")
	if conflict.Range.Start.Line != 5 || !strings.Contains(conflict.Message, "prefers another option") {
		t.Fatalf("conflict = %+v, want line 6 preferring gorilla/mux over chi", conflict)
	}
	text := c.Text(uri)

	// The previews of the conflict's choices say exactly what each keeps.
	acts := pairActions(t, c, uri, 5)
	keepThis := preview(t, text, uri, acts["Keep this one"].Edit)
	if want := strings.Replace(strings.Replace(pairsDecisions, "- [routing] Use chi for HTTP routing.\n", "- [routing] Prefer gorilla/mux over chi for HTTP routing.\n", 1),
		"- Prefer gorilla/mux over chi for HTTP routing.\n", "", 1); keepThis != want {
		t.Errorf("Keep this one previews:\n%s\nwant:\n%s", keepThis, want)
	}
	keepOther := preview(t, text, uri, acts["Keep the other"].Edit)
	if want := strings.Replace(pairsDecisions, "- Prefer gorilla/mux over chi for HTTP routing.\n", "", 1); keepOther != want {
		t.Errorf("Keep the other previews:\n%s\nwant:\n%s", keepOther, want)
	}
	if both := preview(t, text, uri, acts["Keep both"].Edit); both != text {
		t.Errorf("Keep both previews a change:\n%s", both)
	}

	// Applying Keep this one leaves what its preview showed, and the
	// conflict is gone; saving puts it on disk.
	mark := c.Mark()
	if err := c.ApplyEdit(acts["Keep this one"].Edit); err != nil {
		t.Fatal(err)
	}
	if got := c.Text(uri); got != keepThis {
		t.Fatalf("applied Keep this one:\n%s\npreview was:\n%s", got, keepThis)
	}
	c.AwaitDiagnosticsWhere(mark, uri, wait, func(d *lsptest.Diagnostics) bool { return d.Find("conflict") == nil })
	c.Save(uri)
	eventuallyTrue(t, "the saved choice on disk", func() (bool, string) {
		s := readFile(t, path)
		return s == keepThis, s
	})

	// The near-duplicate (one adds a word): Keep the other previews the
	// later line gone and nothing rewritten.
	text = c.Text(uri)
	acts = pairActions(t, c, uri, 6)
	if got, want := preview(t, text, uri, acts["Keep the other"].Edit), strings.Replace(text, "- Use pnpm for all installs in this repository.\n", "", 1); got != want {
		t.Errorf("near-duplicate Keep the other previews:\n%s\nwant:\n%s", got, want)
	}

	// Keep both on the siblings: no text changes, and the server stops
	// reporting the pair.
	acts = pairActions(t, c, uri, 3)
	both := acts["Keep both"]
	var cmd struct {
		Command   string `json:"command"`
		Arguments []any  `json:"arguments"`
	}
	if err := json.Unmarshal(both.Command, &cmd); err != nil || cmd.Command != "memory.keepBoth" {
		t.Fatalf("Keep both command = %s (%v)", both.Command, err)
	}
	mark = c.Mark()
	if _, err := c.Request("workspace/executeCommand", map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}); err != nil {
		t.Fatal(err)
	}
	c.AwaitDiagnosticsWhere(mark, uri, wait, func(d *lsptest.Diagnostics) bool {
		for _, x := range d.Diagnostics {
			if x.Code == "near-duplicate" && x.Range.Start.Line == 3 {
				return false
			}
		}
		return true
	})
	if got := c.Text(uri); got != text {
		t.Errorf("Keep both changed the buffer:\n%s", got)
	}
	if s := readFile(t, path); !strings.Contains(s, "Windows") || !strings.Contains(s, "macOS") {
		t.Errorf("Keep both lost a sibling on disk:\n%s", s)
	}
}
