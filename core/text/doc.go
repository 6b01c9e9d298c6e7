// Package text converts between the two position systems memory-lsp uses.
//
// Everything in core speaks byte offsets into the file's bytes. Editors speak
// LSP positions: a zero-based line and a column counted in UTF-16 code units.
// This package is the only place that does the arithmetic between the two, so
// that emoji, CJK text, combining marks and CRLF endings are handled once.
//
// Line breaks follow the LSP specification (LF, CRLF and a lone CR each end a
// line). HackLM's own line numbers split on LF only; memfile keeps those
// separately, and the two agree on every file without a lone CR.
//
// Invalid UTF-8 bytes count as one UTF-16 unit each, as a decoder that maps
// every bad byte to U+FFFD would see them.
package text
