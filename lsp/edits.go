package lsp

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// This file turns core's byte edits into WorkspaceEdits and carries out
// writes: open buffers change through workspace/applyEdit (the editor owns
// them), closed files through store.Workspace.Update (lock, re-read, atomic
// replace). A file that is open is never written to disk.

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
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil {
		return d.uri
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
		return fmt.Errorf("the editor refused the change to its open buffer (%s)", reason)
	}
	return nil
}

// planFunc decides a write: given the files of a .memory folder (open
// buffers in place of their disk contents), it returns the new bytes of
// every file to change, by path. It must only decide: write may call it twice
// (once on the view, again inside the lock on a fresh read).
type planFunc func(files []rules.File, cfg config.Config) (map[string][]byte, error)

// write carries out a plan in root's .memory folder and returns the paths it
// changed. Open files are changed first, with one workspace/applyEdit for
// all of them; if the editor refuses, nothing is written. Closed files are
// then written inside store.Workspace.Update, where the plan runs again on a
// fresh read (with the same buffer contents): a closed file that changed on
// disk in between gets the re-planned bytes, and a plan that no longer
// matches what the editor applied is an error rather than a silent mix.
func (s *Server) write(ctx context.Context, root, label string, plan planFunc) ([]string, error) {
	dir := memoryDir(root)
	v, cfg := s.snapshot(dir)
	out, err := plan(v.files, cfg)
	if err != nil {
		return nil, err
	}
	bufs := map[string][]byte{}
	for i, f := range v.files {
		if v.versions[i] >= 0 {
			bufs[f.Path] = f.Doc.Src
		}
	}
	var open []fileEdits
	closed := 0
	for path, data := range out {
		i := v.find(path)
		if i >= 0 && v.versions[i] >= 0 {
			if !bytes.Equal(v.files[i].Doc.Src, data) {
				open = append(open, fileEdits{path: path, version: v.versions[i], src: v.files[i].Doc.Src, ix: v.ix(i), edits: []text.Edit{lineDiff(v.files[i].Doc.Src, data)}})
			}
			continue
		}
		closed++
	}
	var changed []string
	defer func() {
		if len(changed) > 0 {
			s.schedule(dir, 0)
		}
	}()
	if len(open) > 0 {
		we, err := s.workspaceEdit(open)
		if err != nil {
			return nil, err
		}
		if err := s.applyEdit(ctx, label, we); err != nil {
			return nil, fmt.Errorf("%w; nothing was written", err)
		}
		for _, p := range open {
			changed = append(changed, p.path)
		}
	}
	if closed == 0 {
		sort.Strings(changed)
		return changed, nil
	}
	ws, err := store.Open(root)
	if err != nil {
		return changed, err
	}
	written, err := ws.Update(ctx, func(snap *store.Snapshot) ([]store.Change, error) {
		files := memory.Overlay(snap, bufs)
		again, err := plan(files, cfg)
		if err != nil {
			return nil, err
		}
		var changes []store.Change
		for path, data := range again {
			if _, ok := bufs[path]; ok {
				if !bytes.Equal(data, out[path]) {
					return nil, fmt.Errorf("%s changed on disk while the command ran, after its open buffer was edited; run the command again", filepath.Base(path))
				}
				continue
			}
			if s.currentVersion(path) >= 0 {
				return nil, fmt.Errorf("%s was opened in the editor while the command ran; run the command again", filepath.Base(path))
			}
			changes = append(changes, store.Change{Path: path, Data: data})
		}
		sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
		return changes, nil
	})
	// Our own write: the folder's cached disk side is stale (also after a
	// failure, which may come after some files were written).
	s.invalidateDisk(dir)
	if err != nil && len(changed) > 0 {
		names := make([]string, len(changed))
		for i, p := range changed {
			names[i] = filepath.Base(p)
		}
		err = fmt.Errorf("the open buffer of %s was changed, but writing the files that are not open failed: %w", strings.Join(names, ", "), err)
	}
	for _, c := range written {
		changed = append(changed, c.Path)
	}
	sort.Strings(changed)
	return changed, err
}

// showInfo tells the user the outcome of a command: Helix drops command
// results, so a message is the only way its users see them.
func (s *Server) showInfo(message string) {
	s.conn.Notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: message})
}

// plural is "1 entry" / "2 entries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// shorten cuts s to at most n characters, with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n]), " ") + "…"
}
