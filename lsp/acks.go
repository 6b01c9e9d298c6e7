package lsp

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// Acknowledged entries. Every writer of ours journals, inside the lock, the
// entry it told its caller is stored (memory.Ack). An editor's save may
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
// says so itself: the file's stat at its latest didSave is the save's, and
// a disk with another stat was written after it (git restoring the text the
// buffer held before the entry came, another editor saving the same text).
// Without such a didSave yet, the server waits a moment for it (saveGrace);
// one that comes later still, for the disk judged without it, reopens the
// records that judgement let go. For a client that does not send didSave, a
// save is a disk text equal to one the buffer held, line endings and the
// final newline aside (hashes, not copies: a crossing save writes a version
// older than the buffer's latest, and an 8 MiB buffer is not kept twice).

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
	memory.Ack
	learned time.Time
	// gone: a change the server honours took the entry out; it is never
	// put back.
	gone bool
	// goneUnless, when set, is the stat of the disk that took the entry
	// out without a didSave in time: a didSave that comes later for that
	// very disk reopens the record.
	goneUnless memory.Stamp
}

// ackSeen is what one buffer has shown of the folder's records. Guarded by
// Server.mu.
type ackSeen struct {
	// held are the records whose entry the buffer has held.
	held map[*ack]bool
	// past are the buffer's latest earlier texts, each with when it gave
	// way to the next (bounded by pastTexts and pastBytes): a record the
	// server learns after the buffer took its entry in and the user took
	// it out again (the journal's event comes late on a busy machine) was
	// held all the same, and the user's edit stands.
	past []pastText
	// texts are hashes of the buffer's recent texts.
	texts []uint64
	// saved is the file's stat at the latest didSave (zero: none yet).
	saved memory.Stamp
	// waiting is when a change that took out an entry began to wait for
	// a didSave (zero: none waits).
	waiting time.Time
}

// pastText is an earlier text of a buffer and when it gave way.
type pastText struct {
	text  []byte
	until time.Time
}

// pastTexts and pastBytes bound a buffer's earlier texts kept; past a text
// over pastBytes none is kept (the records of so large a buffer are judged
// by its current text alone, as before).
const (
	pastTexts = 8
	pastBytes = 4 << 20
)

// gaveWay notes that text, the buffer's until now, gave way to another.
// s.mu is held.
func (sn *ackSeen) gaveWay(text []byte, now time.Time) {
	if len(text) > pastBytes {
		sn.past = nil
		return
	}
	sn.past = append(sn.past, pastText{text: text, until: now})
	total := 0
	for i := len(sn.past) - 1; i >= 0; i-- {
		total += len(sn.past[i].text)
		if total > pastBytes || len(sn.past)-i > pastTexts {
			sn.past = slices.Delete(sn.past, 0, i+1)
			break
		}
	}
}

// heldSince reports whether a text the buffer still showed at or after at
// held entry.
func (sn *ackSeen) heldSince(entry string, at time.Time) bool {
	for _, p := range sn.past {
		if !p.until.Before(at) && memory.HoldsEntry(p.text, entry) {
			return true
		}
	}
	return false
}

// showedSince reports whether the buffer showed text, whole, in a text
// that gave way at or after at. s.mu is held.
func (sn *ackSeen) showedSince(text []byte, at time.Time) bool {
	for _, p := range sn.past {
		if !p.until.Before(at) && bytes.Equal(p.text, text) {
			return true
		}
	}
	return false
}

var textSeed = maphash.MakeSeed()

// textHash hashes b with LF line endings and a final newline, which
// editors change as they write a buffer (fileformat, fixeol).
func textHash(b []byte) uint64 {
	if bytes.Contains(b, []byte("\r\n")) {
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	}
	var h maphash.Hash
	h.SetSeed(textSeed)
	h.Write(b)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		h.WriteByte('\n')
	}
	return h.Sum64()
}

// openedStale tracks the records from before the folder was served whose
// entry the disk holds and the buffer just opened (od, from disk) lacks:
// an editor that kept its buffer while the server restarted, or reopened
// it from a swap file, would drop the entry with its next save. s.mu is
// held.
func (s *Server) openedStale(od *openDoc, disk []byte) {
	if disk == nil {
		return
	}
	now := time.Now()
	for _, r := range od.f.journal.Before() {
		if r.File != od.name || r.Add == "" || !memory.HoldsEntry(disk, r.Add) || memory.HoldsEntry(od.doc.text, r.Add) {
			continue
		}
		if memory.ValidAck(r, s.cfg) != nil {
			continue
		}
		a := &ack{Ack: r, learned: now}
		od.f.acks = append(od.f.acks, a)
		od.seen.held[a] = false
	}
}

// learnAcks reads the folder's journal (the caller holds the lock) and
// notes the records it did not know and trusts (memory.Journal), with which
// buffers hold their entry now. s.mu is not held.
func (s *Server) learnAcks(f *folder, now time.Time) {
	recs, problems := f.journal.Read()
	for _, err := range problems {
		s.log.Warningf("%v", err)
	}
	cfg := s.config()
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh, untrusted := f.journal.Learn(recs, cfg)
	for _, err := range untrusted {
		s.log.Warningf("%v", err)
	}
	for _, r := range fresh {
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
			od.seen.held[a] = memory.HoldsEntry(od.doc.text, a.Add) || od.seen.heldSince(a.Add, a.At)
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
		return od == nil || od.seen.held[a] || !a.goneUnless.IsZero() || a.Add == ""
	})
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

// changedText notes a new version of the buffer: the records whose entry
// it holds, and, for a client that sends no didSave (hashTexts), its text,
// a save of which is to be known when it comes (whether or not a record is
// young yet: the store it crosses may be journaled a moment later). A
// client that sends didSave is judged by the stat its didSave saw, so its
// keystrokes hash nothing. s.mu is held.
func (od *openDoc) changedText(b []byte, hashTexts bool) {
	if hashTexts {
		od.noteText(b)
	}
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
// acknowledged entry, with the stat st, is a save of the buffer. s.mu is
// held.
func (s *Server) savedBy(od *openDoc, disk []byte, st memory.Stamp, now time.Time) saveVerdict {
	if !s.caps.didSave {
		if bytes.Equal(disk, od.doc.text) || slices.Contains(od.seen.texts, textHash(disk)) {
			return saved
		}
		return notSaved
	}
	switch {
	case od.seen.saved.Same(st):
		return saved
	case od.seen.waiting.IsZero():
		od.seen.waiting = now
		return awaitSave
	case now.Sub(od.seen.waiting) < saveGrace:
		return awaitSave
	}
	return notSaved
}

// restoreAcks is disk (with the stat st) with every entry put back that a
// save of the buffer p dropped although the buffer never held it, or holds
// it still; and the entry lines it put back. A record whose entry another
// writer took out, or the buffer's own edit did, is let go. wait says that
// a didSave may yet come that decides it: the caller leaves the buffer for
// a later reconcile. s.mu is not held.
func (s *Server) restoreAcks(p *bufferPlan, disk []byte, st memory.Stamp, now time.Time) (out []byte, restored []string, wait bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	od := p.od
	for _, a := range od.f.acks {
		// A didSave that came late, for the disk judged without it.
		if a.File == od.name && a.goneUnless.Same(od.seen.saved) {
			a.goneUnless = memory.Stamp{}
			od.seen.held[a] = false // the reconcile that let it go took it out of the buffer
		}
	}
	verdict, judged := notSaved, false
	for _, a := range od.f.acks {
		if a.File != od.name || a.gone || !a.goneUnless.IsZero() || a.Add == "" || memory.HoldsEntry(disk, a.Add) {
			continue
		}
		if !judged {
			judged, verdict = true, s.savedBy(od, disk, st, now)
			if verdict == awaitSave {
				return disk, nil, true
			}
		}
		if verdict == notSaved {
			// Another writer took it out, as far as the server can tell:
			// unless a didSave says otherwise for this very disk.
			if s.caps.didSave && !st.IsZero() {
				a.goneUnless = st
			} else {
				a.gone = true
			}
			continue
		}
		if od.seen.held[a] && !memory.HoldsEntry(p.doc.text, a.Add) {
			a.gone = true // the buffer's own edit took it out
			continue
		}
		again := memory.Reapply(disk, a.Ack)
		if !memory.Fits(again) {
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
	disk, p.removedAgain = s.removeAgain(p, disk, st, now)
	od.seen.waiting = time.Time{}
	return disk, restored, false
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
		a := &ack{Ack: memory.BroughtAck(p.od.name, line, now), learned: now}
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
	recs := f.journal.Records()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range f.acks {
		if a.File == name && !a.gone && !memory.HoldsEntry(x, a.Add) {
			return true // one to judge, or one a late didSave may reopen
		}
	}
	for _, r := range recs {
		if r.File == name && !f.journal.Learned(r.ID) && r.Add != "" && !memory.HoldsEntry(x, r.Add) {
			return true
		}
	}
	return false
}

// sameEntry reports whether two entry lines hold the same fact.
func sameEntry(a, b string) bool { return memory.HoldsEntry([]byte(b), a) }

// plannedOut forgets the records whose entry a write of ours takes out of
// the file (a delete, a cleanup, an update): the write decided it, and no
// later save is to bring it back. s.mu is not held.
// What it takes out becomes a record of a removal: a save of the buffer
// from before the edit that takes it out of the buffer too writes the
// lines back, and they are taken out again. s.mu is not held.
func (s *Server) plannedOut(od *openDoc, before, after []byte) {
	out := memory.NewEntries(after, before)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range od.f.acks {
		if a.File == od.name && !a.gone && memory.HoldsEntry(before, a.Add) && !memory.HoldsEntry(after, a.Add) {
			a.gone = true
		}
	}
	if len(out) > 0 {
		now := time.Now()
		od.f.acks = append(od.f.acks, &ack{Ack: memory.RemovalAck(od.name, out, now), learned: now})
	}
}

// removeAgain is disk with the lines of the server's own removals taken out
// again where a save of the buffer p from before the edit that removed them
// wrote them back (the buffer lacks them now); and those lines. A removal
// whose lines the buffer holds (the user typed one again, the edit was
// refused) or that another writer brought back is let go. s.mu is held.
func (s *Server) removeAgain(p *bufferPlan, disk []byte, st memory.Stamp, now time.Time) ([]byte, []string) {
	od := p.od
	var removed []string
	for _, a := range od.f.acks {
		if a.File != od.name || a.gone || a.Add != "" {
			continue
		}
		var back []string
		for _, l := range a.Drop {
			if memory.HoldsEntry(disk, l) {
				back = append(back, l)
			}
		}
		if len(back) == 0 {
			continue
		}
		verdict := s.savedBy(od, disk, st, now)
		held := false
		for _, l := range back {
			held = held || memory.HoldsEntry(p.doc.text, l)
		}
		if verdict != saved || held {
			a.gone = true
			continue
		}
		disk = memory.Reapply(disk, a.Ack)
		removed = append(removed, back...)
	}
	return disk, removed
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
		s.showMessage(protocol.MessageTypeError, fmt.Sprintf("%s is past its limit on disk (%d bytes, %d lines), so it is not read, and %s acknowledged as stored %s not in the buffer: a save of the buffer overwrote them or will. Trim the file and store again: %s",
			p.od.name, rules.MaxFileBytes, rules.MaxFileLines, plural(len(lost), "entry", "entries"), map[bool]string{true: "is", false: "are"}[len(lost) == 1], strings.Join(lost, " ")))
		for _, l := range lost {
			s.log.Errorf("%s: not in the buffer while the file is past its size limit: %s", p.od.name, l)
		}
	}
}

// ackOpen reports whether a record of file name may be waiting to be
// judged: one tracked and not forgotten, or the journal holds one not
// learned yet. s.mu is not held.
func (s *Server) ackOpen(f *folder, name string) bool {
	recs := f.journal.Records()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range f.acks {
		if a.File == name && !a.gone {
			return true
		}
	}
	for _, r := range recs {
		if r.File == name && !f.journal.Learned(r.ID) && r.Add != "" {
			return true
		}
	}
	return false
}
