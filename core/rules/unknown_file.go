package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkUnknownFile flags a `.md` file in `.memory/` that is none of the five
// category files: HackLM reads only those, so whatever this one holds is
// invisible to it (and to agents that use HackLM's tools).
func checkUnknownFile(w *workspace) {
	var names []string
	for _, c := range category.All {
		names = append(names, c.File())
	}
	for fi, f := range w.files {
		if f.IsCategory || f.TooLarge() || !strings.HasSuffix(strings.ToLower(f.Name), ".md") {
			continue
		}
		w.report(Finding{File: fi, Span: text.Span{},
			Message: f.Name + " is not a category file (" + strings.Join(names, ", ") + "): HackLM never reads it"})
	}
}
