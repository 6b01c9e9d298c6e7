package main

import (
	"encoding/json"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// lspSession is `memory-lsp serve --stdio` in an archive's workspace,
// initialized with the archive's settings, with every memory file of the
// archive open as an editor opens it.
type lspSession struct {
	c    *lsptest.Client
	ws   *archiveWorkspace
	uris map[string]string // by archive path
}

func startLSP(t *testing.T, ws *archiveWorkspace) *lspSession {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--stdio")
	cmd.Dir = ws.root
	c := lsptest.Start(t, cmd)
	t.Cleanup(c.Shutdown)
	// The settings go both ways an editor sends them: as
	// initializationOptions and as the answer to a configuration pull.
	var settings map[string]any
	b, err := json.Marshal(ws.fx.Settings)
	if err == nil {
		err = json.Unmarshal(b, &settings)
	}
	if err != nil {
		t.Fatal(err)
	}
	c.SetSettings(map[string]any{"memory": settings})
	c.Initialize(lsptest.InitializeParams(ws.root, map[string]any{"memory": settings}))
	s := &lspSession{c: c, ws: ws, uris: map[string]string{}}
	for _, f := range ws.fx.Files {
		if path.Base(path.Dir(f.Path)) == ".memory" && strings.HasSuffix(f.Path, ".md") {
			s.uris[f.Path] = c.Open(ws.path(f.Path), string(f.Data))
		}
	}
	return s
}

// diagnostics are the diagnostics of an open file as they first are: the
// files never change while they are asked for, so every publish for
// version 1 holds the same.
func (s *lspSession) diagnostics(p string) *lsptest.Diagnostics {
	return s.c.AwaitDiagnostics(s.uris[p], 1, lsptest.Timeout)
}

var lspSeverities = map[int]string{1: "error", 2: "warning", 3: "info", 4: "hint"}

// lspFindings collects what the server publishes for each file, in the
// archive's file order, and for each diagnostic want/findings shows, the
// titles of the quick fixes offered for it.
func lspFindings(t *testing.T, ws *archiveWorkspace) []fixture.Finding {
	s := startLSP(t, ws)
	var out []fixture.Finding
	for _, f := range ws.fx.Files {
		if s.uris[f.Path] == "" {
			continue
		}
		for _, d := range s.diagnostics(f.Path).Diagnostics {
			// LSP positions count UTF-16 units from 0, the archives from 1.
			g := fixture.Finding{Path: f.Path, Line: d.Range.Start.Line + 1, Col: d.Range.Start.Character + 1,
				Severity: lspSeverities[d.Severity], Code: d.Code, Message: d.Message}
			for _, r := range d.RelatedInformation {
				g.Related = append(g.Related, fixture.Related{Path: s.path(t, r.Location.URI),
					Line: r.Location.Range.Start.Line + 1, Col: r.Location.Range.Start.Character + 1, Message: r.Message})
			}
			if ws.fx.Shows(d.Code) {
				for _, a := range s.quickFixes(t, f.Path, d) {
					g.Fixes = append(g.Fixes, fixture.Fix{Title: a.Title})
				}
			}
			out = append(out, g)
		}
	}
	return out
}

// path is the archive path of a URI the server sent.
func (s *lspSession) path(t *testing.T, uri string) string {
	t.Helper()
	p, err := lsptest.PathOf(uri)
	if err != nil {
		t.Fatal(err)
	}
	return s.ws.rel(t, p)
}

// lspAction is a code action as an editor reads it.
type lspAction struct {
	Title       string               `json:"title"`
	Kind        string               `json:"kind"`
	Diagnostics []lsptest.Diagnostic `json:"diagnostics"`
	Edit        json.RawMessage      `json:"edit"`
	Command     *struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

// codeActions asks for the actions of kind only over r in file p.
func (s *lspSession) codeActions(t *testing.T, p string, r lsptest.Range, diags []lsptest.Diagnostic, only string) []lspAction {
	t.Helper()
	var actions []lspAction
	s.c.RequestInto("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": s.uris[p]},
		"range":        r,
		"context":      map[string]any{"diagnostics": diags, "only": []string{only}},
	}, &actions)
	return actions
}

// quickFixes are the quick fixes the server offers for diagnostic d, as an
// editor shows them under it: those of the actions over its range that name
// it.
func (s *lspSession) quickFixes(t *testing.T, p string, d lsptest.Diagnostic) []lspAction {
	t.Helper()
	var out []lspAction
	for _, a := range s.codeActions(t, p, d.Range, []lsptest.Diagnostic{d}, "quickfix") {
		for _, ad := range a.Diagnostics {
			if ad.Code == d.Code && ad.Range == d.Range && ad.Message == d.Message {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// apply does what an editor does with a chosen action: applies its edit
// (to the open buffers, telling the server) and runs its command.
func (s *lspSession) apply(t *testing.T, a lspAction) {
	t.Helper()
	if len(a.Edit) > 0 && string(a.Edit) != "null" {
		if err := s.c.ApplyEdit(a.Edit); err != nil {
			t.Fatalf("applying %q: %v", a.Title, err)
		}
	}
	if a.Command != nil {
		s.c.RequestInto("workspace/executeCommand", map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}, nil)
	}
}

// texts are the editor's buffers, by archive path.
// texts is what the editor holds of each archive file: the open buffers,
// and for the files it never opened (the code beside .memory, which no fix
// edits) what is on disk.
func (s *lspSession) texts(t *testing.T) map[string][]byte {
	out := s.ws.readFiles(t)
	for p, uri := range s.uris {
		out[p] = []byte(s.c.Text(uri))
	}
	return out
}
