package lsp

import protocol "github.com/tliron/glsp/protocol_3_16"

// capabilities advertises exactly what is implemented.
func capabilities() protocol.ServerCapabilities {
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	return protocol.ServerCapabilities{
		TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &incremental, Save: protocol.SaveOptions{IncludeText: new(bool)}},
		Workspace: &protocol.ServerCapabilitiesWorkspace{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
			Supported: &yes, ChangeNotifications: &protocol.BoolOrString{Value: true}}},
		CodeActionProvider:      protocol.CodeActionOptions{CodeActionKinds: append([]protocol.CodeActionKind(nil), codeActionKinds...)},
		ExecuteCommandProvider:  &protocol.ExecuteCommandOptions{Commands: append([]string(nil), commandIDs...)},
		DocumentSymbolProvider:  true,
		WorkspaceSymbolProvider: true,
		HoverProvider:           true,
		DocumentLinkProvider:    &protocol.DocumentLinkOptions{},
		DefinitionProvider:      true,
	}
}
