// Package memory holds the features every front end offers — HackLM's
// storeMemory, queryMemory and cleanup, and delete, assign slugs, fix-all and
// an entry's description — as planners over parsed files: each takes file
// bytes and returns new file bytes plus a result as plain data, and never
// touches the disk itself. The language server, the MCP server and the CLI
// only convert and render those results. Service runs the planners inside
// the store's locked transaction, so every decision is made on the bytes
// that are actually replaced.
package memory
