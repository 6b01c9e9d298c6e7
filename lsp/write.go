package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Writes. The disk is what every other agent reads, so every write lands on
// disk, under HackLM's lock; an open buffer of a file it changes gets the
// same change through workspace/applyEdit, so that the buffer, the disk and
// every other agent agree and a later save loses nothing. Before planning,
// each open buffer is reconciled with the disk (memory.Reconcile): entries
// another writer put on disk are brought into the buffer, entries a save
// overwrote are restored, and the buffer's unsaved edits stay in the buffer.
// All of it runs in the folder's queue, one operation at a time, so each is
// planned on the state the previous one left; and an edit sent to a buffer
// is waited for until the editor echoes it as a didChange, so that no two
// edits are ever planned on the same text (clients that do not version
// their edits would apply the second at the wrong place).

// planFunc decides a write (memory.Plan): given the files of a .memory
// folder (open buffers, reconciled with the disk, in place of their disk
// contents), it returns the changes. It must only decide: it runs again
// whenever the store has to redo its transaction.
type planFunc = memory.Plan

// writeReport says where a write landed; commands return it in their result.
type writeReport struct {
	// Disk names the memory files written on disk.
	Disk []string `json:"disk"`
	// Buffers are the open buffers the write changed, or tried to.
	Buffers []bufferReport `json:"buffers,omitempty"`
}

type bufferReport struct {
	File    string `json:"file"`
	Applied bool   `json:"applied"`
	Problem string `json:"problem,omitempty"`
}

// problems is a sentence about the buffers a write could not update, or "".
func (r *writeReport) problems() string {
	var b strings.Builder
	for _, br := range r.Buffers {
		if br.Problem != "" {
			fmt.Fprintf(&b, " The open buffer of %s was not updated (%s); the file on disk has the change, and the buffer is brought in step with it as soon as the editor allows.", br.File, br.Problem)
		}
	}
	return b.String()
}

// bufferPlan is what one open buffer and its file become.
type bufferPlan struct {
	od   *openDoc
	doc  *document // the buffer version planned on
	to   []byte    // the buffer's new text
	was  []byte    // the disk text read inside the lock (nil: absent)
	seen []byte    // the buffer's last-seen disk text when planned
	disk []byte    // the disk text once the write is done (nil: absent)
	rec  memory.Reconciled
	// restored are acknowledged entries a save dropped, put back;
	// removedAgain entries the server took out that a save wrote back,
	// taken out again (acks.go).
	restored, removedAgain []string
	// unrestored are entries a save dropped that could not be put back
	// (the file would pass the size limit).
	unrestored []string
}

// echoTimeout bounds the wait for the editor to echo an applied edit.
const echoTimeout = 3 * time.Second

// write carries out a plan in root's .memory folder, in the folder's queue.
// It answers as soon as the editor has applied the buffer edits; the queue
// is held until the editor has also reported them back (didChange), so
// that the next write is planned on the edited text. An editor that runs
// commands synchronously (Eglot) reports its changes only after the
// answer, so waiting for them before answering would wait in vain.
func (s *Server) write(ctx context.Context, root, label string, plan planFunc) (*writeReport, error) {
	return s.writeReading(ctx, root, label, nil, plan)
}

// writeReading is write for a plan that reads only the files named (base
// names; nil: every file) besides the open buffers' (memory.Transact): a
// store plans on its category file alone, and need not read the others
// inside the lock.
func (s *Server) writeReading(ctx context.Context, root, label string, names []string, plan planFunc) (*writeReport, error) {
	f := s.folderFor(memory.Dir(root))
	f.queue.Lock()
	rep, echoes, err := s.transact(ctx, f, label, names, plan)
	if !s.after.begin() {
		f.queue.Unlock()
		return rep, err
	}
	go func() {
		defer s.after.end()
		defer f.queue.Unlock()
		echoes()
	}()
	return rep, err
}

// transact reconciles f's open buffers with the disk and carries out plan
// (nil: reconcile only), reading the files named (nil: all) and those of
// the open buffers. The caller holds f.queue, and calls echoes (never nil)
// before it lets the next write in.
func (s *Server) transact(ctx context.Context, f *folder, label string, names []string, plan planFunc) (rep *writeReport, echoes func(), err error) {
	echoes = func() {}
	cfg := s.config()
	if names != nil {
		names = slices.Clone(names)
		s.mu.Lock()
		for name := range f.docs {
			names = append(names, name)
		}
		s.mu.Unlock()
	}
	var pend []bufferPlan
	var waitSave bool
	written, err := writingTo(f, func() ([]memory.Change, error) {
		// A file that holds what this server last wrote or read there is
		// compared with those bytes inside the lock, not read into a copy.
		return memory.Transact(ctx, f.dir, names, f.catalog.Bytes, func(snap *memory.Snapshot) ([]memory.Change, error) {
			var changes []memory.Change
			var err error
			pend, changes, waitSave, err = s.planWrite(f, snap, cfg, names, plan)
			return changes, err
		})
	})
	if waitSave {
		// A buffer was left as it is until its didSave comes, or does not.
		s.scheduleSync(f, saveGrace/4)
	}
	// Our own write: the folder's cached disk side is stale (also after a
	// failure, which may come after some files were written).
	s.invalidateDisk(f)
	if err != nil {
		return nil, echoes, err
	}
	rep = &writeReport{Disk: []string{}}
	for _, c := range written {
		rep.Disk = append(rep.Disk, filepath.Base(c.Path))
	}
	s.mu.Lock()
	for _, p := range pend {
		// Unless a capture saw a newer disk text since the plan (another
		// writer right after ours), the disk now holds what we planned.
		if bytes.Equal(p.od.last, p.seen) {
			p.od.last = p.disk
		}
	}
	s.mu.Unlock()
	var waits []func()
	now := time.Now()
	for _, p := range pend {
		s.trackBrought(p, now)
		br, wait := s.applyBuffer(ctx, label, p)
		if br != nil {
			rep.Buffers = append(rep.Buffers, *br)
		}
		if wait != nil {
			waits = append(waits, wait)
		}
		s.tellReconciled(p)
	}
	// Debounced as an edit's: the writer's reply does not wait for a check
	// of the whole folder (BenchmarkCheck10k), and a burst of writes,
	// or the watcher's events of this one, is checked once.
	s.schedule(f, s.opt.Debounce)
	return rep, func() {
		for _, w := range waits {
			w()
		}
	}, nil
}

// planWrite decides, on a snapshot read inside the lock, what every open
// buffer and every file become. It reads the server's buffers but changes
// nothing, so the store may call it again. A snapshot of only the files
// named (names non-nil) lacks the file of a buffer opened since the names
// were taken; that buffer is left to the next reconcile.
func (s *Server) planWrite(f *folder, snap *memory.Snapshot, cfg config.Config, names []string, plan planFunc) (_ []bufferPlan, _ []memory.Change, waits bool, _ error) {
	s.mu.Lock()
	pend := make([]bufferPlan, 0, len(f.docs))
	bases := make([][2][]byte, 0, len(f.docs))
	for _, od := range f.docs {
		if names != nil && !slices.Contains(names, od.name) {
			continue
		}
		pend = append(pend, bufferPlan{od: od, doc: od.doc})
		bases = append(bases, [2][]byte{od.base, od.last})
	}
	s.mu.Unlock()
	now := time.Now()
	s.learnAcks(f, now)
	merged := map[string][]byte{}
	kept := pend[:0]
	for i, p := range pend {
		sf := snap.Lookup(p.od.name)
		if memory.PastLimit(sf) {
			s.warnPastLimit(p, sf)
			s.tooLargeToRestore(p)
			continue // never parsed, so neither reconciled nor written
		}
		s.mu.Lock()
		p.od.pastLimit = 0
		s.mu.Unlock()
		if !memory.Fits(p.doc.text) {
			// A buffer past the limits is parsed by no one: reconciling
			// it would parse it all (an 8 MiB paste is a million lines),
			// and its save would write a file no reader reads.
			s.warnBufferPastLimit(p)
			continue
		}
		if sf != nil && sf.Exists {
			p.was = sf.Data
		}
		disk := p.was
		if disk != nil {
			var wait bool
			// A buffer whose save is not known yet is left out: a write
			// plans on its file's disk text, as if it were not open, and
			// the reconcile after the wait brings the write into it.
			st := memory.StampOf(p.doc.path)
			if disk, p.restored, wait = s.restoreAcks(&p, disk, st, now); wait {
				waits = true
				continue
			}
		}
		p.seen = bases[i][1]
		last := p.seen
		if len(p.removedAgain) > 0 && last != nil {
			// The last text seen on disk was that save's: what is taken
			// out again is not to be restored from it.
			last = memory.Reapply(last, memory.Ack{Drop: p.removedAgain})
		}
		p.rec = memory.Reconcile(bases[i][0], p.doc.text, last, disk)
		// What the limits keep out is told, naming each entry: an entry
		// not restored so that it can be stored again, one not brought in
		// before a save drops it (a save that does is told again,
		// tellUnrestored).
		p.unrestored = append(p.unrestored, p.rec.Unrestored...)
		s.tellNotBroughtIn(p.od.name, p.rec.NotBroughtIn)
		p.to, p.disk = p.rec.Buffer, p.rec.Disk
		merged[p.doc.path] = p.to
		kept = append(kept, p)
	}
	pend = kept
	sort.Slice(pend, func(i, j int) bool { return pend[i].od.name < pend[j].od.name })
	// The plan's rewrites by path (a buffer's file among them goes through
	// the buffer); its appends go to disk as they are.
	out := map[string][]byte{}
	var changes []memory.Change
	if plan != nil {
		planned, err := plan(memory.View{Files: memory.Overlay(snap, merged), Held: snap.Held, HeldErr: snap.HeldErr}, cfg)
		if err != nil {
			return nil, nil, false, err
		}
		for _, c := range planned {
			if c.Append {
				changes = append(changes, c)
			} else {
				out[c.Path] = c.Data
			}
		}
	}
	for i := range pend {
		p := &pend[i]
		if o, ok := out[p.doc.path]; ok {
			delete(out, p.doc.path)
			if !bytes.Equal(o, p.to) {
				s.plannedOut(p.od, p.to, o)
				// The plan's change, and only it, goes to the disk: the
				// buffer's unsaved edits stay in the buffer.
				disk := p.disk
				if disk == nil {
					disk = memory.NewFileBytes(p.od.name)
				}
				p.disk = memory.Carry(p.to, disk, o)
				p.to = o
			}
		}
		if p.disk != nil && !bytes.Equal(p.disk, p.was) {
			changes = append(changes, memory.Change{Path: p.doc.path, Data: p.disk})
		}
	}
	for path, data := range out {
		changes = append(changes, memory.Change{Path: path, Data: data})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return pend, changes, waits, nil
}

// errEditRefused wraps the error of an edit the editor answered with
// applied: false, which is worth planning again on its newer text.
var errEditRefused = errors.New("the editor refused the edit")

// maxEditTries bounds how often a refused buffer edit is planned again.
const maxEditTries = 3

// applyBuffer brings an open buffer to p.to, and reports it; nil when the
// buffer needed no change. When the user typed meanwhile, the change is
// carried onto the newer text (a merge with the text it was planned on as
// base). Once the editor has applied the edit, wait (non-nil) waits for it
// to report the edited text back, after which the buffer is known to match
// the disk text p.disk, which becomes its base.
func (s *Server) applyBuffer(ctx context.Context, label string, p bufferPlan) (report *bufferReport, wait func()) {
	name := p.od.name
	from, to := p.doc, p.to
	for try := 1; ; try++ {
		s.mu.Lock()
		cur, changed := p.od.doc, p.od.changed
		open := p.od.f.docs[p.od.name] == p.od
		versioned := s.caps.documentChanges
		s.mu.Unlock()
		if !open {
			if bytes.Equal(p.doc.text, p.to) {
				return nil, nil
			}
			return &bufferReport{File: name, Problem: "it was closed meanwhile"}, nil
		}
		target := to
		if cur != from {
			target = memory.Carry(from.text, cur.text, to)
		}
		if bytes.Equal(cur.text, target) {
			s.settle(p, cur)
			if try == 1 && bytes.Equal(p.doc.text, p.to) {
				return nil, nil
			}
			return &bufferReport{File: name, Applied: true}, nil
		}
		we, err := s.workspaceEdit([]fileEdits{{path: cur.path, version: cur.version, src: cur.text, ix: cur.ix, edits: bufferEdits(cur.text, target)}})
		if err != nil {
			return &bufferReport{File: name, Problem: err.Error()}, nil
		}
		sentAt := time.Now()
		err = s.applyEdit(ctx, label, we)
		if err == nil {
			return &bufferReport{File: name, Applied: true}, func() {
				if s.awaitEcho(p.od, cur, target, versioned, sentAt) {
					s.settle(p, nil)
				} else if !s.connClosed() {
					s.log.Infof("%s: the editor did not report the edited text back within %s; the next write reconciles it", name, echoTimeout)
				}
			}
		}
		if !errors.Is(err, errEditRefused) || try >= maxEditTries {
			return &bufferReport{File: name, Problem: err.Error()}, nil
		}
		// Refused, most often because the buffer moved on: wait for the
		// change that says how, then plan again on it.
		select {
		case <-changed:
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
			return &bufferReport{File: name, Problem: ctx.Err().Error()}, nil
		}
		from, to = cur, target
	}
}

// awaitEcho waits until the editor reports, with a didChange, the buffer
// text an applied edit made. A client that versions its edits applied it to
// exactly the version it was made for, so its next change holds it; for
// others the text itself must be seen, as the latest text or one that gave
// way since the edit was sent: the user's next keystroke may come in
// before this wakes (a reword of the entry just brought in was taken for
// the entry missing, and the entry put back: lsp/acks_e2e_test.go).
func (s *Server) awaitEcho(od *openDoc, sent *document, target []byte, versioned bool, sentAt time.Time) bool {
	deadline := time.NewTimer(echoTimeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		cur, changed := od.doc, od.changed
		open := od.f.docs[od.name] == od
		shown := od.seen.showedSince(target, sentAt)
		s.mu.Unlock()
		if !open {
			return false
		}
		if cur != sent && (bytes.Equal(cur.text, target) || versioned) || shown {
			return true
		}
		select {
		case <-changed:
		case <-deadline.C:
			return false
		case <-s.life.Done():
			return false
		}
	}
}

// settle records that the buffer now holds everything of the disk text
// p.disk, which becomes its base. at, when non-nil, is the version that was
// seen to hold it.
func (s *Server) settle(p bufferPlan, at *document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if at != nil && p.od.doc != at {
		return // it moved on; the next reconcile judges the newer text
	}
	// A capture since the write saw the disk move on again: keep what it saw.
	p.od.base = p.disk
	if p.od.last == nil {
		p.od.last = p.disk
	}
}

// maxNamed is how many entries a message names before "and N more".
const maxNamed = 3

// tellReconciled tells the user what reconciling a buffer with the disk did.
func (s *Server) tellReconciled(p bufferPlan) {
	if len(p.removedAgain) > 0 {
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("%s: a save wrote back %s taken out through memory-lsp just before; taken out again: %s",
			p.od.name, plural(len(p.removedAgain), "entry", "entries"), named(p.removedAgain)))
	}
	if len(p.unrestored) > 0 {
		s.tellUnrestored(p.od.name, p.unrestored)
	}
	if len(p.restored) > 0 {
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("%s: a save overwrote %s acknowledged as stored; restored on disk and in the buffer: %s",
			p.od.name, plural(len(p.restored), "entry", "entries"), named(p.restored)))
	}
	if len(p.rec.Restored) > 0 {
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("%s: a save overwrote %s on disk that the buffer did not hold yet; restored on disk and in the buffer: %s",
			p.od.name, plural(len(p.rec.Restored), "entry", "entries"), named(p.rec.Restored)))
	}
	if len(p.rec.Restored) == 0 && len(p.rec.Brought) > 0 {
		s.showMessage(protocol.MessageTypeInfo, fmt.Sprintf("%s: brought %s written on disk by another writer into the buffer: %s",
			p.od.name, plural(len(p.rec.Brought), "entry", "entries"), named(p.rec.Brought)))
	}
	for _, c := range p.rec.Conflicts {
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("%s: the buffer and the disk changed [%s] differently; both lines are kept (lines %d and %d) — keep one with the conflict's code action",
			p.od.name, c.Slug, c.Ours, c.Theirs))
	}
}

// tellUnrestored tells the user of acknowledged entries a save overwrote
// that cannot be put back (the file would pass, or is past, its size
// limit), each in full, so that it can be stored again.
func (s *Server) tellUnrestored(name string, lines []string) {
	s.showMessage(protocol.MessageTypeError, fmt.Sprintf("%s: a save overwrote %s acknowledged as stored, which cannot be put back: the file would pass its limit (%d bytes, %d lines). Trim the file and store again: %s",
		name, plural(len(lines), "entry", "entries"), rules.MaxFileBytes, rules.MaxFileLines, strings.Join(lines, " ")))
	for _, l := range lines {
		s.log.Errorf("%s: not put back (the file is at its size limit): %s", name, l)
	}
}

// named lists entry lines for a message.
func named(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i == maxNamed {
			fmt.Fprintf(&b, " and %d more", len(lines)-maxNamed)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%q", text.Clip(l, 80))
	}
	return b.String()
}

func (s *Server) showMessage(t protocol.MessageType, message string) {
	s.conn.Notify("window/showMessage", protocol.ShowMessageParams{Type: t, Message: Name + ": " + message})
}

// syncDebounce is how long a change on disk settles before the buffers
// are reconciled with it: longer than the watcher's own debounce, so that
// an editor's save and the didChange that follows it have both arrived.
const syncDebounce = 2 * watchDebounce

// scheduleSync reconciles f's open buffers with the disk after delay.
func (s *Server) scheduleSync(f *folder, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(f.docs) == 0 || s.state != stateRunning {
		return
	}
	// A reconcile writes: exit waits for it (a check only reads, and
	// exit does not wait for one).
	s.armLocked(&f.sync, max(delay, syncDebounce), func() {
		if !s.after.begin() {
			return
		}
		defer s.after.end()
		s.syncFolder(f)
	})
}

// syncFolder reconciles f's open buffers with the disk, in the folder's
// queue, when a file under a buffer changed since the buffer's base.
func (s *Server) syncFolder(f *folder) {
	if !s.needsSync(f) {
		return
	}
	f.queue.Lock()
	defer f.queue.Unlock()
	if !s.isServed(f) || !s.needsSync(f) {
		return // a write meanwhile did it
	}
	_, echoes, err := s.transact(context.Background(), f, "Bring in memory written on disk", nil, nil)
	echoes()
	if err != nil && !s.connClosed() {
		s.log.Warningf("reconciling the open buffers of %s with the disk: %v", f.dir, err)
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("could not bring the open buffers of %s in step with the disk: %v; saving them may overwrite entries another writer added", f.dir, err))
	}
}

// needsSync reports whether a file under one of f's buffers is not the
// disk text the buffer last matched. It reads without the lock, so it is
// only a hint: the reconcile itself reads inside the lock.
func (s *Server) needsSync(f *folder) bool {
	type state struct {
		path       string
		base, last []byte
		pastLimit  int64
	}
	s.mu.Lock()
	docs := make([]state, 0, len(f.docs))
	for _, od := range f.docs {
		docs = append(docs, state{od.doc.path, od.base, od.last, od.pastLimit})
	}
	s.mu.Unlock()
	for _, d := range docs {
		x, past, size, err := memory.ReadPastLimit(d.path)
		if past {
			if size != d.pastLimit || s.ackOpen(f, filepath.Base(d.path)) {
				// the reconcile warns of it (warnPastLimit) and tells what
				// the buffer lacks (tooLargeToRestore)
				return true
			}
			continue
		}
		if err != nil || x == nil {
			continue
		}
		if !bytes.Equal(x, d.base) || !bytes.Equal(d.last, d.base) || s.ackMissing(f, filepath.Base(d.path), x) {
			return true
		}
	}
	return false
}

// readFiles is root's memory as a reader should see it: the files on disk
// with each open buffer in place of its file, reconciled with the disk when
// the disk moved on since the buffer's base. The reconcile that brings such
// entries into the buffer may not have run yet, and they are on disk for
// every other agent already, so a query must find them too.
func (s *Server) readFiles(root string) ([]rules.File, config.Config) {
	f := s.folderFor(memory.Dir(root))
	v, cfg := s.snapshot(f)
	type state struct {
		i          int
		base, last []byte
	}
	var open []state
	s.mu.Lock()
	for i, d := range v.docs {
		if od := f.docs[filepath.Base(v.files[i].Path)]; d != nil && od != nil {
			open = append(open, state{i, od.base, od.last})
		}
	}
	s.mu.Unlock()
	for _, o := range open {
		path := v.files[o.i].Path
		x, err := memory.ReadFile(path, nil)
		if err != nil || x == nil || (bytes.Equal(x, o.base) && bytes.Equal(o.last, o.base)) {
			continue
		}
		rec := memory.Reconcile(o.base, v.docs[o.i].text, o.last, x)
		v.files[o.i] = rules.NewFile(path, rec.Buffer)
	}
	return v.files, cfg
}

// capture records, the moment a file under an open buffer changes on disk,
// the text it now holds as the buffer's last-seen disk text. The reconcile
// that brings it into the buffer waits for the change to settle; an editor
// that saves within that wait would overwrite the new entries with nothing
// left to restore them from, unless the server has seen them. So a text
// that drops what the last-seen one added since the buffer's base (most
// often the editor's own save of a buffer that never got those entries) is
// not recorded: the reconcile restores from the last-seen text instead. The
// read is made inside the lock, so a HackLM write in place is never seen
// half done, and last is set before the lock is released, so a write of
// ours that follows always sets it after.
func (s *Server) capture(f *folder, name string) {
	s.mu.Lock()
	od := f.docLocked(name)
	s.mu.Unlock()
	if od == nil {
		return
	}
	// A text that lacks an entry the last-seen text holds is not recorded
	// either (a deletion is the reconcile's to see, after the change has
	// settled).
	memory.ReadSettled(f.dir, f.path(od.name), func(x []byte) {
		s.mu.Lock()
		base, last := od.base, od.last
		s.mu.Unlock()
		if last != nil && (!bytes.Equal(memory.Carry(base, x, last), x) || len(memory.NewEntries(x, last)) > 0) {
			return
		}
		s.mu.Lock()
		if bytes.Equal(od.last, last) {
			od.last = x
		}
		s.mu.Unlock()
	})
}

// writingTo runs write with f counted as being written (folder.writing),
// also when write panics (a request's panic is recovered and the server
// goes on): a count left raised would put off every later check of f.
func writingTo(f *folder, write func() ([]memory.Change, error)) ([]memory.Change, error) {
	f.writing.Add(1)
	defer f.writing.Add(-1)
	return write()
}

// warnPastLimit warns, once for each size it takes, that the file under
// p's buffer is past the limits of a memory file and was not written by
// this buffer (another program, a merge, a person): the server neither
// reads nor reconciles such a file, so a save of the buffer would replace
// what that writer put there without a word. A save of the buffer's own
// text past the limits is not warned of here: its diagnostics say so.
func (s *Server) warnPastLimit(p bufferPlan, sf *memory.SnapshotFile) {
	own := sf.Data != nil && bytes.Equal(sf.Data, p.doc.text)
	if sf.Data == nil && sf.Size == int64(len(p.doc.text)) {
		// past the size limit the store does not read the file; the
		// buffer of that size is in memory already, and so may the file
		// be for as long as it takes to compare them
		if disk, err := os.ReadFile(sf.Path); err == nil {
			own = bytes.Equal(disk, p.doc.text)
		}
	}
	s.warnOnceASize(&p.od.pastLimit, sf.Size, func() string {
		if own {
			return ""
		}
		return fmt.Sprintf("%s on disk %s, written outside this buffer: the server no longer reads it, and the buffer was not brought in step. Saving the buffer replaces that text with the buffer's; to keep it, close the buffer without saving and trim or split the file", p.od.name, memory.LimitProblem(sf.Size, sf.Data))
	})
}

// warnOnceASize shows msg() as a warning, and logs it, unless *seen is size
// already: a file or buffer past the limits is told of once for each size
// it takes. An empty message is no warning (the size is noted all the
// same). s.mu is not held; it guards *seen.
func (s *Server) warnOnceASize(seen *int64, size int64, msg func() string) {
	s.mu.Lock()
	warned := *seen == size
	*seen = size
	s.mu.Unlock()
	if warned {
		return
	}
	if m := msg(); m != "" {
		s.showMessage(protocol.MessageTypeWarning, m)
		s.log.Warningf("%s", m)
	}
}

// warnBufferPastLimit warns, once for each size the buffer takes, that a
// buffer past the limits of a memory file is not brought in step with the
// disk. s.mu is not held.
func (s *Server) warnBufferPastLimit(p bufferPlan) {
	size := int64(len(p.doc.text))
	s.warnOnceASize(&p.od.bufferPastLimit, size, func() string {
		return fmt.Sprintf("%s: the buffer %s: entries stored by others are not brought into it, and saving it would write a file no reader reads; trim it first",
			p.od.name, memory.LimitProblem(size, p.doc.text))
	})
}

// tellNotBroughtIn tells the user of entries stored by others that could
// not be brought into the buffer without taking it past the limits.
func (s *Server) tellNotBroughtIn(name string, lines []string) {
	if len(lines) == 0 {
		return
	}
	s.showMessage(protocol.MessageTypeError, fmt.Sprintf("%s: %s stored by another writer %s on disk but not brought into the buffer: with the buffer's unsaved lines the file would pass its limits (%d bytes, %d lines). Trim the buffer, or saving it drops them: %s",
		name, plural(len(lines), "entry", "entries"), map[bool]string{true: "is", false: "are"}[len(lines) == 1], rules.MaxFileBytes, rules.MaxFileLines, strings.Join(lines, " ")))
	for _, l := range lines {
		s.log.Errorf("%s: not brought into the buffer (the file would pass its limits): %s", name, l)
	}
}
