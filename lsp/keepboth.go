package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// "Keep both" on a pair of entries (a near-duplicate, a sibling, a
// conflict) changes no text: the person decided the two lines are two
// facts. The server remembers the pair, by the two texts, for the rest of
// the session and stops reporting it; editing either line makes it a new
// pair that is reported again. The choice is not written anywhere: the
// memory files are HackLM's format, which has no place for it, and `check`
// and `cleanup` keep listing the pair (as information) for the team.

const cmdKeepBoth = "memory.keepBoth"

// keepBothArgs name the pair: the file and the text of both entries.
type keepBothArgs struct {
	File    string    `json:"file"`
	Entries [2]string `json:"entries"`
}

// pairTexts is the finding's pair as keepBothArgs, if it is a pair finding.
func pairTexts(v *view, f rules.Finding) (keepBothArgs, bool) {
	if len(f.Related) != 1 || !f.Traits().KeepBoth {
		return keepBothArgs{}, false
	}
	r := f.Related[0]
	a, b := v.files[f.File].Doc.Src, v.files[r.File].Doc.Src
	if f.Span.End > len(a) || r.Span.End > len(b) {
		return keepBothArgs{}, false
	}
	return keepBothArgs{File: v.files[f.File].Path, Entries: [2]string{string(a[f.Span.Start:f.Span.End]), string(b[r.Span.Start:r.Span.End])}}, true
}

// keptKey is the pair's key, the same whichever entry comes first.
func keptKey(a keepBothArgs) string {
	x, y := a.Entries[0], a.Entries[1]
	if y < x {
		x, y = y, x
	}
	return canonicalDir(filepath.Dir(a.File)) + "\x00" + filepath.Base(a.File) + "\x00" + x + "\x00" + y
}

// withoutKept drops the findings on pairs kept in this session; the slice
// is returned as it is when there are none.
func (s *Server) withoutKept(v *view, findings []rules.Finding) []rules.Finding {
	s.mu.Lock()
	n := len(s.kept)
	s.mu.Unlock()
	if n == 0 {
		return findings
	}
	out := findings[:0:0]
	for _, f := range findings {
		if a, ok := pairTexts(v, f); ok {
			s.mu.Lock()
			kept := s.kept[keptKey(a)]
			s.mu.Unlock()
			if kept {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// keepBothAction is the code action of a finding's Keep both fix.
func keepBothAction(v *view, f rules.Finding, kind string, d *protocol.Diagnostic) (protocol.CodeAction, bool) {
	a, ok := pairTexts(v, f)
	if !ok {
		return protocol.CodeAction{}, false
	}
	k := kind
	return protocol.CodeAction{Title: rules.FixKeepBoth, Kind: &k, Diagnostics: []protocol.Diagnostic{*d},
		// An edit that changes nothing is the preview: both lines stay.
		Edit:    &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{}},
		Command: &protocol.Command{Title: rules.FixKeepBoth, Command: cmdKeepBoth, Arguments: []any{a}}}, true
}

func (s *Server) cmdKeepBoth(_ context.Context, _ string, raw json.RawMessage) (any, error) {
	var a keepBothArgs
	if err := memory.DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.File == "" || a.Entries[0] == "" || a.Entries[1] == "" {
		return nil, fmt.Errorf("%s needs {\"file\": path, \"entries\": [text, text]}", cmdKeepBoth)
	}
	s.mu.Lock()
	if s.kept == nil {
		s.kept = map[string]bool{}
	}
	s.kept[keptKey(a)] = true
	s.mu.Unlock()
	if f := s.folderAt(filepath.Dir(a.File)); f != nil {
		s.schedule(f, 0)
	}
	return map[string]any{"message": fmt.Sprintf("Kept both entries of %s; the pair is no longer reported in this session.", filepath.Base(a.File))}, nil
}
