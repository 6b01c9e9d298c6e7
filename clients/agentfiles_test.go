package clients_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/budget"
)

// TestClientsAttachToAgentFiles keeps each client's list of the agents'
// instruction files it attaches the server to equal to the server's
// (budget.InstructionPatterns), in the server's order: the quoted names
// between the markers agent-files:start and agent-files:end, and the VS
// Code extension's activation events after the memory files' (its
// AGENT_FILES). A name missing from a client is a file the editor never
// shows the server; one the server lacks is a file it would attach to for
// nothing.
func TestClientsAttachToAgentFiles(t *testing.T) {
	want := budget.InstructionPatterns()
	data, err := os.ReadFile(filepath.Join("vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		ActivationEvents []string `json:"activationEvents"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, e := range pkg.ActivationEvents[1:] {
		events = append(events, strings.TrimPrefix(e, "workspaceContains:"))
	}
	if !slices.Equal(events, want) {
		t.Errorf("clients/vscode/package.json activates on\n%q\nwant the server's\n%q", events, want)
	}
	quoted := regexp.MustCompile(`["']([^"']+)["']`)
	for _, file := range []string{
		"nvim/lua/memory_lsp/init.lua",
		"vim/autoload/memory_lsp.vim",
		"emacs/memory-lsp.el",
		"helix/languages.toml",
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(data), "agent-files:start")
		block, _, ok2 := strings.Cut(rest, "agent-files:end")
		if !ok || !ok2 {
			t.Errorf("%s: no agent-files:start … agent-files:end block", file)
			continue
		}
		var got []string
		for _, m := range quoted.FindAllStringSubmatch(block, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s lists\n%q\nwant the server's\n%q", file, got, want)
		}
	}
}
