package lsp_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestE2EUnknownRuleIsRefused: a rule name that names no rule, in
// initializationOptions or in the configuration the editor answers after
// didChangeConfiguration, is refused with an error shown naming the key and
// the nearest code; the settings in force stay (the defaults, then the last
// valid ones), never applied in part. Through the binary, in a git
// repository.
func TestE2EUnknownRuleIsRefused(t *testing.T) {
	root, path := gitWorkspace(t, "# Decisions\n\n- "+strings.Repeat("word ", 70)+"\n")
	c := startBinary(t, root)
	shown := func(from int, part string) int {
		t.Helper()
		_, next := c.Await(from, 10*time.Second, "an error shown with "+part, func(m *lsptest.Message) bool {
			return m.Method == "window/showMessage" && strings.Contains(string(m.Params), part) && strings.Contains(string(m.Params), `"type":1`)
		})
		return next
	}
	mark := c.Mark()
	c.Initialize(lsptest.InitializeParams(root, map[string]any{"memory": map[string]any{"rules": map[string]any{"long-entry": false, "missing-slugg": true}}}))
	shown(mark, `rules.missing-slugg: no rule has the code \"missing-slugg\"; did you mean \"missing-slug\"?`)
	uri := c.OpenFile(path)
	if got := c.AwaitDiagnostics(uri, 1, 10*time.Second).Codes(); !slices.Equal(got, []string{"long-entry"}) {
		t.Errorf("after refused initializationOptions: %v, want the defaults (long-entry on)", got)
	}

	// A pushed configuration with a typo is refused as well; a valid one then applies.
	for _, tc := range []struct {
		rules   map[string]any
		refused bool
	}{
		{map[string]any{"long-entry": false, "longentry": false}, true},
		{map[string]any{"long-entry": false}, false},
	} {
		mark = c.Mark()
		c.SetSettings(map[string]any{"memory": map[string]any{"rules": tc.rules}})
		if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": nil}); err != nil {
			t.Fatal(err)
		}
		if tc.refused {
			// Nothing of it applies: had long-entry gone off here, the valid
			// push below would change nothing and publish nothing.
			shown(mark, `rules.longentry: no rule has the code \"longentry\"; did you mean \"long-entry\"?`)
			continue
		}
		c.AwaitDiagnosticsWhere(mark, uri, 10*time.Second, func(d *lsptest.Diagnostics) bool { return len(d.Diagnostics) == 0 })
	}
	c.Shutdown()
}

// TestE2EHazardLineActions: through the binary, in a git repository, a
// line holding a secret is offered its removal first and nothing that would
// rewrite it; an ordinary line keeps its fix.
func TestE2EHazardLineActions(t *testing.T) {
	root, path := gitWorkspace(t, "# Decisions\n\n* Deploy with the key AKIAOC9IS0J8HT9LGMXG from the vault.\n* Keep API responses under 200 ms.\n")
	c := startBinary(t, root)
	c.Initialize(lsptest.InitializeParams(root, nil))
	uri := c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, 10*time.Second)
	titles := func(line int) []string {
		var actions []struct {
			Title string `json:"title"`
		}
		c.RequestInto("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"range":        lsptest.R(line, 2, line, 2),
			"context":      map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}},
		}, &actions)
		var out []string
		for _, a := range actions {
			out = append(out, a.Title)
		}
		return out
	}
	if got := titles(2); !slices.Equal(got, []string{"Delete line", "Replace the secret with a placeholder"}) {
		t.Errorf("secret line: %v, want its removal first and no bullet fix", got)
	}
	if got := titles(3); !slices.Contains(got, `Use a "- " bullet`) {
		t.Errorf("ordinary line: %v, want its bullet fix", got)
	}
	c.Shutdown()
}

// TestE2ERuleSeverity: a rule given a severity in initializationOptions
// publishes its diagnostics at it (long-entry, information by default, as
// a warning), and a pushed configuration with true gives it its own
// severity back. Through the binary, in a git repository.
func TestE2ERuleSeverity(t *testing.T) {
	root, path := gitWorkspace(t, "# Decisions\n\n- "+strings.Repeat("word ", 70)+"\n")
	c := startBinary(t, root)
	c.Initialize(lsptest.InitializeParams(root, map[string]any{"memory": map[string]any{"rules": map[string]any{"long-entry": "warning"}}}))
	uri := c.OpenFile(path)
	d := c.AwaitDiagnostics(uri, 1, 10*time.Second).Find("long-entry")
	if d == nil || d.Severity != 2 {
		t.Fatalf("long-entry given \"warning\": %+v, want severity 2", d)
	}
	mark := c.Mark()
	c.SetSettings(map[string]any{"memory": map[string]any{"rules": map[string]any{"long-entry": true}}})
	if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": nil}); err != nil {
		t.Fatal(err)
	}
	c.AwaitDiagnosticsWhere(mark, uri, 10*time.Second, func(d *lsptest.Diagnostics) bool {
		x := d.Find("long-entry")
		return x != nil && x.Severity == 3
	})
	c.Shutdown()
}
