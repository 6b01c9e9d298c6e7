package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/similar"
)

func init() {
	onRequest("textDocument/hover", (*Server).hover)
}

// maxSimilar is how many similar entries a hover lists.
const maxSimilar = 3

// hover describes the entry under the cursor: slug, category, pruning
// score, the category's usage against its limit, and the entries of the same
// file most similar to it. Anywhere else it returns null.
func (s *Server) hover(_ context.Context, p *protocol.HoverParams) (any, error) {
	v, fi, cfg := s.documentView(p.TextDocument.URI)
	if fi < 0 || !v.files[fi].IsCategory {
		return nil, nil
	}
	f := &v.files[fi]
	ix := v.ix(fi)
	off, err := fromPosition(ix, p.Position)
	if err != nil {
		return nil, nil
	}
	at := -1
	for i := range f.Doc.Entries {
		if sp := lineBody(f.Doc, &f.Doc.Entries[i]); sp.Start <= off && off <= sp.End {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, nil
	}
	e := &f.Doc.Entries[at]
	lineOf := func(start int) int {
		pos, err := ix.Position(start)
		if err != nil {
			return 0
		}
		return pos.Line + 1
	}

	var b strings.Builder
	if e.HasSlug {
		fmt.Fprintf(&b, "**[%s]** · %s", e.Slug, f.Category)
	} else {
		fmt.Fprintf(&b, "*(no slug)* · %s", f.Category)
	}
	w, br, sp := similar.ScoreTerms(f.Category, e.Content)
	fmt.Fprintf(&b, "\n\nPruning score **%d** (category %d + brevity %d + specificity %d) · %s: %d/%d entries",
		w+br+sp, w, br, sp, f.Category.Plural(), len(f.Doc.Entries), cfg.Limit(f.Category))

	type near struct {
		line int
		v    similar.Verdict
		text string
	}
	var nears []near
	if e.Content != "" {
		th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
		me := similar.Analyze(e.Content)
		for i := range f.Doc.Entries {
			o := &f.Doc.Entries[i]
			if i == at || o.Content == "" {
				continue
			}
			vd := similar.Classify(similar.Analyze(o.Content), me, th)
			if vd.Similarity <= 0 && !vd.Exact && vd.Action != similar.Conflict {
				continue
			}
			nears = append(nears, near{lineOf(o.LineSpan.Start), vd, o.Content})
		}
	}
	sort.SliceStable(nears, func(i, j int) bool { return nears[i].v.Similarity > nears[j].v.Similarity })
	if len(nears) > maxSimilar {
		nears = nears[:maxSimilar]
	}
	if len(nears) == 0 {
		fmt.Fprintf(&b, "\n\nNo similar entry in %s.", f.Name)
	} else {
		fmt.Fprintf(&b, "\n\nMost similar in %s:", f.Name)
		for _, n := range nears {
			fmt.Fprintf(&b, "\n- line %d, %.0f%%%s: %s", n.line, n.v.Similarity*100, verdictNote(n.v), shorten(n.text, 80))
		}
	}
	r, err := toRange(ix, lineBody(f.Doc, e))
	if err != nil {
		return nil, nil
	}
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()}, Range: &r}, nil
}

// verdictNote says what a store would make of the pair.
func verdictNote(v similar.Verdict) string {
	var s string
	switch {
	case v.Exact:
		s = "duplicate"
	case v.Action == similar.Conflict:
		s = "conflict"
	case v.Action == similar.Skip, v.Action == similar.Update:
		s = "near-duplicate"
	}
	if v.Reason != "" && v.Reason != s {
		if s != "" {
			s += ", "
		}
		s += v.Reason
	}
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}
