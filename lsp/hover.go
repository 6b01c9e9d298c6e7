package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

func init() {
	onRequest("textDocument/hover", (*Server).hover)
}

// fileHover is the hover on a category file's first line: its size in
// bytes, lines and estimated tokens against the agents' limits.
func fileHover(ix *text.Index, f *rules.File, cfg config.Config) (any, error) {
	sum := memory.FileSummary(cfg, *f)
	if sum == "" {
		return nil, nil
	}
	r, err := toRange(ix, text.Span{Start: 0, End: ix.LineEnd(0)})
	if err != nil {
		return nil, nil
	}
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: "**" + f.Name + "**: " + sum}, Range: &r}, nil
}

// maxSimilar is how many similar entries a hover lists.
const maxSimilar = 3

// hover describes the entry under the cursor: slug, category, pruning
// score, the category's usage against its limit, and the entries of the same
// file most similar to it; on a reference the entry cites, what the
// reference resolves to (referenceHover). Anywhere else it returns null.
func (s *Server) hover(_ context.Context, p *protocol.HoverParams) (any, error) {
	served, v, fi, cfg := s.documentViewIn(p.TextDocument.URI)
	if fi < 0 || !v.files[fi].IsCategory {
		return nil, nil
	}
	f := &v.files[fi]
	ix := v.ix(fi)
	off, err := fromPosition(ix, p.Position)
	if err != nil {
		return nil, nil
	}
	at := memory.EntryAtOffset(f.Doc, off)
	if at < 0 {
		if p.Position.Line == 0 {
			// The top of the file: its size, and what the agents' file
			// tools make of it (load-budget).
			return fileHover(ix, f, cfg)
		}
		return nil, nil
	}
	if h := s.referenceHover(served, v, fi, cfg, off); h != nil {
		return *h, nil
	}
	e := &f.Doc.Entries[at]
	d := memory.DescribeEntry(f, at, cfg, maxSimilar)

	var b strings.Builder
	if d.HasSlug {
		fmt.Fprintf(&b, "**[%s]** · %s", d.Slug, d.Category)
	} else {
		fmt.Fprintf(&b, "*(no slug)* · %s", d.Category)
	}
	fmt.Fprintf(&b, "\n\nPruning score **%d** (category %d + brevity %d + specificity %d) · %s: %d/%d entries",
		d.Score, d.Weight, d.Brevity, d.Specificity, d.Category.Plural(), d.Count, d.Limit)
	if len(d.Similar) == 0 {
		fmt.Fprintf(&b, "\n\nNo similar entry in %s.", f.Name)
	} else {
		fmt.Fprintf(&b, "\n\nMost similar in %s:", f.Name)
		for _, n := range d.Similar {
			// The editor's line, which a lone CR also ends.
			line := 0
			if pos, err := ix.Position(n.Start); err == nil {
				line = pos.Line + 1
			}
			note := ""
			if n.Note != "" {
				note = " (" + n.Note + ")"
			}
			fmt.Fprintf(&b, "\n- line %d, %.0f%%%s: %s", line, n.Similarity*100, note, text.Clip(n.Content, 80))
		}
	}
	if prov, err := memory.ReadProvenance(filepath.Dir(f.Path)); err == nil {
		if p, ok := prov[[2]string{f.Name, e.Content}]; ok {
			// A code span: the writer named itself, and its name must
			// not render as markup (a link, an image, bold "verified").
			fmt.Fprintf(&b, "\n\nWritten by `%s`.", strings.ReplaceAll(p.Who(), "`", "'"))
		}
	}
	r, err := toRange(ix, memory.EntrySpan(f.Doc, at))
	if err != nil {
		return nil, nil
	}
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()}, Range: &r}, nil
}

// referenceHover is the hover on the reference under byte offset off of
// file fi: what memory.DescribeCitation says it resolves to. It is nil
// where no reference is, and where the description is empty: the entry's
// own hover is shown there.
func (s *Server) referenceHover(f *folder, v *view, fi int, cfg config.Config, off int) *protocol.Hover {
	file := &v.files[fi]
	c, ok := f.cites.At(file, off)
	if !ok {
		return nil
	}
	msg := memory.DescribeCitation(s.repoOf(f, cfg).repo, filepath.Dir(f.dir), file, c, time.Now())
	if msg == "" {
		return nil
	}
	r, err := toRange(v.ix(fi), c.Span)
	if err != nil {
		return nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: msg}, Range: &r}
}
