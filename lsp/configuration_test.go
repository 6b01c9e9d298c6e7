package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
)

// twoDecisions has two entries: over a Decision limit of 1.
const twoDecisions = "# Decisions\n\n- [db] Use Postgres for storage.\n- [deploy] Deploy with Docker containers.\n"

func decisionLimit(c *testClient) int {
	c.server.mu.Lock()
	defer c.server.mu.Unlock()
	return c.server.cfg.Limit(category.Decision)
}

// waitNote waits for a notification of method whose params contain text.
func (c *testClient) waitNote(from int, method, text string) (note, int) {
	c.t.Helper()
	return c.waitFor(from, func(n note) bool { return n.method == method && strings.Contains(string(n.params), text) })
}

// setAnswer makes the client answer workspace/configuration with items.
func (c *testClient) setAnswer(items ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answer = func(method string, _ json.RawMessage) (any, error) {
		if method == "workspace/configuration" {
			return items, nil
		}
		return nil, nil
	}
}

func (c *testClient) askedCount(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, a := range c.asked {
		if a.method == method {
			n++
		}
	}
	return n
}

func TestInitializationOptions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    any
		refused string // an error shown naming this key; the defaults stay
	}{
		{"nested", map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 1}}}, ""},
		{"flat", map[string]any{"categoryLimit": map[string]any{"decision": 1}}, ""},
		{"unknown key", map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 1}, "colour": "red"}}, `memory.colour: no setting has the key \"colour\"`},
		{"unknown category", map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 1, "Goals": 3}}}, `memory.categoryLimit.Goals: unknown category`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
			c := newTestClient(t, Options{})
			c.initialize(root, tc.opts, nil)
			p, _ := c.diagnostics(0, uri, -1)
			want := 1
			if tc.refused != "" {
				want = 0
				wantShownError(t, c, 0, tc.refused)
			}
			if n := strings.Count(strings.Join(codes(p), " "), "over-limit"); n != want {
				t.Errorf("codes = %v, want %d over-limit", codes(p), want)
			}
			c.shutdown()
			if tc.refused != "" {
				return
			}
			for _, n := range c.notes {
				if n.method == "window/showMessage" {
					t.Errorf("showMessage for valid settings: %s", n.params)
				}
			}
		})
	}
}

// wantShownError waits for a window/showMessage of type Error holding text
// and returns the index after it.
func wantShownError(t *testing.T, c *testClient, from int, text string) int {
	t.Helper()
	n, next := c.waitNote(from, "window/showMessage", text)
	var p protocol.ShowMessageParams
	if err := json.Unmarshal(n.params, &p); err != nil || p.Type != protocol.MessageTypeError {
		t.Errorf("showMessage %s: want type Error (%d)", n.params, protocol.MessageTypeError)
	}
	return next
}

func TestInvalidInitializationOptionsKeepDefaults(t *testing.T) {
	root := t.TempDir()
	uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
	c := newTestClient(t, Options{})
	c.initialize(root, map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 0}}}, nil) // must not fail
	wantShownError(t, c, 0, "categoryLimit.Decision")
	p, _ := c.diagnostics(0, uri, -1)
	if !empty(p) {
		t.Errorf("codes = %v under the default limits", codes(p))
	}
	if got, want := decisionLimit(c), category.Decision.DefaultLimit(); got != want {
		t.Errorf("Decision limit = %d, want the default %d", got, want)
	}
	c.shutdown()
}

func TestPulledConfiguration(t *testing.T) {
	root := t.TempDir()
	uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
	c := newTestClient(t, Options{})
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 1}})
	c.initialize(root, nil, map[string]any{"workspace": map[string]any{"configuration": true}})
	_, next := c.diagnosticsWhere(0, uri, "over-limit from the pulled section", has("over-limit"))
	c.mu.Lock()
	asked := string(c.asked[0].params)
	c.mu.Unlock()
	if !strings.Contains(asked, `"section":"memory"`) {
		t.Errorf("pulled %s, want section memory", asked)
	}

	// didChangeConfiguration (settings null in the pull model) re-pulls and
	// republishes.
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 5}})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	_, next = c.diagnosticsWhere(next, uri, "no over-limit after the limit was raised", lacks("over-limit"))
	if n := c.askedCount("workspace/configuration"); n != 2 {
		t.Errorf("%d pulls, want 2", n)
	}

	// A bad value is refused with an error naming the key; the limit of 5
	// stays.
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 0}})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	next = wantShownError(t, c, next, "categoryLimit.Decision")
	if got := decisionLimit(c); got != 5 {
		t.Errorf("Decision limit = %d after a refused change, want 5", got)
	}

	// So is an unknown key: none of its layer applies.
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 1}, "shiny": true})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	next = wantShownError(t, c, next, `shiny: no setting has the key`)
	if got := decisionLimit(c); got != 5 {
		t.Errorf("Decision limit = %d after a change with an unknown key, want 5", got)
	}

	// null means "use the defaults".
	c.setAnswer(nil)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	c.diagnosticsWhere(next, uri, "no over-limit under the defaults", lacks("over-limit"))
	if got, want := decisionLimit(c), category.Decision.DefaultLimit(); got != want {
		t.Errorf("Decision limit = %d, want the default %d", got, want)
	}
	c.shutdown()
}

func TestPulledOverridesInitializationOptions(t *testing.T) {
	root := t.TempDir()
	uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
	c := newTestClient(t, Options{})
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 1}})
	c.initialize(root, map[string]any{"categoryLimit": map[string]any{"Decision": 7}, "longEntry": 150}, map[string]any{"workspace": map[string]any{"configuration": true}})
	c.diagnosticsWhere(0, uri, "over-limit from the pulled section", has("over-limit"))
	c.server.mu.Lock()
	cfg := c.server.cfg
	c.server.mu.Unlock()
	if cfg.LongEntry != 150 {
		t.Errorf("longEntry = %d: initializationOptions lost under the pulled section", cfg.LongEntry)
	}
	c.shutdown()
}

func TestDidChangeConfigurationWithoutPull(t *testing.T) {
	root := t.TempDir()
	uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	_, next := c.diagnostics(0, uri, -1)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 1}}}})
	_, next = c.diagnosticsWhere(next, uri, "over-limit from didChangeConfiguration", has("over-limit"))
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"memory": nil}})
	c.diagnosticsWhere(next, uri, "no over-limit after the section was removed", lacks("over-limit"))
	c.shutdown()
	if n := c.askedCount("workspace/configuration"); n != 0 {
		t.Errorf("%d pulls from a client that cannot answer them", n)
	}
}

func TestLayersAreValidatedTogether(t *testing.T) {
	parse := func(s string) config.Settings {
		t.Helper()
		v, err := readLayer(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// updateThreshold 0.85 alone is above the default skipThreshold (0.8);
	// with the pulled skipThreshold 0.9 the whole is valid.
	base := parse(`{"updateThreshold": 0.85, "categoryLimit": {"Decision": 1, "Quirk": 9}, "rules": {"missing-slug": false}}`)
	pulled := parse(`{"skipThreshold": 0.9, "categoryLimit": {"Decision": 2}, "rules": {"secret": false}}`)
	cfg, err := buildConfig(base, pulled)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Default()
	want.UpdateThreshold, want.SkipThreshold = 0.85, 0.9
	want.Limits[category.Decision], want.Limits[category.Quirk] = 2, 9
	want.Disabled = map[string]bool{"missing-slug": true, "cross-file": true, "secret": true}
	if !sameConfig(cfg, want) {
		t.Errorf("buildConfig = %+v, want %+v", cfg, want)
	}
	if _, err := buildConfig(base, config.Settings{}); err == nil || !strings.Contains(err.Error(), "updateThreshold") {
		t.Errorf("base alone: %v, want an error naming updateThreshold", err)
	}
}

// TestUnknownRuleRefusedInEveryLayer: a layer naming a rule no rule has
// ("missing-slugg") is refused whole, in initializationOptions, a pulled
// workspace/configuration and a pushed didChangeConfiguration alike: an
// error is shown naming the key and the nearest code, and the configuration
// before the layer stays, so long-entry, which the refused layer also turns
// off, is still published (with missing-slug, which the layer before turned
// on).
func TestUnknownRuleRefusedInEveryLayer(t *testing.T) {
	bad := map[string]any{"rules": map[string]any{"long-entry": false, "missing-slugg": false}}
	slugsOn := map[string]any{"rules": map[string]any{"missing-slug": true}}
	pull := map[string]any{"workspace": map[string]any{"configuration": true}}
	for _, tc := range []struct {
		name string
		// apply sets up the configuration before the bad layer, then sends
		// it; it returns the index to look for the error from.
		apply func(c *testClient, root string, uri protocol.DocumentUri) int
		want  []string // the codes published after the refusal
	}{
		{"initializationOptions", func(c *testClient, root string, _ protocol.DocumentUri) int {
			c.initialize(root, map[string]any{"memory": bad}, nil)
			return 0
		}, []string{"long-entry"}},
		{"workspace/configuration", func(c *testClient, root string, uri protocol.DocumentUri) int {
			c.setAnswer(slugsOn)
			c.initialize(root, nil, pull)
			_, next := c.diagnosticsWhere(0, uri, "missing-slug from the pulled section", has("missing-slug"))
			c.setAnswer(bad)
			c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
			return next
		}, []string{"long-entry", "missing-slug"}},
		{"didChangeConfiguration", func(c *testClient, root string, uri protocol.DocumentUri) int {
			c.initialize(root, nil, nil)
			c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"memory": slugsOn}})
			_, next := c.diagnosticsWhere(0, uri, "missing-slug from the pushed settings", has("missing-slug"))
			c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"memory": bad}})
			return next
		}, []string{"long-entry", "missing-slug"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			content := "# Decisions\n\n- " + strings.Repeat("word ", 70) + "\n"
			uri := uriOf(writeMemory(t, root, "decisions.md", content))
			c := newTestClient(t, Options{})
			from := tc.apply(c, root, uri)
			wantShownError(t, c, from, `rules.missing-slugg: no rule has the code \"missing-slugg\"; did you mean \"missing-slug\"?`)
			// Opening the file publishes it under the configuration in force.
			c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": content}})
			p, _ := c.diagnostics(from, uri, 1)
			if got := slices.Sorted(slices.Values(codes(p))); !slices.Equal(got, tc.want) {
				t.Errorf("after the refused layer: %v, want %v", got, tc.want)
			}
			c.shutdown()
		})
	}
}
