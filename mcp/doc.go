// Package mcp is the Model Context Protocol adapter: it offers the core's
// memory operations to agents as MCP tools, as package lsp offers them to
// editors as LSP commands. It decides nothing itself: every store goes
// through memory.Service (and so through the workspace lock), every reply
// sentence is the one core/memory writes for the CLI and the editor.
//
// Tools: storeMemory and queryMemory with HackLM Memory's input schemas and
// reply sentences, getMemory, listMemories and memoryStats. Each reply is
// the sentence as text plus the same facts as structured content; a refused
// call is a tool error (IsError) whose text names the problem.
//
// The workspace is --root, else the client's roots, else the nearest folder
// above the current one holding .memory.
//
// On stdio (Stdio) every line from the client is checked before the SDK
// reads it, and a malformed one is answered with its JSON-RPC error rather
// than ending the session, as the SDK would.
package mcp
