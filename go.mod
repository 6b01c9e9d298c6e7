module github.com/memory-lsp/memory-lsp

go 1.26
