package lsp

import (
	"fmt"
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// The agents' instruction files (AGENTS.md, CLAUDE.md, .cursor/rules/x.mdc
// …) the editor opens are served as check serves them when named: their
// bullets get the reference rules and their load-budget findings, computed
// from the buffer as it is typed. They are not memory files: no memory
// rule, no store, no reconcile with the disk and no code action touches
// them, so their buffers are kept apart from the folder's memory buffers
// (folder.agents), in the folder of the workspace they belong to
// (memory.AgentFileRoot), which serves them as long as one is open.

// agentFile is the path of an agent's instruction file at uri and the
// .memory folder of the workspace it belongs to; ok is false for any other
// document, and for a memory file.
func agentFile(uri protocol.DocumentUri) (path, dir string, ok bool) {
	p, err := pathOf(uri)
	if err != nil || memory.IsMemoryFile(p) {
		return "", "", false
	}
	root, ok := memory.AgentFileRoot(p)
	if !ok {
		return "", "", false
	}
	return p, memory.Dir(root), true
}

// lookupAgent finds the open buffer of an agent's file by its path as the
// editor names it: the folder serving it and the buffer, or nil.
func (s *Server) lookupAgent(path string) (*folder, *document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.folders {
		if d := f.agents[path]; d != nil {
			return f, d
		}
	}
	return nil, nil
}

// agentBuffers are f's open agents' files, by their path in f's views, in
// path order.
func (s *Server) agentBuffers(f *folder) []*document {
	return sortedValues(&s.mu, f.agents, func(d *document) string { return d.path })
}

func (s *Server) didOpenAgent(p *openParams, path, dir string) {
	key := canonicalDir(dir)
	s.mu.Lock()
	f := s.folderLocked(key)
	if f == nil {
		f = newFolder(dir, key)
		s.folders[key] = f
	}
	// Named in the view below the folder's root as the folder spells it,
	// as the budgets name the files they read.
	name := path
	if rel, err := filepath.Rel(filepath.Dir(dir), path); err == nil && filepath.IsLocal(rel) {
		name = filepath.Join(filepath.Dir(f.dir), rel)
	}
	text := []byte(p.TextDocument.Text)
	if text == nil {
		text = []byte{}
	}
	f.agents[path] = makeDocument(p.TextDocument.URI, name, p.TextDocument.Version, text, nil)
	s.mu.Unlock()
	s.rewatch()
	s.publish(f)
}

// openAgent is the open buffer of the agent's file at uri and the folder
// serving it; nil, after a warning, for an agent's file that is not open,
// and nil for any other document.
func (s *Server) openAgent(uri protocol.DocumentUri, method string) (*folder, *document, string) {
	path, err := pathOf(uri)
	if err != nil {
		return nil, nil, ""
	}
	f, d := s.lookupAgent(path)
	if d == nil {
		if _, _, ok := agentFile(uri); ok {
			s.log.Warningf("ignoring %s for %s: it is not open", method, path)
		}
	}
	return f, d, path
}

func (s *Server) didChangeAgent(p *protocol.DidChangeTextDocumentParams) {
	f, d, path := s.openAgent(p.TextDocument.URI, "didChange")
	if d == nil {
		return
	}
	next, err := d.apply(p.TextDocument.Version, p.ContentChanges)
	if err != nil {
		// As for a memory file: the last good text stays, rather than one
		// whose positions are all wrong.
		s.log.Errorf("rejected didChange for %s: %v", path, err)
		return
	}
	s.mu.Lock()
	if f.agents[path] == d {
		f.agents[path] = next
	}
	s.mu.Unlock()
	s.schedule(f, s.opt.Debounce)
}

// didSaveAgent checks at once, as a save of a memory file does: a change
// still waiting for its debounce is shown now.
func (s *Server) didSaveAgent(uri protocol.DocumentUri) {
	if f, d, _ := s.openAgent(uri, "didSave"); d != nil {
		s.schedule(f, 0)
	}
}

// didCloseAgent drops the buffer: the folder shows the file as it is on
// disk again (its load-budget findings, if any; else an empty list).
func (s *Server) didCloseAgent(uri protocol.DocumentUri) {
	f, d, path := s.openAgent(uri, "didClose")
	if d == nil {
		return
	}
	s.mu.Lock()
	delete(f.agents, path)
	s.mu.Unlock()
	s.closedIn(f)
}

// agentFiles is what a check of a folder reads of the agents' files open
// in the editor: their buffers, whose bullets are judged against repo.
func agentFiles(open []*document, repo rules.Repo) memory.AgentFiles {
	named := make([]string, len(open))
	for i, d := range open {
		named[i] = d.path
	}
	return memory.AgentFiles{Named: named, Repo: repo, Read: func(p string) ([]byte, error) {
		for _, d := range open {
			if d.path == p {
				return d.text, nil
			}
		}
		return nil, fmt.Errorf("%s is not open", p)
	}}
}
