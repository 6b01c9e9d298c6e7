package lsp

import (
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// This file is the only place that builds or reads protocol positions: core
// speaks byte offsets, LSP speaks (line, UTF-16 column), and text.Index does
// the arithmetic, rejecting positions that do not exist instead of clamping
// them somewhere else.

func toPosition(ix *text.Index, off int) (protocol.Position, error) {
	p, err := ix.Position(off)
	if err != nil {
		return protocol.Position{}, err
	}
	return protocol.Position{Line: protocol.UInteger(p.Line), Character: protocol.UInteger(p.Col)}, nil
}

// lineStart is the start of 1-based line n (the first line for n < 1) of a
// file the server has not read, such as a file an entry cites: without its
// text no column but the first can be named.
func lineStart(n int) protocol.Position {
	if n < 1 {
		return protocol.Position{}
	}
	return protocol.Position{Line: protocol.UInteger(n - 1)}
}

func toRange(ix *text.Index, s text.Span) (protocol.Range, error) {
	start, err := toPosition(ix, s.Start)
	if err != nil {
		return protocol.Range{}, err
	}
	end, err := toPosition(ix, s.End)
	if err != nil {
		return protocol.Range{}, err
	}
	return protocol.Range{Start: start, End: end}, nil
}

func fromPosition(ix *text.Index, p protocol.Position) (int, error) {
	return ix.Offset(text.Position{Line: int(p.Line), Col: int(p.Character)})
}

func fromRange(ix *text.Index, r protocol.Range) (text.Span, error) {
	start, err := fromPosition(ix, r.Start)
	if err != nil {
		return text.Span{}, fmt.Errorf("range start: %w", err)
	}
	end, err := fromPosition(ix, r.End)
	if err != nil {
		return text.Span{}, fmt.Errorf("range end: %w", err)
	}
	if end < start {
		return text.Span{}, fmt.Errorf("range end %d:%d is before its start %d:%d", r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return text.Span{Start: start, End: end}, nil
}

// toTextEdit converts a core edit against the bytes indexed by ix.
func toTextEdit(ix *text.Index, e text.Edit) (protocol.TextEdit, error) {
	r, err := toRange(ix, text.Span{Start: e.Start, End: e.End})
	if err != nil {
		return protocol.TextEdit{}, err
	}
	return protocol.TextEdit{Range: r, NewText: e.New}, nil
}
