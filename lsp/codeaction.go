package lsp

import (
	"context"
	"slices"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

func init() {
	onRequest("textDocument/codeAction", (*Server).codeAction)
}

// Code action kinds we return. glsp has no constant for source.fixAll
// (LSP 3.15), so the namespaced sub-kind is declared here.
const (
	kindQuickFix = protocol.CodeActionKindQuickFix
	kindFixAll   = "source.fixAll.memory"
	kindRewrite  = protocol.CodeActionKindRefactorRewrite
)

// codeActionKinds is what initialize advertises.
var codeActionKinds = []protocol.CodeActionKind{kindQuickFix, kindFixAll, kindRewrite}

// codeActionParams is the part of CodeActionParams we read. The context's
// diagnostics are deliberately not decoded: fixes come from the server's own
// view (glsp cannot decode their codes, and some clients send byte columns).
type codeActionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
	Context      struct {
		Only []string `json:"only"`
	} `json:"context"`
}

// kindWanted reports whether kind is requested by only: no filter asks for
// everything, and a requested kind covers its sub-kinds.
func kindWanted(only []string, kind string) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == "" || k == kind || strings.HasPrefix(kind, k+".") {
			return true
		}
	}
	return false
}

func (s *Server) codeAction(_ context.Context, p *codeActionParams) (any, error) {
	actions := []protocol.CodeAction{}
	s.mu.Lock()
	kept := len(s.kept) // only grows: findings filtered later drop as many or more
	s.mu.Unlock()
	v, fi, cfg, findings := s.checkedDocument(p.TextDocument.URI)
	if fi < 0 {
		return actions, nil
	}
	path := v.files[fi].Path
	ix := v.ix(fi)
	sp, err := fromRange(ix, p.Range)
	if err != nil {
		// The request was made for text we no longer hold; the client
		// asks again after the change reaches us.
		s.log.Warningf("codeAction for %s: %v", path, err)
		return actions, nil
	}
	if sp.Len() == 0 {
		// A cursor, not a selection: offer what is wrong anywhere on its line.
		if pos, err := ix.Position(sp.Start); err == nil {
			sp = text.Span{Start: ix.LineStart(pos.Line), End: ix.LineEnd(pos.Line)}
		}
	}
	wantQuick := kindWanted(p.Context.Only, kindQuickFix)
	wantRewrite := kindWanted(p.Context.Only, kindRewrite)

	seen := map[string]int{} // kind, title and edits → index in actions
	titles := map[string]bool{}
	add := func(kind, title string, preferred bool, diag *protocol.Diagnostic, edits []rules.FileEdit) {
		key := actionKey(kind, title, edits)
		if i, ok := seen[key]; ok {
			if diag != nil {
				actions[i].Diagnostics = append(actions[i].Diagnostics, *diag)
			}
			return
		}
		we, err := s.fixEdit(v, edits)
		if err != nil {
			s.log.Errorf("codeAction %q for %s: %v", title, path, err)
			return
		}
		k := kind
		a := protocol.CodeAction{Title: title, Kind: &k, Edit: we}
		if diag != nil {
			a.Diagnostics = []protocol.Diagnostic{*diag}
		}
		if preferred {
			yes := true
			a.IsPreferred = &yes
		}
		seen[key] = len(actions)
		titles[title] = true
		actions = append(actions, a)
	}

	// A line with a secret or an agent directive is offered its removal
	// first, and nothing that would rewrite it (rules.Hazards).
	hazards := rules.FindHazards(v.files, findings)
	here := make([]rules.Finding, 0, 8)
	for _, f := range findings {
		if f.File == fi && len(f.Fixes) > 0 && intersects(f.Span, sp) {
			here = append(here, f)
		}
	}
	slices.SortStableFunc(here, func(a, b rules.Finding) int {
		switch {
		case a.Hazard() == b.Hazard():
			return 0
		case a.Hazard():
			return -1
		}
		return 1
	})
	for _, f := range here {
		kind := kindQuickFix
		switch {
		case wantQuick:
		case wantRewrite && f.Traits().Rewrites:
			kind = kindRewrite
		default:
			continue
		}
		d, err := s.diagnostic(v, f)
		if err != nil {
			s.log.Errorf("codeAction for %s: %v", path, err)
			continue
		}
		preferred := len(f.Fixes) == 1 && f.Fixes[0].Safe
		for _, fx := range f.Fixes {
			if fx.KeepBoth {
				if a, ok := keepBothAction(v, f, kind, &d); ok {
					actions = append(actions, a)
				}
				continue
			}
			if hazards.Blocks(v.files, f, fx) {
				continue
			}
			add(kind, fx.Title, preferred, &d, f.EditsOf(&fx, v.files))
		}
	}

	if wantRewrite {
		// File-wide rewrites, wherever the cursor is.
		for _, r := range s.fileRewrites(v, fi, kept, findings, hazards).rewrites {
			if _, ok := seen[r.key]; ok || r.fileWide && titles[r.title] {
				continue
			}
			if r.err != nil {
				s.log.Errorf("codeAction %q for %s: %v", r.title, path, r.err)
				continue
			}
			seen[r.key] = len(actions)
			titles[r.title] = true
			actions = append(actions, r.action)
		}
	}

	if wantQuick {
		if f, _ := s.documentFolder(p.TextDocument.URI); f != nil {
			actions = append(actions, s.heldActions(f, v, fi, sp)...)
		}
	}

	if kindWanted(p.Context.Only, kindFixAll) {
		fa := s.fileFixAll(v, fi, kept, cfg, findings)
		if fa.fixAll != nil {
			actions = append(actions, *fa.fixAll)
		}
	}
	return actions, nil
}

// intersects: a finding touches the requested range (both inclusive, so a
// cursor at either end of a finding counts).
func intersects(a, b text.Span) bool { return a.Start <= b.End && b.Start <= a.End }
