package clients_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// TestVSCodeRuleSettings keeps the VS Code extension's settings schema
// equal to the rule registry: memory.rules lists every rule that can be
// switched off, in the registry's order. The schema allows no other
// property, so a rule missing from it is one a user cannot switch off in
// the settings editor without a warning.
func TestVSCodeRuleSettings(t *testing.T) {
	var props map[string]struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(vscodeSettings(t), &props); err != nil {
		t.Fatal(err)
	}
	got, err := objectKeys(props["memory.rules"].Properties)
	if err != nil {
		t.Fatalf("memory.rules: %v", err)
	}
	var want []string
	for _, r := range rules.Rules() {
		if !(rules.Finding{Code: r.Code}).Traits().AlwaysOn {
			want = append(want, r.Code)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("clients/vscode/package.json memory.rules lists\n%q\nwant the registry's\n%q", got, want)
	}
}

// vscodeSettings is the settings schema the extension contributes:
// contributes.configuration.properties of its package.json, as written.
func vscodeSettings(t *testing.T) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties json.RawMessage `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	return pkg.Contributes.Configuration.Properties
}

// serverSettings are the keys of the server's settings object, sorted: the
// JSON names of config.Settings, which the one decoder of settings reads.
func serverSettings() []string {
	var keys []string
	st := reflect.TypeFor[config.Settings]()
	for i := range st.NumField() {
		if name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	slices.Sort(keys)
	return keys
}

// settingsKeysTS matches the SETTINGS_KEYS array of src/settings.ts, the
// keys the extension reads and sends.
var settingsKeysTS = regexp.MustCompile(`SETTINGS_KEYS = \[([^\]]*)\]`)

// TestVSCodeSettingsKeys keeps the extension's settings equal to the
// server's: one memory.* setting contributed in package.json per key of the
// server's settings, and SETTINGS_KEYS (what the extension reads and sends)
// listing the same keys in the same order. A key missing from package.json
// is one a user cannot set without a warning; one missing from
// SETTINGS_KEYS is set and never sent.
func TestVSCodeSettingsKeys(t *testing.T) {
	props, err := objectKeys(vscodeSettings(t))
	if err != nil {
		t.Fatalf("contributes.configuration.properties: %v", err)
	}
	var contributed []string
	for _, p := range props {
		if k, ok := strings.CutPrefix(p, config.Section+"."); ok {
			contributed = append(contributed, k)
		}
	}
	want := serverSettings()
	if got := slices.Sorted(slices.Values(contributed)); !slices.Equal(got, want) {
		t.Errorf("clients/vscode/package.json contributes the settings\n%q\nwant the server's\n%q", got, want)
	}

	ts, err := os.ReadFile(filepath.Join("vscode", "src", "settings.ts"))
	if err != nil {
		t.Fatal(err)
	}
	m := settingsKeysTS.FindSubmatch(ts)
	if m == nil {
		t.Fatal("clients/vscode/src/settings.ts: no SETTINGS_KEYS = [...]")
	}
	var sent []string
	for _, q := range regexp.MustCompile(`'([^']*)'`).FindAllSubmatch(m[1], -1) {
		sent = append(sent, string(q[1]))
	}
	if !slices.Equal(sent, contributed) {
		t.Errorf("clients/vscode/src/settings.ts SETTINGS_KEYS lists\n%q\nwant package.json's memory.* settings in their order\n%q", sent, contributed)
	}
}

// TestClientSettingsLists: every client file that lists the server's
// settings (a sentence, a comment or an example of them all) names each one,
// so that a new setting is not missing from one editor's documentation.
func TestClientSettingsLists(t *testing.T) {
	for _, f := range []string{
		"emacs/README.md",
		"helix/README.md",
		"helix/languages.toml",
		"nvim/README.md",
		"nvim/lsp/memory_lsp.lua",
		"vscode/README.md",
		"vscode/test/e2e.test.js",
		"zed/README.md",
	} {
		data, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range serverSettings() {
			if !bytes.Contains(data, []byte(k)) {
				t.Errorf("clients/%s lists the server's settings without %s", f, k)
			}
		}
	}
}

// objectKeys lists the keys of a JSON object in the order they are written.
func objectKeys(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// TestVSCodeDocumentedDefaults (issue 28): the defaults the VS Code
// client's README states for the server's settings ("unset (server: `V`)")
// are the server's own (config.Default): it said maxContent was 5000 where
// the server's is 1000.
func TestVSCodeDocumentedDefaults(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("vscode", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	d := config.Default()
	limits := map[string]int{}
	for _, c := range category.All {
		limits[c.String()] = d.Limits[c]
	}
	want := map[string]any{
		"categoryLimit": limits, "skipThreshold": d.SkipThreshold, "updateThreshold": d.UpdateThreshold,
		"mergeThreshold": d.MergeThreshold, "longEntry": d.LongEntry, "maxContent": d.MaxContent, "historyDepth": d.HistoryDepth, "review": d.Review,
	}
	row := regexp.MustCompile("(?m)^\\| `" + config.Section + "\\.(\\w+)` \\| unset \\(server: `([^`]*)`\\)")
	seen := 0
	for _, m := range row.FindAllSubmatch(data, -1) {
		key, doc := string(m[1]), m[2]
		w, ok := want[key]
		if !ok {
			t.Errorf("clients/vscode/README.md states a default for %s, which has none in config.Default", key)
			continue
		}
		seen++
		wantJSON, _ := json.Marshal(w)
		var got, exp any
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Errorf("%s: the documented default %s is not JSON: %v", key, doc, err)
			continue
		}
		json.Unmarshal(wantJSON, &exp)
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("clients/vscode/README.md says %s defaults to %s; the server's default is %s", key, doc, wantJSON)
		}
	}
	if seen != len(want) {
		t.Errorf("clients/vscode/README.md states %d of the %d server defaults", seen, len(want))
	}
	// and the settings editor's descriptions ("Unset: `V`.")
	var props map[string]struct {
		Description string `json:"markdownDescription"`
	}
	if err := json.Unmarshal(vscodeSettings(t), &props); err != nil {
		t.Fatal(err)
	}
	unset := regexp.MustCompile("Unset: `([^`]*)`")
	for key, w := range want {
		m := unset.FindStringSubmatch(props[config.Section+"."+key].Description)
		if m == nil {
			continue
		}
		wantJSON, _ := json.Marshal(w)
		var got, exp any
		if json.Unmarshal([]byte(m[1]), &got) != nil {
			continue // words, not a value
		}
		json.Unmarshal(wantJSON, &exp)
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("clients/vscode/package.json says %s is %s unset; the server's default is %s", key, m[1], wantJSON)
		}
	}
}
