package memory

import (
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/merge"
)

// An editor's buffer of a memory file and the file on disk drift apart
// whenever another writer writes the file while it is open; the editor
// front end keeps them in step with the planners below. merge.Reconcile
// says, entry by entry, what each should hold; Reconcile adds the file
// limits, which decide what can be restored or brought in at all.

// Reconciled is what an open buffer and its file should hold.
type Reconciled struct {
	merge.Reconciled
	// Unrestored are entries an overwrite dropped that are not put back:
	// restoring them would take the file past its limits (memfile.Fits),
	// and every later write of the folder would be refused.
	Unrestored []string
	// NotBroughtIn are entries on disk left out of the buffer: with the
	// buffer's unsaved lines they would take it past the limits, and its
	// save would write a file no reader reads. Buffer is then the buffer
	// as it was.
	NotBroughtIn []string
}

// Reconcile brings an open buffer and its file into step: base is the
// disk text the buffer last matched, buffer the editor's text now, last
// the disk text last seen since base, disk the file now (nil: absent).
// See merge.Reconcile for what each side keeps.
func Reconcile(base, buffer, last, disk []byte) Reconciled {
	r := Reconciled{Reconciled: merge.Reconcile(base, buffer, last, disk)}
	if !memfile.Fits(r.Disk) && len(r.Restored) > 0 {
		r.Unrestored = r.Restored
		r.Reconciled = merge.Reconcile(base, buffer, nil, disk)
	}
	if !memfile.Fits(r.Buffer) {
		r.NotBroughtIn = merge.NewEntries(buffer, r.Buffer)
		r.Buffer = buffer
		// nothing was brought in: a message saying so would be false
		r.Brought = nil
	}
	return r
}

// Carry is change (a planned text of base) carried onto onto, another
// text of base: what change added, altered or removed since base, applied
// to onto, whose own changes stay.
func Carry(base, onto, change []byte) []byte { return merge.Carry(base, onto, change).Data }

// NewEntries are the entry lines of after that before does not hold, in
// after's order.
func NewEntries(before, after []byte) []string { return merge.NewEntries(before, after) }
