package lsp

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestCapabilitiesAdvertised: initialize advertises exactly the code action
// kinds, commands and providers that are implemented.
func TestCapabilitiesAdvertised(t *testing.T) {
	c := newTestClient(t, Options{})
	var res struct {
		Capabilities struct {
			CodeActionProvider struct {
				CodeActionKinds []string `json:"codeActionKinds"`
				ResolveProvider *bool    `json:"resolveProvider"`
			} `json:"codeActionProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
			DocumentSymbolProvider  any `json:"documentSymbolProvider"`
			WorkspaceSymbolProvider any `json:"workspaceSymbolProvider"`
			HoverProvider           any `json:"hoverProvider"`
			DefinitionProvider      any `json:"definitionProvider"`
			DocumentLinkProvider    *struct {
				ResolveProvider *bool `json:"resolveProvider"`
			} `json:"documentLinkProvider"`
		} `json:"capabilities"`
	}
	var raw json.RawMessage
	if err := c.request("initialize", map[string]any{"processId": nil, "rootUri": uriOf(t.TempDir()), "capabilities": map[string]any{}}, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	caps := res.Capabilities
	if want := []string{"quickfix", "source.fixAll.memory", "refactor.rewrite"}; !slices.Equal(caps.CodeActionProvider.CodeActionKinds, want) {
		t.Errorf("codeActionKinds = %v, want %v", caps.CodeActionProvider.CodeActionKinds, want)
	}
	if caps.CodeActionProvider.ResolveProvider != nil {
		t.Error("resolveProvider advertised, but codeAction/resolve is not implemented")
	}
	want := []string{"memory.storeMemory", "memory.queryMemory", "memory.listMemories", "memory.deleteMemory", "memory.assignSlugs", "memory.cleanup", "memory.stats", "memory.keepBoth", "memory.review"}
	if !slices.Equal(caps.ExecuteCommandProvider.Commands, want) {
		t.Errorf("commands = %v, want %v", caps.ExecuteCommandProvider.Commands, want)
	}
	for name, v := range map[string]any{"documentSymbolProvider": caps.DocumentSymbolProvider, "workspaceSymbolProvider": caps.WorkspaceSymbolProvider, "hoverProvider": caps.HoverProvider, "definitionProvider": caps.DefinitionProvider} {
		if v != true {
			t.Errorf("%s = %v, want true", name, v)
		}
	}
	switch dl := caps.DocumentLinkProvider; {
	case dl == nil:
		t.Error("documentLinkProvider is not advertised")
	case dl.ResolveProvider != nil:
		t.Error("documentLink resolveProvider advertised, but documentLink/resolve is not implemented")
	}
	// Every advertised command and method is really served.
	for _, id := range want {
		if commands[id] == nil {
			t.Errorf("%s is advertised but has no handler", id)
		}
	}
	for _, m := range []string{"textDocument/codeAction", "workspace/executeCommand", "textDocument/documentSymbol", "workspace/symbol", "textDocument/hover", "textDocument/documentLink", "textDocument/definition"} {
		if requestHandlers[m] == nil {
			t.Errorf("%s is advertised but not registered", m)
		}
	}
	// Nothing else that would make editors send requests we do not serve.
	var all map[string]map[string]any
	json.Unmarshal(raw, &all)
	for k := range all["capabilities"] {
		switch k {
		case "textDocumentSync", "workspace", "codeActionProvider", "executeCommandProvider", "documentSymbolProvider", "workspaceSymbolProvider", "hoverProvider",
			"documentLinkProvider", "definitionProvider":
		default:
			t.Errorf("unexpected capability %s", k)
		}
	}
	c.shutdown()
}
