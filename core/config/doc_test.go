package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSettingsDoc: docs/settings.md's example names every setting, and
// every value in it but those of rules and agents (which show how they are
// written) is the default.
func TestSettingsDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "settings.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```json\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/settings.md has no ```json block")
	}
	s, err := ParseSettings([]byte(block))
	if err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	var named []string
	v := reflect.ValueOf(s)
	for key, i := range settingsFields {
		if !v.Field(i).IsNil() {
			named = append(named, key)
		}
	}
	slices.Sort(named)
	if want := settingsKeys(); !slices.Equal(named, want) {
		t.Errorf("the example names %v, want every setting: %v", named, want)
	}
	got, err := Default().Merge(s)
	if err != nil {
		t.Fatal(err)
	}
	got.Disabled, got.Severity, got.Agents = nil, nil, nil
	want := Default()
	want.Disabled, want.Severity = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the example's values are not the defaults:\n got %+v\nwant %+v", got, want)
	}
}
