package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// This file turns core's byte edits into WorkspaceEdits and asks the editor
// to apply them (write.go decides what changes where).

// find is the index of the file with path in the view, or -1.
func (v *view) find(path string) int {
	for i, f := range v.files {
		if f.Path == path {
			return i
		}
	}
	return -1
}

// fileEdits are edits to one file of a view, against the bytes the view holds.
type fileEdits struct {
	path    string
	version int32 // the open buffer's version, -1 when the file is not open
	src     []byte
	ix      *text.Index
	edits   []text.Edit
}

// uriFor is the URI the editor knows an open document by, or the file's URI.
func (s *Server) uriFor(path string) protocol.DocumentUri {
	if f := s.folderAt(filepath.Dir(path)); f != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if od := f.docLocked(filepath.Base(path)); od != nil {
			return od.doc.uri
		}
	}
	return uriOf(path)
}

// workspaceEdit converts per-file edits. With documentChanges support each
// file becomes a TextDocumentEdit carrying the buffer's version (null for a
// file that is not open), so an editor rejects an edit made for an older
// version instead of applying it at the wrong place.
func (s *Server) workspaceEdit(parts []fileEdits) (*protocol.WorkspaceEdit, error) {
	s.mu.Lock()
	docChanges := s.caps.documentChanges
	s.mu.Unlock()
	we := &protocol.WorkspaceEdit{}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].path < parts[j].path })
	for _, p := range parts {
		sorted, err := text.Sorted(p.edits, len(p.src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(p.path), err)
		}
		tes := make([]protocol.TextEdit, 0, len(sorted))
		for _, e := range sorted {
			te, err := toTextEdit(p.ix, e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", filepath.Base(p.path), err)
			}
			tes = append(tes, te)
		}
		uri := s.uriFor(p.path)
		if docChanges {
			id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}}
			if p.version >= 0 {
				ver := protocol.Integer(p.version)
				id.Version = &ver
			}
			anyEdits := make([]any, len(tes))
			for i := range tes {
				anyEdits[i] = tes[i]
			}
			we.DocumentChanges = append(we.DocumentChanges, protocol.TextDocumentEdit{TextDocument: id, Edits: anyEdits})
		} else {
			if we.Changes == nil {
				we.Changes = map[protocol.DocumentUri][]protocol.TextEdit{}
			}
			we.Changes[uri] = append(we.Changes[uri], tes...)
		}
	}
	return we, nil
}

// fixEdit is the WorkspaceEdit of a core fix against the view.
func (s *Server) fixEdit(v *view, edits []rules.FileEdit) (*protocol.WorkspaceEdit, error) {
	byFile := map[int][]text.Edit{}
	for _, fe := range edits {
		byFile[fe.File] = append(byFile[fe.File], fe.Edit)
	}
	parts := make([]fileEdits, 0, len(byFile))
	for fi, es := range byFile {
		parts = append(parts, fileEdits{path: v.files[fi].Path, version: v.versions[fi], src: v.files[fi].Doc.Src, ix: v.ix(fi), edits: es})
	}
	return s.workspaceEdit(parts)
}

// lineDiff is one edit turning old into new, covering whole lines: the
// common prefix and suffix are kept, cut back to line starts, so the edit's
// ends are always valid positions (never inside a character or a CRLF).
func lineDiff(old, new []byte) text.Edit {
	m := min(len(old), len(new))
	p := 0
	for p < m && old[p] == new[p] {
		p++
	}
	for p > 0 && old[p-1] != '\n' {
		p--
	}
	k := 0
	for k < m-p && old[len(old)-1-k] == new[len(new)-1-k] {
		k++
	}
	for k > 0 {
		if at := len(old) - k; at == 0 || old[at-1] == '\n' {
			break
		}
		k--
	}
	return text.Edit{Start: p, End: len(old) - k, New: string(new[p : len(new)-k])}
}

// applyEdit asks the editor to apply we and waits for its answer.
func (s *Server) applyEdit(ctx context.Context, label string, we *protocol.WorkspaceEdit) error {
	var res protocol.ApplyWorkspaceEditResponse
	if err := s.call(ctx, "workspace/applyEdit", protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *we}, &res); err != nil {
		return fmt.Errorf("the editor did not apply the change to its open buffer: %w", err)
	}
	if !res.Applied {
		reason := "no reason given"
		if res.FailureReason != nil && *res.FailureReason != "" {
			reason = *res.FailureReason
		}
		return fmt.Errorf("%w: %s", errEditRefused, reason)
	}
	return nil
}

// showInfo tells the user the outcome of a command: Helix drops command
// results, so a message is the only way its users see them.
func (s *Server) showInfo(message string) {
	s.conn.Notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: message})
}

// plural is "1 entry" / "2 entries".
func plural(n int, one, many string) string { return memory.Plural(n, one, many) }

// maxHunkScript bounds the line-matching behind bufferEdits: past that many
// inserted and deleted lines the change goes out as one edit.
const maxHunkScript = 64

// bufferEdits are the edits turning old into new, one per run of changed
// lines, so that an edit to an open buffer touches only the lines it
// changes: a store that prunes a line at the top and appends one at the end
// leaves the lines in between, where the user may be typing, alone.
func bufferEdits(old, new []byte) []text.Edit {
	whole := lineDiff(old, new)
	if whole.Start == whole.End || whole.New == "" {
		return []text.Edit{whole} // a pure insertion or deletion is one run
	}
	a := text.LinesWithEnds(string(old[whole.Start:whole.End]))
	b := text.LinesWithEnds(whole.New)
	type pair struct{ i, j int }
	var kept []pair
	if !text.MatchLines(a, b, maxHunkScript, func(i, j int) { kept = append(kept, pair{i, j}) }) {
		return []text.Edit{whole}
	}
	sort.Slice(kept, func(x, y int) bool { return kept[x].i < kept[y].i })
	kept = append(kept, pair{len(a), len(b)}) // the end closes the last run
	var edits []text.Edit
	offA, offB := whole.Start, 0 // byte offsets of line i in old, j in new
	i, j := 0, 0
	for _, k := range kept {
		startA, startB := offA, offB
		for ; i < k.i; i++ {
			offA += len(a[i])
		}
		for ; j < k.j; j++ {
			offB += len(b[j])
		}
		if offA > startA || offB > startB {
			edits = append(edits, text.Edit{Start: startA, End: offA, New: whole.New[startB:offB]})
		}
		if k.i < len(a) {
			offA += len(a[i])
			offB += len(b[j])
			i++
			j++
		}
	}
	return edits
}
