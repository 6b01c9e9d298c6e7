// Package memory holds HackLM's operations — storeMemory, queryMemory and
// cleanup — as planners over parsed files: each takes file bytes and returns
// new file bytes plus a result, and never touches the disk itself. Service
// runs the planners inside the store's locked transaction, so every decision
// is made on the bytes that are actually replaced.
package memory
