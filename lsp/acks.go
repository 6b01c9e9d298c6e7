package lsp

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"path/filepath"
	"slices"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Acknowledged entries. Every writer of ours journals, inside the lock, the
// entry it told its caller is stored (store.Ack). An editor's save may
// overwrite the file with a buffer that never held that entry, at any
// moment after the store: before the server has read the file, or while
// the edit that brings the entry into the buffer is on its way. A save is
// not a decision to delete what the buffer never showed, so the reconcile
// puts such an entry back (on disk and in the buffer), and only a save of a
// buffer that held the entry and lost it by an edit takes it out.
//
// So for each record the server knows whether each open buffer has held
// its entry at some version since the server learned of it (ackSeen.held),
// and which disk texts are saves of the buffer. A client that sends didSave
// says so itself; the server waits a moment for it (saveGrace) before it
// takes a change for another writer's (git restoring the text the buffer
// held before the entry came, another editor saving the same text). For a
// client that does not, a save is a disk text equal to one the buffer held
// (hashes, not copies: a crossing save writes a version older than the
// buffer's latest, and an 8 MiB buffer is not kept twice).

// ackYoung is how long a record the buffers all held stays tracked: a save
// that crosses the edit bringing it in lands within moments of it.
const ackYoung = 2 * time.Minute

// saveGrace is how long a change that took out an acknowledged entry waits
// for the didSave that would make it the buffer's save.
const saveGrace = 2 * time.Second

// maxSavedTexts bounds the hashes of a buffer's recent texts.
const maxSavedTexts = 32

// ack is a journal record the server has learned of. Guarded by Server.mu.
type ack struct {
	store.Ack
	learned time.Time
	// gone: a change the server honours took the entry out; it is never
	// put back.
	gone bool
}

// ackSeen is what one buffer has shown of the folder's records. Guarded by
// Server.mu.
type ackSeen struct {
	// held are the records whose entry the buffer has held.
	held map[*ack]bool
	// texts are hashes of the buffer's recent texts.
	texts []uint64
	// saves counts didSave; judged is the count the last reconcile judged.
	saves, judged int
	// waiting is when a change that took out an entry began to wait for
	// a didSave (zero: none waits).
	waiting time.Time
}

var textSeed = maphash.MakeSeed()

func textHash(b []byte) uint64 { return maphash.Bytes(textSeed, b) }

// firstAcks notes the IDs in f's journal as the folder begins to be
// served: those records were written while no buffer of this server could
// save over them, and every record with another ID was written since (no
// clock is compared: an agent may run in a VM whose clock drifted).
func firstAcks(f *folder) {
	recs, _ := store.ReadJournal(f.dir)
	for _, r := range recs {
		f.ackIDs[r.ID] = true
	}
}

// learnAcks reads the folder's journal (the caller holds the lock) and
// notes the records it did not know, with which buffers hold their entry
// now. The journal is a file in the work tree, so a record is trusted only
// as one of our writers makes it: appended since the server last read the
// journal (its ID is new), an entry store validation lets through, in a
// journal git does not track. s.mu is not held.
func (s *Server) learnAcks(f *folder, now time.Time) {
	recs, err := store.ReadJournal(f.dir)
	if err != nil {
		s.log.Warningf("%v", err)
	}
	if len(recs) > 0 && s.journalTracked(f) {
		recs = nil
	}
	cfg := s.config()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Only the IDs still in the journal can be read again.
	seen := make(map[string]bool, len(recs))
	for _, r := range recs {
		seen[r.ID] = f.ackIDs[r.ID]
	}
	f.ackIDs = seen
	for _, r := range recs {
		if f.ackIDs[r.ID] {
			continue
		}
		f.ackIDs[r.ID] = true
		if r.Add == "" {
			continue
		}
		if err := memory.ValidAck(r, cfg); err != nil {
			s.log.Warningf("%s: a journal record is not trusted: %v", f.dir, err)
			continue
		}
		// A later store that took the entry out (an update, an
		// eviction) supersedes the record of it.
		for _, d := range r.Drop {
			for _, b := range f.acks {
				if b.File == r.File && sameEntry(b.Add, d) {
					b.gone = true
				}
			}
		}
		a := &ack{Ack: r, learned: now}
		f.acks = append(f.acks, a)
		if od := f.docs[r.File]; od != nil {
			od.seen.held[a] = memory.HoldsEntry(od.doc.text, a.Add)
		}
	}
	// A record every buffer of its file held, young no more, is done.
	f.acks = slices.DeleteFunc(f.acks, func(a *ack) bool {
		if a.gone {
			return true
		}
		if now.Sub(a.learned) < ackYoung {
			return false
		}
		od := f.docs[a.File]
		return od == nil || od.seen.held[a]
	})
}

// journalTracked reports whether git tracks f's journal, asking git again
// only when the journal is another file than the last time (a checkout
// writes a new one; appends keep it). The first time, git is also told to
// ignore the journal: an agent in a sandbox may not write git's folder,
// the server may. s.mu is not held.
func (s *Server) journalTracked(f *folder) bool {
	fi, err := store.Stat(filepath.Join(f.dir, store.JournalName))
	if err != nil {
		return false
	}
	s.mu.Lock()
	known := f.ackFile != nil && store.SameFile(f.ackFile, fi)
	tracked, first := f.ackTracked, f.ackFile == nil
	s.mu.Unlock()
	if known {
		return tracked
	}
	if first {
		store.IgnoreJournal(f.dir)
	}
	tracked = store.JournalTracked(f.dir)
	if tracked {
		s.log.Warningf("%s/%s is tracked by git: it came from a commit, and no entry is put back from it; remove it from the repository (git rm --cached)", f.dir, store.JournalName)
	}
	s.mu.Lock()
	f.ackFile, f.ackTracked = fi, tracked
	s.mu.Unlock()
	return tracked
}

// liveAcks reports whether a record of file name is tracked; s.mu is held.
func (f *folder) liveAcks(name string) bool {
	for _, a := range f.acks {
		if a.File == name {
			return true
		}
	}
	return false
}

// noteText remembers a text of the buffer; s.mu is held.
func (od *openDoc) noteText(b []byte) {
	h := textHash(b)
	if n := len(od.seen.texts); n > 0 && od.seen.texts[n-1] == h {
		return
	}
	if len(od.seen.texts) == maxSavedTexts {
		od.seen.texts = slices.Delete(od.seen.texts, 0, 1)
	}
	od.seen.texts = append(od.seen.texts, h)
}

// changedText notes a new version of the buffer: its text, a save of which
// is to be known when it comes (whether or not a record is young yet: the
// store it crosses may be journaled a moment later), and the records whose
// entry it holds. s.mu is held.
func (od *openDoc) changedText(b []byte) {
	od.noteText(b)
	if !od.f.liveAcks(od.name) {
		return
	}
	for _, a := range od.f.acks {
		if a.File == od.name && !od.seen.held[a] && memory.HoldsEntry(b, a.Add) {
			od.seen.held[a] = true
		}
	}
}

// saveVerdict is whether a disk text is a save of a buffer.
type saveVerdict int

const (
	notSaved saveVerdict = iota
	saved
	awaitSave // not yet known: a didSave may be on its way
)

// savedBy judges whether disk, a text of the buffer's file that lacks an
// acknowledged entry, is a save of the buffer. A client that sends didSave
// is waited for until saveGrace has passed; for others, disk is a save
// when it is a text the buffer held. s.mu is held.
func (s *Server) savedBy(od *openDoc, disk []byte, now time.Time) saveVerdict {
	switch {
	case od.seen.saves > od.seen.judged:
		return saved
	case !s.caps.didSave:
		if bytes.Equal(disk, od.doc.text) || slices.Contains(od.seen.texts, textHash(disk)) {
			return saved
		}
		return notSaved
	case od.seen.waiting.IsZero():
		od.seen.waiting = now
		return awaitSave
	case now.Sub(od.seen.waiting) < saveGrace:
		return awaitSave
	}
	return notSaved
}

// restoreAcks is disk with every entry put back that a save of the buffer
// p dropped although the buffer never held it, or holds it still; and the
// entry lines it put back. A record whose entry another writer took out, or
// the buffer's own edit did, is honoured and forgotten. wait says that a
// didSave may yet come that decides it: the caller leaves the buffer for a
// later reconcile (waitable; a write that cannot wait takes the change for
// a save, the choice that loses nothing). s.mu is not held.
func (s *Server) restoreAcks(p *bufferPlan, disk []byte, waitable bool, now time.Time) (out []byte, restored []string, wait bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	od := p.od
	p.saves = od.seen.saves
	verdict, judged := notSaved, false
	for _, a := range od.f.acks {
		if a.File != od.name || a.gone || memory.HoldsEntry(disk, a.Add) {
			continue
		}
		if !judged {
			judged, verdict = true, s.savedBy(od, disk, now)
			if verdict == awaitSave {
				if waitable {
					return disk, nil, true
				}
				verdict = saved
			}
		}
		if verdict == notSaved {
			a.gone = true // another writer took it out
			continue
		}
		if od.seen.held[a] && !memory.HoldsEntry(p.doc.text, a.Add) {
			a.gone = true // the buffer's own edit took it out
			continue
		}
		again := memory.Reapply(disk, a.Ack)
		if len(again) > rules.MaxFileBytes {
			// The save grew the file to the limit: putting the entry back
			// would make it one that is never read, and refuse every later
			// write of the folder. The user is told, naming the entry.
			a.gone = true
			p.unrestored = append(p.unrestored, a.Add)
			continue
		}
		disk = again
		restored = append(restored, a.Add)
	}
	od.seen.waiting = time.Time{}
	return disk, restored, false
}

// judgedSaves records that the reconcile planned on p judged the saves the
// buffer had made by then.
func (s *Server) judgedSaves(p bufferPlan) {
	s.mu.Lock()
	p.od.seen.judged = max(p.od.seen.judged, p.saves)
	s.mu.Unlock()
}

// trackBrought makes the entries a reconcile brings into a buffer records
// too: a save that crosses the edit bringing them in must not take them
// out, whoever wrote them (HackLM journals nothing). s.mu is not held.
func (s *Server) trackBrought(p bufferPlan, now time.Time) {
	if len(p.rec.Brought) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := p.od.f
	for _, line := range p.rec.Brought {
		if !memory.HoldsEntry(p.to, line) {
			continue // the write planned with it took it out
		}
		a := &ack{Ack: store.NewAck(p.od.name, line, nil, "reconcile", now), learned: now}
		f.acks = append(f.acks, a)
		p.od.seen.held[a] = false
	}
}

// ackMissing reports whether x, the disk text of file name, lacks the entry
// of a record the reconcile has to judge: one it tracks, or one in the
// journal it has not learned yet (a save that wrote back the very text the
// buffer last matched leaves nothing else to see). A hint, read without
// the lock. s.mu is not held.
func (s *Server) ackMissing(f *folder, name string, x []byte) bool {
	recs, _ := store.ReadJournal(f.dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range f.acks {
		if a.File == name && !a.gone && !memory.HoldsEntry(x, a.Add) {
			return true
		}
	}
	for _, r := range recs {
		if r.File == name && !f.ackIDs[r.ID] && r.Add != "" && !memory.HoldsEntry(x, r.Add) {
			return true
		}
	}
	return false
}

// sameEntry reports whether two entry lines hold the same fact.
func sameEntry(a, b string) bool { return memory.HoldsEntry([]byte(b), a) }

// savesOf counts the saves of each of f's buffers so far.
func (s *Server) savesOf(f *folder) map[*openDoc]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[*openDoc]int, len(f.docs))
	for _, od := range f.docs {
		out[od] = od.seen.saves
	}
	return out
}

// savesJudged records that the saves counted in saves left nothing to
// reconcile (the disk held what the buffers last matched): a later change
// by another writer is not to be taken for one of them.
func (s *Server) savesJudged(f *folder, saves map[*openDoc]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for od, n := range saves {
		od.seen.judged = max(od.seen.judged, n)
	}
}

// plannedOut forgets the records whose entry a write of ours takes out of
// the file (a delete, a cleanup, an update): the write decided it, and no
// later save is to bring it back. s.mu is not held.
func (s *Server) plannedOut(od *openDoc, before, after []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range od.f.acks {
		if a.File == od.name && !a.gone && memory.HoldsEntry(before, a.Add) && !memory.HoldsEntry(after, a.Add) {
			a.gone = true
		}
	}
}

// tooLargeToRestore tells the user, naming them, of the acknowledged
// entries the buffer lacks while its file on disk is past the size limit
// (a save of a buffer that grew past it): the file is never read, so they
// cannot be put back. s.mu is not held.
func (s *Server) tooLargeToRestore(p bufferPlan) {
	s.mu.Lock()
	var lost []string
	for _, a := range p.od.f.acks {
		if a.File == p.od.name && !a.gone && !memory.HoldsEntry(p.doc.text, a.Add) {
			a.gone = true
			lost = append(lost, a.Add)
		}
	}
	s.mu.Unlock()
	if len(lost) > 0 {
		s.showMessage(protocol.MessageTypeError, fmt.Sprintf("%s is past its %d-byte limit on disk, so it is not read, and %s acknowledged as stored %s not in the buffer: a save of the buffer overwrote them or will. Trim the file and store again: %s",
			p.od.name, rules.MaxFileBytes, plural(len(lost), "entry", "entries"), map[bool]string{true: "is", false: "are"}[len(lost) == 1], strings.Join(lost, " ")))
		for _, l := range lost {
			s.log.Errorf("%s: not in the buffer while the file is past its size limit: %s", p.od.name, l)
		}
	}
}

// ackOpen reports whether a record of file name may be waiting to be
// judged: one tracked and not forgotten, or the journal holds one not
// learned yet. s.mu is not held.
func (s *Server) ackOpen(f *folder, name string) bool {
	recs, _ := store.ReadJournal(f.dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range f.acks {
		if a.File == name && !a.gone {
			return true
		}
	}
	for _, r := range recs {
		if r.File == name && !f.ackIDs[r.ID] && r.Add != "" {
			return true
		}
	}
	return false
}
