package lsp

import (
	"cmp"
	"slices"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// mostSevereLast orders the findings of one line from the least severe to
// the most severe, keeping the order of findings on different lines. An
// editor that shows one sign or one message per line shows the last one
// (Neovim 0.7 without severity_sort does), so a hint never hides a warning
// or an error on the same line.
func mostSevereLast(ix *text.Index, findings []rules.Finding, own []int32) {
	// own is in offset order already: only runs on one line are reordered.
	for start := 0; start < len(own); {
		line := ix.Line(findings[own[start]].Span.Start)
		end := start + 1
		for end < len(own) && ix.Line(findings[own[end]].Span.Start) == line {
			end++
		}
		if end-start > 1 {
			slices.SortStableFunc(own[start:end], func(a, b int32) int {
				return cmp.Compare(findings[b].Severity, findings[a].Severity)
			})
		}
		start = end
	}
}

// publishParams is the PublishDiagnosticsParams of file i of v, whose
// findings are those of findings at the indexes in own, in offset order
// (reordered in place for display, see mostSevereLast). A finding whose
// position does not exist in its file is left out and logged.
func (s *Server) publishParams(v *view, i int, findings []rules.Finding, own []int32) protocol.PublishDiagnosticsParams {
	mostSevereLast(v.ix(i), findings, own)
	params := protocol.PublishDiagnosticsParams{URI: v.uri(i), Diagnostics: make([]protocol.Diagnostic, 0, len(own))}
	if v.versions[i] >= 0 {
		ver := protocol.UInteger(v.versions[i])
		params.Version = &ver
	}
	for _, k := range own {
		d, err := s.diagnostic(v, findings[k])
		if err != nil {
			s.log.Errorf("%s: %v", v.files[findings[k].File].Path, err)
			continue
		}
		params.Diagnostics = append(params.Diagnostics, d)
	}
	return params
}
