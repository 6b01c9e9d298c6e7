package merge

import (
	"bytes"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// An editor buffer of a memory file and the file on disk drift apart
// whenever someone else (an agent, HackLM, the CLI) writes the file while
// it is open. Saving the buffer then would overwrite the other writer's
// entries. Reconcile decides, entry by entry, what the buffer and the disk
// should hold so that neither side's facts are lost. It needs four texts:
//
//   - base: the disk text the buffer last matched (when it was opened,
//     saved, or last reconciled); the common ancestor of buffer and disk;
//   - buffer: the editor's text now, with its unsaved edits;
//   - last: the disk text last seen by whoever keeps this state (read or
//     written by it since base); equal to base unless the disk changed and
//     the buffer has not taken the change in yet;
//   - disk: the file now.
//
// When last differs from both base and disk, something overwrote a disk
// text the buffer had not caught up with: most often the editor saving its
// buffer before the entries another writer added could be brought into it.
// Those entries are restored (Merge(base, disk, last)): what the overwrite
// changed since base wins, and what last had added since base comes back.
// (Had the overwrite come from a writer that read last and deleted one of
// its new entries on purpose, that entry comes back too; the window for that
// is the moment between a write and the buffer taking it in, and bringing
// back a deleted line is the failure that loses nothing.)

// Reconciled is what a buffer and its file should hold.
type Reconciled struct {
	// Disk is what the file should hold; equal to the disk text unless
	// entries are restored.
	Disk []byte
	// Buffer is what the buffer should hold: its own edits and every entry
	// the disk gained since base.
	Buffer []byte
	// Restored are the entry lines Disk puts back, which an overwrite had
	// dropped.
	Restored []string
	// Brought are the entry lines the buffer gains from the disk.
	Brought []string
	// Conflicts are entries the buffer and the disk changed differently;
	// both versions are in Buffer (see Merge).
	Conflicts []Conflict
}

// Reconcile brings buffer and disk into step (see above). A nil disk is a
// file that is absent: deleting a whole memory file is a deliberate act, so
// the buffer is left as it is (saving it brings the file back), and nothing
// is written.
func Reconcile(base, buffer, last, disk []byte) Reconciled {
	if disk == nil {
		return Reconciled{Buffer: buffer}
	}
	r := Reconciled{Disk: disk}
	if last != nil && !bytes.Equal(last, base) && !bytes.Equal(last, disk) {
		restored := Carry(base, disk, last)
		if !bytes.Equal(restored.Data, disk) {
			r.Disk = restored.Data
			r.Restored = newEntries(disk, r.Disk)
		}
	}
	switch {
	case bytes.Equal(r.Disk, base), bytes.Equal(r.Disk, buffer):
		r.Buffer = buffer
	case bytes.Equal(buffer, base):
		r.Buffer = r.Disk
	default:
		m := Carry(base, buffer, r.Disk)
		r.Buffer, r.Conflicts = m.Data, m.Conflicts
	}
	r.Brought = newEntries(buffer, r.Buffer)
	return r
}

// NewEntries are the entry lines of after that before does not hold, in
// after's order (each line as many times as after holds it more often).
func NewEntries(before, after []byte) []string { return newEntries(before, after) }

func newEntries(before, after []byte) []string {
	have := map[string]int{}
	for _, e := range memfile.Parse(before).Entries {
		have[entryKey(e)]++
	}
	var out []string
	for _, e := range memfile.Parse(after).Entries {
		k := entryKey(e)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, memfile.EntryLine(slugOf(e), e.Content))
	}
	return out
}

func entryKey(e memfile.Entry) string { return slugOf(e) + "\x00" + e.Content }

func slugOf(e memfile.Entry) string {
	if e.HasSlug {
		return e.Slug
	}
	return ""
}
