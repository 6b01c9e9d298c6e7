package lsp

import (
	"path/filepath"
	"slices"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// view is one .memory folder as the server sees it: the files on disk with
// open buffers in place of their disk contents.
type view struct {
	dir      string
	files    []rules.File
	versions []int32     // version of the open buffer a file came from; -1 from disk
	docs     []*document // the open buffer a file came from, or nil
	// disk is the read the disk side came from: while the folder keeps
	// one, two views of it share it.
	disk *memory.Disk
	// cache is disk when the folder keeps it (nil when it was read for
	// this view alone), which keeps the line index of its files.
	cache *memory.Disk
	// repo is the repository a checked view was judged against (nil when
	// none), which a fix-all of it must judge against too.
	repo rules.Repo

	// lazy guards index and uris, built on first use: a view that was
	// checked is shared by the requests served from that check.
	lazy  sync.Mutex
	index []*text.Index
	uris  []protocol.DocumentUri
	// actions are the file-wide code actions of a checked view.
	actions actionCache
	// mem is how many of files are the folder's memory files when
	// agentsAdded; the rest (withAgentFiles) are the agents' files beside
	// them that a finding names or the editor has open.
	mem         int
	agentsAdded bool
	// agents are the open buffers of the agents' files of the folder
	// (agentfiles.go) as the view was taken, in path order.
	agents []*document
}

// memFiles are the view's memory files, without the agents' files a check
// added after them.
func (v *view) memFiles() []rules.File {
	if !v.agentsAdded {
		return v.files
	}
	return v.files[:v.mem]
}

// withAgentFiles adds the agents' files a check read beside the memory
// files (memory.AgentFileFindings), after them: those its findings name,
// read from disk, and those open in the editor (v.agents), read from their
// buffers, which their diagnostics are published for.
func (v *view) withAgentFiles(extra []rules.File) {
	if len(extra) == 0 {
		return
	}
	v.mem, v.agentsAdded = len(v.files), true
	v.files = append(slices.Clip(v.files), extra...)
	for _, file := range extra {
		version, doc, uri, ix := int32(-1), (*document)(nil), protocol.DocumentUri(""), (*text.Index)(nil)
		if k := slices.IndexFunc(v.agents, func(d *document) bool { return d.path == file.Path }); k >= 0 {
			doc = v.agents[k]
			version, uri = doc.version, doc.uri
			if !file.TooLarge() {
				ix = doc.ix // the same bytes, already indexed
			}
		}
		v.versions = append(v.versions, version)
		v.docs = append(v.docs, doc)
		v.index = append(v.index, ix)
		v.uris = append(v.uris, uri)
	}
}

// openDocs is f's open buffers at their latest versions, by view path.
func (s *Server) openDocs(f *folder) map[string]*document {
	s.mu.Lock()
	defer s.mu.Unlock()
	open := make(map[string]*document, len(f.docs))
	for _, od := range f.docs {
		open[od.doc.path] = od.doc
	}
	return open
}

// snapshot builds the view of folder f. A folder that cannot be read yields
// the open buffers alone. The disk side comes from the folder's cache while
// a stat vouches for it (diskcache.go), and each open buffer is parsed once per
// version; v.files is the view's own slice, which callers may change.
func (s *Server) snapshot(f *folder) (*view, config.Config) {
	// The agents whose budgets are judged are read from the folder's root
	// each time: a CLAUDE.md created beside it counts from the next check.
	cfg := memory.WithAgents(s.config(), filepath.Dir(f.dir))
	open := s.openDocs(f)
	names := make(map[string]bool, len(open))
	bufs := make(map[string]func() rules.File, len(open))
	for p, d := range open {
		names[filepath.Base(p)] = true
		bufs[p] = d.file
	}
	disk, kept := s.diskFiles(f, names)
	v := &view{dir: f.dir, files: disk.Overlay(bufs), disk: disk, agents: s.agentBuffers(f)}
	if kept {
		v.cache = disk
	}
	v.versions = make([]int32, len(v.files))
	v.docs = make([]*document, len(v.files))
	v.index = make([]*text.Index, len(v.files))
	v.uris = make([]protocol.DocumentUri, len(v.files))
	for i, file := range v.files {
		v.versions[i] = -1
		if d := open[file.Path]; d != nil {
			v.versions[i], v.docs[i], v.uris[i] = d.version, d, d.uri
			if !file.TooLarge() {
				v.index[i] = d.ix // the same bytes, already indexed
			}
		}
	}
	return v, cfg
}

// uri is file i's URI: the one the editor opened it by, else the file's.
func (v *view) uri(i int) protocol.DocumentUri {
	v.lazy.Lock()
	defer v.lazy.Unlock()
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
	_, v, fi, cfg = s.documentViewIn(uri)
	return v, fi, cfg
}

// documentViewIn is documentView with the folder the view is of.
func (s *Server) documentViewIn(uri protocol.DocumentUri) (f *folder, v *view, fi int, cfg config.Config) {
	f, name := s.documentFolder(uri)
	if f == nil {
		return nil, nil, -1, cfg
	}
	v, cfg = s.snapshot(f)
	return f, v, v.document(f, name), cfg
}

// checkedDocument is documentView with the view's findings, less the pairs
// kept in this session. They come from the folder's last check while the
// files it checked are unchanged, so a code action asked for after a
// publish costs no check at all, and a publish after a code action reuses
// the check the code action made.
func (s *Server) checkedDocument(uri protocol.DocumentUri) (v *view, fi int, cfg config.Config, findings []rules.Finding) {
	f, name := s.documentFolder(uri)
	if f == nil {
		return nil, -1, cfg, nil
	}
	f.pub.Lock()
	v, cfg, findings = s.checkLocked(f)
	f.pub.Unlock()
	return v, v.document(f, name), cfg, s.withoutKept(v, findings)
}

// documentFolder is the served folder holding the document at uri and the
// document's file name in it (its open buffer's, when the editor spells the
// name in another letter case), or nil.
func (s *Server) documentFolder(uri protocol.DocumentUri) (*folder, string) {
	path := memoryPath(uri)
	if path == "" {
		return nil, ""
	}
	f := s.folderAt(filepath.Dir(path))
	if f == nil {
		return nil, ""
	}
	name := filepath.Base(path)
	if od := s.lookupDoc(uri); od != nil {
		name = od.name
	}
	return f, name
}

// document is the index in v of f's file name, or -1 when the view lacks it
// or the file is too large to analyse.
func (v *view) document(f *folder, name string) int {
	fi := v.find(f.path(name))
	if fi >= 0 && v.files[fi].TooLarge() {
		fi = -1
	}
	return fi
}

// checked is a folder's last check: the view it checked and the findings
// (before withoutKept, whose answer changes with the session's choices, not
// with the files).
type checked struct {
	v        *view
	cfg      config.Config
	repo     *repoState
	findings []rules.Finding
	// readAtCheck is the folder's count of changes to the files a check
	// reads itself, as this check read them
	readAtCheck uint64
}

// checkLocked checks f's current view with the folder's checker, or returns
// the last check when nothing it depends on has changed: the same disk
// snapshot (the folder's cache still holds), the same buffer versions, the
// same configuration, the same build of the repository (each change to
// the code it follows makes a new one, repo.go) and no change since to the
// agents' files the check reads itself. Before the first build the
// references are not judged (a code action asked for then; publish waits
// for the build). f.pub is held.
func (s *Server) checkLocked(f *folder) (*view, config.Config, []rules.Finding) {
	v, cfg := s.snapshot(f)
	st := s.repoNow(f, cfg)
	gen := f.readAtCheck.Load()
	if last := f.last; last != nil && last.repo == st && last.readAtCheck == gen && last.v.sameFiles(v) && sameConfig(last.cfg, cfg) {
		return last.v, last.cfg, last.findings
	}
	if f.checker == nil {
		f.checker = new(rules.Checker)
		f.cites.ReadFrom(f.checker)
	}
	f.checker.Repo, v.repo = st.get(), st.get()
	findings := f.checker.Check(v.files, cfg)
	// What agents load at session start and what the team's other
	// instruction files say (load-budget on their files, cross-file): read
	// from the folder's root at each check, as check does, with the open
	// agents' files read from their buffers, whose bullets the reference
	// rules judge too.
	root := filepath.Dir(f.dir)
	extra, more, err := memory.AgentFileFindings(root, cfg, v.files, agentFiles(v.agents, v.repo))
	if err != nil {
		// Their Read only reads buffers in hand.
		s.log.Errorf("checking the agents' files of %s: %v", root, err)
	}
	v.withAgentFiles(extra)
	if len(more) > 0 {
		findings = rules.Sorted(append(slices.Clip(findings), more...))
	}
	f.last = &checked{v: v, cfg: cfg, repo: st, findings: findings, readAtCheck: gen}
	f.checks++
	return v, cfg, findings
}

// sameFiles reports whether w holds exactly v's bytes: the same disk
// snapshot and, file for file, the same buffer versions. A snapshot read
// afresh is a new one, so this errs only towards checking again.
func (v *view) sameFiles(w *view) bool {
	a, b := v.memFiles(), w.memFiles()
	if v.disk != w.disk || len(a) != len(b) || !slices.Equal(v.agents, w.agents) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || v.docs[i] != w.docs[i] {
			return false
		}
	}
	return true
}

// ix is the line index of file i, built on first use. A memory file over
// rules.MaxFileBytes gets the index of an empty text: its one finding sits
// at offset 0, and scanning megabytes for line starts nobody asks for is
// exactly the work the limit exists to avoid. An agent's file is read
// whole by the budget it is judged against, however large, and its
// load-budget finding sits where the agent cuts it.
func (v *view) ix(i int) *text.Index {
	v.lazy.Lock()
	defer v.lazy.Unlock()
	if v.index[i] == nil {
		src := v.files[i].Doc.Src
		switch {
		case v.files[i].TooLarge() && (!v.agentsAdded || i < v.mem):
			v.index[i] = text.NewIndex(nil)
		case v.cache != nil && v.docs[i] == nil:
			// From the disk cache: built once for all its views.
			v.index[i] = v.cache.Index(v.files[i].Path, src)
		default:
			v.index[i] = text.NewIndex(src)
		}
	}
	return v.index[i]
}

// schedule publishes f's diagnostics after delay; a newer schedule for the
// same folder replaces the pending one, which is the debounce.
func (s *Server) schedule(f *folder, delay time.Duration) {
	s.mu.Lock()
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
	if delay <= 0 || s.state != stateRunning {
		s.mu.Unlock()
		if delay <= 0 {
			s.publish(f)
		}
		return
	}
	s.armLocked(&f.timer, delay, func() { s.publish(f) })
	s.mu.Unlock()
}

// armLocked replaces the timer in *slot with one that runs fn after delay;
// the slot is cleared when it fires, unless a newer timer took it. s.mu is
// held.
func (s *Server) armLocked(slot **time.Timer, delay time.Duration, fn func()) {
	if *slot != nil {
		(*slot).Stop()
	}
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		s.mu.Lock()
		if *slot == t {
			*slot = nil
		}
		s.mu.Unlock()
		fn()
	})
	*slot = t
}

// publish checks folder f and publishes every file's diagnostics:
// cross-file findings (duplicate slugs, near-duplicates) change when any
// file changes, so all files are refreshed together. A file whose buffer
// changed while the check ran is skipped: its own pending check will publish
// for the newer text. Checks of one folder run one at a time; a folder the
// server no longer serves is left to retire, which cleared it.
//
// Before the folder's repository is first built nothing is published: the
// repository's worker publishes when the build is done (repo.go says why),
// so a caller on the read loop never waits for it.
func (s *Server) publish(f *folder) {
	if !s.isServed(f) || s.awaitsRepo(f) || s.givesWay(f) {
		return
	}
	f.pub.Lock()
	defer f.pub.Unlock()
	if !s.isServed(f) {
		return
	}
	v, _, findings := s.checkLocked(f)
	findings = s.withoutKept(v, findings)
	all := s.readHeld(f)
	s.tellHeld(f, all)
	if _, held := heldOf(v, all); len(held) > 0 {
		findings = append(slices.Clip(findings), held...)
	}
	// Each file's findings, in order.
	own := make([][]int32, len(v.files))
	for k, fd := range findings {
		own[fd.File] = append(own[fd.File], int32(k))
	}
	current := s.openDocs(f)
	for _, d := range s.agentBuffers(f) {
		current[d.path] = d
	}
	seen := map[string]bool{}
	for i, file := range v.files {
		seen[file.Path] = true
		if v.docs[i] != nil && current[file.Path] != v.docs[i] {
			continue // a newer buffer's check publishes it
		}
		s.conn.Notify("textDocument/publishDiagnostics", s.publishParams(v, i, findings, own[i]))
	}
	// After the diagnostics are out: what the check's entries cite, and
	// the folders to watch for it.
	s.followReferences(f)
	// Files that vanished since the last publish get an empty list.
	s.mu.Lock()
	var gone []string
	for p := range f.shown {
		if !seen[p] {
			gone = append(gone, p)
			delete(f.shown, p)
		}
	}
	for p := range seen {
		f.shown[p] = true
	}
	s.mu.Unlock()
	for _, p := range gone {
		if !memory.StampOf(p).IsZero() && filepath.Dir(p) == f.dir {
			// A memory file still there: its buffer's publish is its own.
			// An agent's file (AGENTS.md) left the view because nothing
			// is found in it any more: its list is emptied.
			continue
		}
		s.conn.Notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uriOf(p), Diagnostics: []protocol.Diagnostic{}})
	}
}

// maxPutOff bounds how long checks give way to writes: a client that
// writes without pause still gets diagnostics this often.
const maxPutOff = time.Second

// givesWay reports whether a check of f is put off because a write of the
// folder is on its way to the disk, and schedules it again. Stores sent
// back to back would otherwise each meet the check the last one set going,
// on the cores the store needs, for a state the store is about to change;
// put off, the checks of a burst are one, after it (each write schedules
// one when it is done). Not for longer than maxPutOff in all.
func (s *Server) givesWay(f *folder) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.writing.Load() == 0 || s.state != stateRunning {
		f.putOff = time.Time{}
		return false
	}
	if f.putOff.IsZero() {
		f.putOff = time.Now()
	} else if time.Since(f.putOff) >= maxPutOff {
		f.putOff = time.Time{}
		return false
	}
	s.armLocked(&f.timer, max(s.opt.Debounce, putOffStep), func() { s.publish(f) })
	return true
}

// putOffStep is how soon a put-off check looks again when the server's
// debounce is shorter (tests run without one).
const putOffStep = 10 * time.Millisecond

// awaitsRepo reports whether f's repository is being built for the first
// time, and has its worker publish once it is.
func (s *Server) awaitsRepo(f *folder) bool {
	if s.repoNow(f, s.config()) != nil {
		return false
	}
	f.repoMu.Lock()
	defer f.repoMu.Unlock()
	if f.repo.Load() != nil || !f.work.running {
		return false // built since
	}
	f.work.publish = true
	return true
}

// dropChecker forgets f's checker and the analyses it keeps, and the last
// check.
func (s *Server) dropChecker(f *folder) {
	f.pub.Lock()
	f.checker, f.last = nil, nil
	f.cites.ReadFrom(nil)
	f.pub.Unlock()
}

// retire ends a folder the server no longer serves: pending work is
// dropped, and the diagnostics it published are cleared.
func (s *Server) retire(f *folder) {
	s.mu.Lock()
	for _, t := range []*time.Timer{f.timer, f.sync} {
		if t != nil {
			t.Stop()
		}
	}
	f.timer, f.sync, f.disk = nil, nil, nil
	var gone []string
	for p := range f.shown {
		gone = append(gone, p)
	}
	f.shown = map[string]bool{}
	s.mu.Unlock()
	s.unwatchReferences(f)
	f.pub.Lock()
	defer f.pub.Unlock()
	f.checker, f.last = nil, nil
	f.cites.ReadFrom(nil)
	f.repo.Store(nil)
	slices.Sort(gone)
	for _, p := range gone {
		s.conn.Notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uriOf(p), Diagnostics: []protocol.Diagnostic{}})
	}
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
			Location: protocol.Location{URI: v.uri(rel.File), Range: rr}, Message: rel.Message})
	}
	if f.Traits().Unnecessary {
		d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	return d, nil
}
