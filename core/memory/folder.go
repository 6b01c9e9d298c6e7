package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// A .memory folder as a long-lived front end (the language server) names,
// reads and writes it. The values are the store's, named here because they
// are what memory's planners speak in; what to read, inside which lock,
// and when a read can be trusted is decided here, so that the front end
// only converts.

type (
	// Change is one file a write replaces, or appends to.
	Change = store.Change
	// Snapshot is a .memory folder as read (for a write, inside the lock).
	Snapshot = store.Snapshot
	// SnapshotFile is one file of a Snapshot.
	SnapshotFile = store.File
	// Ack is a record of the journal of acknowledged stores.
	Ack = store.Ack
	// Stamp is a stat of one file, to tell later whether it is unchanged.
	Stamp = store.Stamp
	// LockOptions tunes how long a write waits for HackLM's lock.
	LockOptions = store.LockOptions
)

const (
	// DirName is the name of the memory folder in a workspace root.
	DirName = store.DirName
	// HeldQueue is the name of the review queue in the memory folder.
	HeldQueue = store.HeldName
)

// ErrTooLarge is the error of a read refused because the file is past
// memfile.MaxBytes.
var ErrTooLarge = store.ErrTooLarge

// Dir is the memory folder of the workspace root.
func Dir(root string) string { return filepath.Join(root, store.DirName) }

// HasDir reports whether the workspace root holds a memory folder.
func HasDir(root string) bool { return store.IsDir(Dir(root)) }

// IsMemoryFile reports whether path is an .md file directly inside a
// memory folder. Decided by path alone, so that any editor's mode for the
// file (a derived mode, a custom language) is one.
func IsMemoryFile(path string) bool {
	return strings.HasSuffix(path, ".md") && filepath.Base(filepath.Dir(path)) == store.DirName
}

// RealPath is path with every symlink resolved; the error says why not
// without the path, which the message around it names.
func RealPath(path string) (string, error) {
	real, err := store.RealPath(path)
	if err != nil {
		return "", store.PathProblem(err)
	}
	return real, nil
}

// StaysIn refuses, naming field, a path that is a symlink leading out of
// the folder dir, or one that cannot be resolved. Nothing at path is
// accepted: a write creates it inside dir, or says why not.
func StaysIn(field, dir, path string) error {
	r, err := store.ResolveIn(dir, path)
	switch {
	case err != nil && store.FailedStep(err) == store.LookingAtPath:
		return nil
	case err != nil:
		return &InputError{Field: field, Problem: fmt.Sprintf("%s is a symlink that cannot be resolved: %v", path, store.PathProblem(err))}
	case !r.Inside:
		return &InputError{Field: field, Problem: fmt.Sprintf("%s is a symlink to %s, outside %s", path, r.Link, dir)}
	}
	return nil
}

// StampOf is the stamp of the file at path; zero when nothing is there.
func StampOf(path string) Stamp { return store.StampOf(path) }

// NewFileBytes is the layout a memory file gets when a write creates it:
// a category file's heading, nothing for another name.
func NewFileBytes(name string) []byte {
	if c, ok := category.FromFile(name); ok {
		return store.NewFileBytes(c)
	}
	return []byte{}
}

// ReadFile reads the memory file at path, bounded: nil when nothing is
// there, ErrTooLarge past memfile.MaxBytes. known (non-nil) is what the
// caller last knew the file to hold, given back itself when the file holds
// exactly that: compared, not copied.
func ReadFile(path string, known []byte) ([]byte, error) {
	return store.ReadOneKnown(path, known)
}

// ReadPastLimit reads the memory file at path as a reader that reconciles
// it does: past reports a file past the limits of a memory file
// (memfile.MaxBytes: not read; memfile.MaxLines: read, but parsed by no
// one), which nothing is planned in, with its size.
func ReadPastLimit(path string) (x []byte, past bool, size int64, err error) {
	x, err = store.ReadOne(path)
	if errors.Is(err, store.ErrTooLarge) || x != nil && !memfile.Fits(x) {
		size = int64(len(x))
		if x == nil {
			if st, err := store.Stat(path); err == nil {
				size = st.Size()
			}
		}
		return x, true, size, nil
	}
	return x, false, 0, err
}

// Fits reports whether x is within the limits of a memory file
// (memfile.MaxBytes, memfile.MaxLines): a text past them is parsed by no
// one, so nothing is planned in it, nor put back into it.
func Fits(x []byte) bool { return memfile.Fits(x) }

// LimitProblem says how x, a memory file's text of size bytes (nil: not
// read, its lines not counted), is past the limits of one; "" when it is
// not.
func LimitProblem(size int64, x []byte) string {
	lines := 0
	if x != nil {
		lines = memfile.Lines(x)
	}
	return memfile.LimitProblem(size, lines)
}

// PastLimit reports whether sf, a memory file read for a write, is past
// the limits of one, so that nothing is planned in it.
func PastLimit(sf *SnapshotFile) bool {
	return sf != nil && (sf.TooLarge() || sf.Data != nil && !memfile.Fits(sf.Data))
}

// Transact runs plan on the .memory folder dir inside its lock (the
// store's transaction, store.Workspace.UpdateOnly): the files named (base
// names; nil: every file) are read afresh, those that hold what known
// (non-nil) gives for their path compared rather than copied, and the
// changes plan returns are written before the lock is released. plan may
// be called again if the store must redo the transaction.
func Transact(ctx context.Context, dir string, names []string, known func(string) []byte, plan func(*Snapshot) ([]Change, error)) ([]Change, error) {
	ws, err := store.Open(filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	ws.Known = known
	return ws.UpdateOnly(ctx, names, plan)
}

// ReadHeldIn reads the review queue of the .memory folder dir (nothing for
// a folder that cannot be opened: a store that needs the queue says why).
func ReadHeldIn(dir string) ([]Held, error) {
	ws, err := store.Open(filepath.Dir(dir))
	if err != nil {
		return nil, nil
	}
	all, _, err := ReadHeld(ws)
	return all, err
}

// settleWait bounds how long ReadSettled waits for the lock; a writer that
// holds it longer is caught by the reconcile that follows instead.
const settleWait = 2 * time.Second

// settleStep is ReadSettled's back-off unit while another writer holds the
// lock: a writer holds it for a write and an fsync, and every step is one
// in which a save could slip in first.
const settleStep = time.Millisecond

// settleTime is how long a text must stay the same to be taken as whole.
const settleTime = 20 * time.Millisecond

// ReadSettled reads the memory file at path of the .memory folder dir
// inside the folder's lock, and gives keep its text while the lock is
// still held, so that a write that follows comes after what keep did. The
// lock means a HackLM write in place is never seen half done; editors save
// without the lock, some in place, so a text that changes within a moment
// is not given. Nothing is given either when the lock is not had soon, or
// the file is absent or cannot be read.
func ReadSettled(dir, path string, keep func(x []byte)) {
	ctx, cancel := context.WithTimeout(context.Background(), settleWait)
	defer cancel()
	lock, err := store.AcquireContext(ctx, dir, store.LockOptions{Step: settleStep, Tries: int(settleWait / settleStep)})
	if err != nil {
		return
	}
	defer lock.Release()
	x, err := store.ReadOne(path)
	if err != nil || x == nil {
		return
	}
	time.Sleep(settleTime)
	if again, err := store.ReadOne(path); err != nil || !bytes.Equal(again, x) {
		return
	}
	keep(x)
}
