package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Held writes (issue 30): each write waiting for review shows as an info
// diagnostic on the first line of the file it would be stored into, with
// code actions that approve or reject it (the memory.review command), and
// the user is told once of each write held since they last looked.

const cmdReview = "memory.review"

// readHeld reads f's review queue (nil when it cannot be read: the
// reason is logged, and stores that need the queue say it).
func (s *Server) readHeld(f *folder) []memory.Held {
	all, err := memory.ReadHeldIn(f.dir)
	if err != nil {
		s.log.Warningf("reading the review queue of %s: %v", f.dir, err)
	}
	return all
}

// heldOf returns the held writes of all the view v can show, and the
// findings that show them, in the same order.
func heldOf(v *view, all []memory.Held) ([]memory.Held, []rules.Finding) {
	var held []memory.Held
	var out []rules.Finding
	for _, h := range all {
		if fd, ok := memory.HeldFinding(v.files, h); ok {
			held, out = append(held, h), append(out, fd)
		}
	}
	return held, out
}

// tellHeld shows a message for the held writes the user was not told of.
// The first reading of a folder counts what waits; later ones name what
// is new (a store the user made here was told in its reply: noteHeld).
func (s *Server) tellHeld(f *folder, all []memory.Held) {
	s.mu.Lock()
	first := f.heldShown == nil
	if first {
		f.heldShown = map[string]bool{}
	}
	var fresh []memory.Held
	for _, h := range all {
		if !f.heldShown[h.ID] {
			fresh = append(fresh, h)
			f.heldShown[h.ID] = true
		}
	}
	s.mu.Unlock()
	switch {
	case len(fresh) == 0:
	case first:
		s.showInfo(fmt.Sprintf("%s: %s held for review in %s; the first line of each memory file shows them, with actions to approve or reject (or run memory-lsp review).", Name, plural(len(fresh), "write is", "writes are"), filepath.Join(f.dir, memory.HeldQueue)))
	case len(fresh) == 1:
		h := fresh[0]
		s.showInfo(fmt.Sprintf("%s: a write by %s is held for review: \"%s\". Approve or reject it from the first line of %s.", Name, h.Who(), memory.Printable(h.Content), h.File()))
	default:
		s.showInfo(fmt.Sprintf("%s: %d new writes are held for review; approve or reject them from the first line of each memory file.", Name, len(fresh)))
	}
}

// noteHeld records that the user was told of a held write in a reply.
func (s *Server) noteHeld(root string, id string) {
	f := s.folderFor(memory.Dir(root))
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.heldShown == nil {
		f.heldShown = map[string]bool{}
	}
	f.heldShown[id] = true
}

// heldActions are the approve and reject actions of the held writes whose
// diagnostics lie in sp of file fi.
func (s *Server) heldActions(f *folder, v *view, fi int, sp text.Span) []protocol.CodeAction {
	held, findings := heldOf(v, s.readHeld(f))
	var out []protocol.CodeAction
	for k, fd := range findings {
		if fd.File != fi || !intersects(fd.Span, sp) {
			continue
		}
		d, err := s.diagnostic(v, fd)
		if err != nil {
			continue
		}
		h := held[k]
		root := filepath.Dir(f.dir)
		for _, a := range []struct {
			title   string
			approve bool
		}{{fmt.Sprintf("Approve into %s: \"%s\"", h.File(), memory.Printable(h.Content)), true}, {fmt.Sprintf("Reject: \"%s\"", memory.Printable(h.Content)), false}} {
			kind := kindQuickFix
			out = append(out, protocol.CodeAction{Title: a.title, Kind: &kind, Diagnostics: []protocol.Diagnostic{d},
				Command: &protocol.Command{Title: a.title, Command: cmdReview, Arguments: []any{reviewArg{ID: h.ID, Approve: a.approve, Content: h.Content, rootArg: rootArg{Root: root}}}}})
		}
	}
	return out
}

// reviewArg is memory.review's argument.
type reviewArg struct {
	ID      string `json:"id"`
	Approve bool   `json:"approve"`
	// Content is the text the action showed: a record that says anything
	// else is not reviewed on the person's word.
	Content string `json:"content,omitempty"`
	rootArg
}

type reviewResult struct {
	Message  string                 `json:"message"`
	Reviewed []memory.ReviewOutcome `json:"reviewed"`
	*writeReport
}

// cmdReview approves or rejects a held write: a person in the editor.
func (s *Server) cmdReview(ctx context.Context, _ string, raw json.RawMessage) (any, error) {
	var a reviewArg
	root, err := argsAndRoot(s, raw, &a)
	if err != nil {
		return nil, err
	}
	if a.ID == "" {
		return nil, &memory.InputError{Field: "id", Problem: "give the id of a held write"}
	}
	var out []memory.ReviewOutcome
	plan := memory.ReviewPlan(memory.Dir(root), memory.ReviewRequest{IDs: []string{a.ID}, Approve: a.Approve, Content: a.Content}, s.writer(), &out)
	rep, err := s.write(ctx, root, "Review memory", plan)
	if err != nil {
		return nil, err
	}
	res := reviewResult{Reviewed: slices.Clip(out), writeReport: rep}
	if res.Reviewed == nil {
		res.Reviewed = []memory.ReviewOutcome{}
	}
	for _, o := range out {
		if o.Store != nil {
			res.Message = "Approved: " + memory.Printable(o.Store.Message)
		} else {
			res.Message = fmt.Sprintf("Rejected: \"%s\" (nothing stored).", memory.Printable(o.Held.Content))
		}
	}
	res.Message += rep.problems()
	s.showInfo(res.Message)
	return res, nil
}
