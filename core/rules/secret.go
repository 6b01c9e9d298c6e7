package rules

import (
	"github.com/memory-lsp/memory-lsp/core/secret"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkSecret flags likely credentials anywhere in any memory file, entry or
// not: memory files are read by every agent and usually committed. The
// message names the kind and never repeats the secret.
func checkSecret(w *workspace) {
	for fi, f := range w.files {
		if !f.parsed() {
			continue
		}
		for _, m := range secret.Find(string(f.Doc.Src)) {
			w.add(Finding{Code: "secret", Severity: Error, File: fi, Span: text.Span{Start: m.Start, End: m.End},
				Message: "likely credential (" + m.Kind + "): memory files are shared with every agent and usually committed; remove it and rotate it"})
		}
	}
}
