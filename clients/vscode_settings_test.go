package clients_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/rules"
)

// TestVSCodeRuleSettings keeps the VS Code extension's settings schema
// equal to the rule registry: memory.rules lists every rule that can be
// switched off, in the registry's order. The schema allows no other
// property, so a rule missing from it is one a user cannot switch off in
// the settings editor without a warning.
func TestVSCodeRuleSettings(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Properties json.RawMessage `json:"properties"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	got, err := objectKeys(pkg.Contributes.Configuration.Properties["memory.rules"].Properties)
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
