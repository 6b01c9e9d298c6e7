package lsp

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

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
		name string
		opts any
		warn string // a logMessage naming this unknown key
	}{
		{"nested", map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 1}}}, ""},
		{"flat", map[string]any{"categoryLimit": map[string]any{"decision": 1}}, ""},
		{"unknown keys", map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 1, "Goals": 3}, "colour": "red"}}, "memory.colour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
			c := newTestClient(t, Options{})
			c.initialize(root, tc.opts, nil)
			p, _ := c.diagnostics(0, uri, -1)
			if n := strings.Count(strings.Join(codes(p), " "), "over-limit"); n != 1 {
				t.Errorf("codes = %v, want one over-limit", codes(p))
			}
			if tc.warn != "" {
				c.waitNote(0, "window/logMessage", tc.warn)
				c.waitNote(0, "window/logMessage", "memory.categoryLimit.Goals")
			}
			c.shutdown()
			for _, n := range c.notes {
				if n.method == "window/showMessage" {
					t.Errorf("showMessage for valid settings: %s", n.params)
				}
			}
		})
	}
}

func TestInvalidInitializationOptionsKeepDefaults(t *testing.T) {
	root := t.TempDir()
	uri := uriOf(writeMemory(t, root, "decisions.md", twoDecisions))
	c := newTestClient(t, Options{})
	c.initialize(root, map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 0}}}, nil) // must not fail
	c.waitNote(0, "window/showMessage", "categoryLimit.Decision")
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

	// A bad value is refused with a warning naming the key; the limit of 5
	// stays.
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 0}})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	_, next = c.waitNote(next, "window/showMessage", "categoryLimit.Decision")
	if got := decisionLimit(c); got != 5 {
		t.Errorf("Decision limit = %d after a refused change, want 5", got)
	}

	// An unknown key is a warning; the rest applies.
	c.setAnswer(map[string]any{"categoryLimit": map[string]any{"Decision": 1}, "shiny": true})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	_, next = c.waitNote(next, "window/logMessage", "shiny")
	_, next = c.diagnosticsWhere(next, uri, "over-limit despite an unknown key", has("over-limit"))

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
	c.initialize(root, map[string]any{"categoryLimit": map[string]any{"Decision": 7, "Goal": 3}, "longEntry": 150}, map[string]any{"workspace": map[string]any{"configuration": true}})
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

func TestParseSettings(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     string // the kept settings, as JSON
		warnings []string
		err      string
	}{
		{in: ``, want: `null`},
		{in: `null`, want: `null`},
		{in: `{"memory": null}`, want: `null`},
		{in: `{}`, want: `{}`},
		{in: `{"categoryLimit": {"Decision": 1}}`, want: `{"categoryLimit":{"Decision":1}}`},
		{in: `{"memory": {"categoryLimit": {"Decision": 1}}}`, want: `{"categoryLimit":{"Decision":1}}`},
		{in: `{"memory": {"longEntry": null, "skipThreshold": 0.9}}`, want: `{"skipThreshold":0.9}`},
		{in: `{"rules": {"missing-slug": false, "secret": null}}`, want: `{"rules":{"missing-slug":false}}`},
		{in: `{"categoryLimit": {"Decision": null}}`, want: `{}`},
		{in: `{"memory": {"colour": 1, "longEntry": 120}}`, want: `{"longEntry":120}`, warnings: []string{"unknown setting memory.colour"}},
		{in: `{"categoryLimit": {"Goals": 2, "Goal": 3, "quirk": 4}}`, want: `{"categoryLimit":{"quirk":4}}`,
			warnings: []string{"unknown setting categoryLimit.Goal", "unknown setting categoryLimit.Goals"}},
		{in: `{"memory": {"longEntry": "long"}}`, err: `memory.longEntry: "long" is not a valid value`},
		{in: `{"categoryLimit": {"Decision": "one"}}`, err: `categoryLimit: {"Decision":"one"} is not a valid value`},
		{in: `{"categoryLimit": [1]}`, err: `categoryLimit must be an object`},
		{in: `[1, 2]`, err: `settings must be an object`},
		{in: `{"memory": 3}`, err: `memory: settings must be an object`},
	} {
		got, warnings, err := parseSettings(json.RawMessage(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseSettings(%s) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseSettings(%s): %v", tc.in, err)
			continue
		}
		if b, _ := json.Marshal(got); string(b) != tc.want {
			t.Errorf("parseSettings(%s) = %s, want %s", tc.in, b, tc.want)
		}
		if len(warnings) != len(tc.warnings) {
			t.Errorf("parseSettings(%s) warnings = %q, want %q", tc.in, warnings, tc.warnings)
			continue
		}
		for i := range warnings {
			if !strings.HasPrefix(warnings[i], tc.warnings[i]) {
				t.Errorf("parseSettings(%s) warning %d = %q, want %q…", tc.in, i, warnings[i], tc.warnings[i])
			}
		}
	}
}

func TestSettingsKeysCoverConfigSettings(t *testing.T) {
	want := []string{"categoryLimit", "longEntry", "maxContent", "mergeThreshold", "rules", "skipThreshold", "updateThreshold"}
	if got := slices.Sorted(maps.Keys(settingsKeys)); !slices.Equal(got, want) {
		t.Errorf("settingsKeys = %v, want %v", got, want)
	}
}

func TestLayersAreValidatedTogether(t *testing.T) {
	parse := func(s string) settingsJSON {
		t.Helper()
		v, _, err := parseSettings(json.RawMessage(s))
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
	want.Disabled = map[string]bool{"missing-slug": true, "secret": true}
	if !sameConfig(cfg, want) {
		t.Errorf("buildConfig = %+v, want %+v", cfg, want)
	}
	if _, err := buildConfig(base, nil); err == nil || !strings.Contains(err.Error(), "updateThreshold") {
		t.Errorf("base alone: %v, want an error naming updateThreshold", err)
	}
}
