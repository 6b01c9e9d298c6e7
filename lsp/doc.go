// Package lsp adapts core to the Language Server Protocol 3.16 over stdio.
//
// It uses glsp's protocol_3_16 types for every message but owns the
// connection (jsonrpc.go, conn.go) instead of glsp's server loop, because
// that loop handles one message at a time: a handler that calls the client
// (workspace/applyEdit, workspace/configuration) deadlocks it, a panic kills
// the process, $/cancelRequest cannot cancel anything, and error codes are
// rewritten. Here notifications run in arrival order on the read loop,
// requests run concurrently with their own context, calls to the client are
// awaited with a timeout, and every handler runs under recover.
//
// Invariants:
//   - stdout carries nothing but framed JSON-RPC; logs go to stderr or a file;
//   - convert.go is the only code that builds or reads protocol positions;
//   - only `.md` files directly inside a `.memory/` folder are served, decided
//     by path, never by language id; every other document gets nothing;
//   - open buffers are changed through workspace/applyEdit, closed files
//     through memory.Transact under the `.memory/.lock` protocol.
package lsp
