// Package lsptest drives a language server from tests the way an editor
// does: over a byte stream, with Content-Length framing and JSON-RPC 2.0
// written and read here, independently of the server's own transport, so
// that a test of the real binary is a black-box test of the wire.
//
// A Client is connected either to a spawned process (Start) or to a server
// running in the test's process (Pipe). Its reader goroutine records every
// message and checks every byte the server writes: each frame must carry a
// correct Content-Length and a JSON object with "jsonrpc": "2.0" that is a
// request, a notification or a response. A violation fails the test.
//
// The client keeps its own copy of the documents it opened, applies the
// edits it is given (workspace/applyEdit from the server, or a code action's
// edit through ApplyEdit) to that copy, and tells the server with didChange
// as an editor would. It answers workspace/configuration from its Settings,
// client/registerCapability with null, and every other server request with
// MethodNotFound unless a test installs a handler.
//
// Positions are LSP positions: zero-based lines and UTF-16 code-unit
// columns. The conversion here is written from the specification, not
// shared with the server, so a disagreement shows up as a failed edit.
package lsptest
