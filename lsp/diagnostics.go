package lsp

import (
	"os"
	"path/filepath"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// view is one .memory folder as the server sees it: the files on disk with
// open buffers in place of their disk contents.
type view struct {
	dir      string
	files    []rules.File
	versions []int32 // version of the open buffer a file came from; -1 from disk
	index    []*text.Index
	uris     []protocol.DocumentUri
}

// snapshot builds the view of dir. A folder that cannot be read yields the
// open buffers alone. The disk side comes from the folder's cache while it
// is valid (diskcache.go), and each open buffer is parsed once per version;
// v.files is the view's own slice, which callers may change.
func (s *Server) snapshot(dir string) (*view, config.Config) {
	s.mu.Lock()
	cfg := s.cfg
	open := map[string]*document{}
	for p, d := range s.docs {
		if filepath.Dir(p) == dir {
			open[p] = d
		}
	}
	s.mu.Unlock()
	names := make(map[string]bool, len(open))
	for p := range open {
		names[filepath.Base(p)] = true
	}
	snap, parsed := s.diskFiles(dir, names)
	v := &view{dir: dir, files: overlayFiles(snap, parsed, open)}
	v.versions = make([]int32, len(v.files))
	v.index = make([]*text.Index, len(v.files))
	v.uris = make([]protocol.DocumentUri, len(v.files))
	for i, f := range v.files {
		v.versions[i] = -1
		if d := open[f.Path]; d != nil {
			v.versions[i] = d.version
			if !f.TooLarge() {
				v.index[i] = d.ix // the same bytes, already indexed
			}
		}
	}
	return v, cfg
}

// uri is file i's URI.
func (v *view) uri(i int) protocol.DocumentUri {
	if v.uris[i] == "" {
		v.uris[i] = uriOf(v.files[i].Path)
	}
	return v.uris[i]
}

// documentView is the view of the .memory folder holding the document at
// uri, and the document's index in it; fi is -1 for a document the server
// does not serve, which then gets an empty answer. A file over
// rules.MaxFileBytes is not analysed (it has no lines or entries, only its
// file-too-large diagnostic), so it gets the empty answer too.
func (s *Server) documentView(uri protocol.DocumentUri) (v *view, fi int, cfg config.Config) {
	path := memoryPath(uri)
	if path == "" {
		return nil, -1, cfg
	}
	v, cfg = s.snapshot(filepath.Dir(path))
	fi = v.find(path)
	if fi >= 0 && v.files[fi].TooLarge() {
		fi = -1
	}
	return v, fi, cfg
}

// ix is the line index of file i, built on first use. A file over
// rules.MaxFileBytes gets the index of an empty text: its one finding sits
// at offset 0, and scanning megabytes for line starts nobody asks for is
// exactly the work the limit exists to avoid.
func (v *view) ix(i int) *text.Index {
	if v.index[i] == nil {
		src := v.files[i].Doc.Src
		if v.files[i].TooLarge() {
			src = nil
		}
		v.index[i] = text.NewIndex(src)
	}
	return v.index[i]
}

// schedule publishes dir's diagnostics after delay; a newer schedule for the
// same folder replaces the pending one, which is the debounce.
func (s *Server) schedule(dir string, delay time.Duration) {
	if delay <= 0 {
		s.mu.Lock()
		if t := s.timers[dir]; t != nil {
			t.Stop()
			delete(s.timers, dir)
		}
		s.mu.Unlock()
		s.publishDir(dir)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateRunning {
		return
	}
	if t := s.timers[dir]; t != nil {
		t.Stop()
	}
	s.timers[dir] = time.AfterFunc(delay, func() {
		s.mu.Lock()
		delete(s.timers, dir)
		s.mu.Unlock()
		s.publishDir(dir)
	})
}

// publishDir checks one .memory folder and publishes every file's
// diagnostics: cross-file findings (duplicate slugs, near-duplicates) change
// when any file changes, so all files are refreshed together. A file whose
// buffer changed while the check ran is skipped: its own pending check will
// publish for the newer version. Checks of one folder run one at a time; a
// folder the server no longer serves has its diagnostics cleared instead.
func (s *Server) publishDir(dir string) {
	defer s.lockDir(dir)()
	if !s.serves(dir) {
		s.dropChecker(dir)
		s.dropDisk(dir)
		s.clearDir(dir)
		return
	}
	v, cfg := s.snapshot(dir)
	findings := s.checker(dir).Check(v.files, cfg)
	// Each file's findings, in order; each file is encoded (publish.go) just
	// before it is sent, into one buffer sized for the largest.
	own := make([][]int32, len(v.files))
	for k, f := range findings {
		own[f.File] = append(own[f.File], int32(k))
	}
	largest := 0
	for _, o := range own {
		largest = max(largest, len(o))
	}
	seen := map[string]bool{}
	var body []byte
	for i, f := range v.files {
		seen[f.Path] = true
		if v.versions[i] >= 0 && s.currentVersion(f.Path) != v.versions[i] {
			continue
		}
		if body == nil {
			body = make([]byte, 0, 256+largest*diagnosticBytes)
		}
		body = appendNotificationStart(body[:0], "textDocument/publishDiagnostics")
		body = s.appendPublishParams(body, v, i, findings, own[i])
		body = append(body, '}')
		s.conn.notifyEncoded(body)
	}
	// Files that vanished since the last publish get an empty list.
	s.mu.Lock()
	var gone []string
	for p := range s.shown {
		if filepath.Dir(p) == dir && !seen[p] {
			gone = append(gone, p)
			delete(s.shown, p)
		}
	}
	for p := range seen {
		s.shown[p] = true
	}
	s.mu.Unlock()
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			continue
		}
		s.conn.Notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uriOf(p), Diagnostics: []protocol.Diagnostic{}})
	}
}

// checker is dir's rules.Checker, which reuses the analyses and similarity
// pairs of the folder's previous check: an edit changes one entry of
// thousands. The caller holds dir's publish lock, so one check at a time
// runs on it (the Checker would serialise them anyway).
func (s *Server) checker(dir string) *rules.Checker {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.checkers[dir]
	if c == nil {
		c = new(rules.Checker)
		s.checkers[dir] = c
	}
	return c
}

// dropChecker forgets a folder the server no longer serves, and the memory
// its checker holds.
func (s *Server) dropChecker(dir string) {
	s.mu.Lock()
	delete(s.checkers, dir)
	s.mu.Unlock()
}

// currentVersion is the open buffer's version, or -1 when it is not open.
func (s *Server) currentVersion(path string) int32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil {
		return d.version
	}
	return -1
}

var severities = [...]protocol.DiagnosticSeverity{
	rules.Error:       protocol.DiagnosticSeverityError,
	rules.Warning:     protocol.DiagnosticSeverityWarning,
	rules.Information: protocol.DiagnosticSeverityInformation,
	rules.Hint:        protocol.DiagnosticSeverityHint,
}

// diagnostic renders a core finding.
func (s *Server) diagnostic(v *view, f rules.Finding) (protocol.Diagnostic, error) {
	r, err := toRange(v.ix(f.File), f.Span)
	if err != nil {
		return protocol.Diagnostic{}, err
	}
	sev := severities[f.Severity]
	source := Name
	d := protocol.Diagnostic{Range: r, Severity: &sev, Code: &protocol.IntegerOrString{Value: f.Code}, Source: &source, Message: f.Message}
	for _, rel := range f.Related {
		rr, err := toRange(v.ix(rel.File), rel.Span)
		if err != nil {
			return protocol.Diagnostic{}, err
		}
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uriOf(v.files[rel.File].Path), Range: rr}, Message: rel.Message})
	}
	if f.Code == "duplicate" {
		d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	return d, nil
}
