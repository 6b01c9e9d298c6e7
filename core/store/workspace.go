// Package store is the disk boundary: the only code that touches the file
// system, for the rest of core and for the front ends (lsp, mcp, cmd) alike
// (core/deps_test.go holds core to it). It reads and writes `.memory/` the
// way HackLM Memory expects, concurrently with it: every write runs inside
// the shared `.memory/.lock` (lock.go), re-reads the files inside the lock,
// lets a pure function decide, and replaces files atomically (atomic.go).
// Where a path leads, and whether it stays where it should, is decided in
// one place (paths.go); other files and stats are files.go and stat.go.
package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// DirName is the memory folder inside a workspace root.
const DirName = ".memory"

// MaxReadBytes is the largest memory file Snapshot reads (memfile.MaxBytes,
// 8 MiB, above which rules report a file and never parse it). A larger file
// is listed with its Size and no Data: reading it would cost as much memory
// and time as it is large, on every command and, in the language server, on
// every keystroke, only to report that it is too large; and a
// multi-gigabyte file would exhaust memory.
const MaxReadBytes = memfile.MaxBytes

// NewFileBytes is our clean layout for a new category file: the plural
// heading and one blank line ("# Decisions\n\n"). Entries follow, one a line.
func NewFileBytes(cat category.Category) []byte {
	return []byte("# " + cat.Plural() + "\n\n")
}

// FindRoot walks up from start to the nearest folder that holds a `.memory`
// directory and returns it. If there is none, it returns the top of the git
// repository start is in (the folder holding `.git`), so that a first store
// from `proj/cmd/app` creates `proj/.memory`, not `proj/cmd/app/.memory`;
// outside a repository, start itself, made absolute.
func FindRoot(start string) (string, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("finding workspace root from %s: %w", start, err)
	}
	gitTop := ""
	for dir := abs; ; {
		if fi, err := os.Stat(filepath.Join(dir, DirName)); err == nil && fi.IsDir() {
			return dir, nil
		}
		if gitTop == "" {
			// .git is a folder, or a file in a worktree or submodule
			if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
				gitTop = dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if gitTop != "" {
		return gitTop, nil
	}
	return abs, nil
}

// Workspace is one folder whose memory lives in Dir = Root/.memory.
type Workspace struct {
	Root string
	Dir  string
	// Lock tunes the cross-process lock taken by Update (zero = defaults).
	Lock LockOptions

	// Known, when set, gives the bytes the file at a path is expected to
	// hold (nil: none), such as what this process last wrote or read
	// there: a file that holds exactly them is compared with them a block
	// at a time and given as them (File.Data), instead of being read into
	// a new buffer, as a long-lived process would on every store (2 MB at
	// 20,000 entries, read inside the lock) and every check after it. The
	// bytes are the file's all the same; they must not be changed.
	Known func(path string) []byte

	// hook, nil in production, is called by Update at each stage so that a
	// crash test can stop a writer there and kill it.
	hook func(stage)
}

// Open checks root and returns its workspace. `.memory` need not exist yet
// (Update creates it); if it exists it must be a directory, and a symlink
// only if it stays inside root.
func Open(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("opening workspace %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("opening workspace %s: %w", abs, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("opening workspace %s: not a directory", abs)
	}
	if err := notMemoryDir(abs); err != nil {
		return nil, err
	}
	w := &Workspace{Root: abs, Dir: filepath.Join(abs, DirName)}
	if _, err := w.checkDir(); err != nil {
		return nil, err
	}
	return w, nil
}

// notMemoryDir refuses a root that is a `.memory` folder itself (`--root
// .memory`), which would otherwise be read as an empty workspace and get a
// `.memory/.memory/` on its first store. It is refused rather than taken as
// its parent: roots also come from editors and agents (the language server,
// MCP), and init writes beside `.memory` (.github/, AGENTS.md, CLAUDE.md),
// so a root silently taken as its parent would write outside the folder that
// was named; the user who typed it is better told. (check's positional PATH
// names what to check, not a root, and does take a `.memory` folder as its
// workspace.) A folder named `.memory` that holds its own `.memory` folder
// is a workspace like any other (FindRoot would pick it too), so it is
// accepted. The name is tested as given and after resolving symlinks, so a
// link to a `.memory` folder is caught as well.
func notMemoryDir(abs string) error {
	mem := "" // the .memory folder abs is, as the user can best find it
	if filepath.Base(abs) == DirName {
		mem = abs
	} else if real, err := filepath.EvalSymlinks(abs); err == nil && filepath.Base(real) == DirName {
		mem = real
	}
	if mem == "" {
		return nil
	}
	if fi, err := os.Stat(filepath.Join(abs, DirName)); err == nil && fi.IsDir() {
		return nil
	}
	return fmt.Errorf("refusing to use %s as the workspace: it is a %s folder itself, and its memory would go into %s; pass the folder that holds it, %s",
		abs, DirName, filepath.Join(abs, DirName), filepath.Dir(mem))
}

// checkDir verifies that Dir is safe to use and reports whether it exists.
func (w *Workspace) checkDir() (bool, error) {
	r, err := ResolveIn(w.Root, w.Dir)
	switch {
	case err == nil:
	case FailedStep(err) == LookingAtPath && errors.Is(err, fs.ErrNotExist):
		return false, nil
	case FailedStep(err) == ResolvingLink:
		return false, fmt.Errorf("checking %s: resolving symlink: %w", w.Dir, err)
	case FailedStep(err) == ResolvingBase:
		return false, fmt.Errorf("checking %s: %w", w.Root, err)
	default:
		return false, fmt.Errorf("checking %s: %w", w.Dir, err)
	}
	fi := r.Info
	if r.Link != "" {
		if !r.Inside {
			return false, fmt.Errorf("refusing to use %s: it is a symlink to %s, outside the workspace %s", w.Dir, r.Link, w.Root)
		}
		if fi, err = os.Stat(r.Link); err != nil {
			return false, fmt.Errorf("checking %s: %w", w.Dir, err)
		}
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("refusing to use %s: not a directory", w.Dir)
	}
	return true, nil
}

// File is one `*.md` file of a snapshot.
type File struct {
	Path     string // Dir/Name
	Name     string // base name, e.g. "decisions.md"
	Category category.Category
	Known    bool // Name is one of the five category files; Category is valid
	Exists   bool
	// Data is the content; nil when the file is absent, over MaxReadBytes
	// (TooLarge) or a symlink leading outside (Link).
	Data []byte
	// Size is the length in bytes of an existing file that was read or was
	// too large to be read.
	Size int64
	Mode fs.FileMode // permission bits of an existing file
	// Link is the resolved target when the file is a symlink. Other
	// (unknown) files whose symlink leads outside `.memory` are listed with
	// Data nil; a category file like that makes Snapshot fail.
	Link string
}

// TooLarge reports whether the file exists but is over MaxReadBytes, so that
// Snapshot left it unread: its Data is nil and only its Size is known.
func (f *File) TooLarge() bool { return f.Exists && f.Data == nil && f.Size > MaxReadBytes }

// Snapshot is the content of `.memory/` at one moment: the five category
// files in category order (absent ones with Exists false), then every other
// `*.md` in name order.
type Snapshot struct {
	Dir   string
	Files []File
	// Held is the review queue (HeldName), read when the snapshot reads
	// every file or names it; nil when there is none. HeldErr is why it
	// could not be read: only a write that uses the queue fails on it, so
	// a broken queue never stops the stores that hold nothing.
	Held    []byte
	HeldErr error
}

// Category returns the file of category c.
func (s *Snapshot) Category(c category.Category) *File {
	for i := range s.Files {
		if f := &s.Files[i]; f.Known && f.Category == c {
			return f
		}
	}
	return nil
}

// Lookup returns the file with base name name, or nil.
func (s *Snapshot) Lookup(name string) *File {
	for i := range s.Files {
		if s.Files[i].Name == name {
			return &s.Files[i]
		}
	}
	return nil
}

// Snapshot reads `.memory/`. A missing directory gives five absent files.
// It takes no lock (HackLM's reads don't either); files are replaced
// atomically, so each file is read whole, old or new. A file over
// MaxReadBytes is not read at all (see File.TooLarge).
func (w *Workspace) Snapshot() (*Snapshot, error) {
	return w.snapshot(nil)
}

// SnapshotOnly is a snapshot of only the files named (base names), read
// without the lock as Snapshot reads: what a dry run of a write that reads
// those files alone (UpdateOnly) plans on.
func (w *Workspace) SnapshotOnly(names []string) (*Snapshot, error) {
	return w.snapshot(names)
}

// snapshot is Snapshot, or with names non-nil a snapshot of only the files
// named (base names): the others are neither read nor listed. Every other
// category file is still resolved, and refused as Snapshot refuses it when
// it is a symlink leading out of the folder, so that a transaction fails
// where it failed with the whole folder read.
func (w *Workspace) snapshot(names []string) (*Snapshot, error) {
	exists, err := w.checkDir()
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: w.Dir}
	realDir := w.Dir
	if exists {
		if realDir, err = filepath.EvalSymlinks(w.Dir); err != nil {
			return nil, fmt.Errorf("reading %s: %w", w.Dir, err)
		}
	}
	for _, c := range category.All {
		f := File{Path: filepath.Join(w.Dir, c.File()), Name: c.File(), Category: c, Known: true}
		read := names == nil || slices.Contains(names, f.Name)
		if exists {
			if err := readFile(&f, realDir, read, w.known(f.Path)); err != nil {
				return nil, err
			}
			if f.Exists && f.Data == nil && !f.TooLarge() {
				return nil, fmt.Errorf("refusing to read %s: symlink to %s, outside %s", f.Path, f.Link, w.Dir)
			}
		}
		if read {
			s.Files = append(s.Files, f)
		}
	}
	if !exists {
		return s, nil
	}
	if names == nil || slices.Contains(names, HeldName) {
		s.Held, s.HeldErr = readHeld(realDir)
	}
	// The other *.md files, in name order: those named, else every one.
	// Named ones too are taken from the folder's listing, as it spells
	// them: on a case-insensitive file system a buffer's "Decisions.md"
	// would otherwise be read as a second file beside decisions.md.
	ents, err := os.ReadDir(w.Dir)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", w.Dir, err)
	}
	var others []string
	for _, e := range ents {
		if names == nil || slices.Contains(names, e.Name()) {
			others = append(others, e.Name())
		}
	}
	for _, name := range others {
		if !strings.HasSuffix(name, ".md") || strings.Contains(name, tempMarker) {
			continue
		}
		if _, known := category.FromFile(name); known {
			continue
		}
		f := File{Path: filepath.Join(w.Dir, name), Name: name}
		if err := readFile(&f, realDir, true, w.known(f.Path)); err != nil {
			return nil, err
		}
		if f.Exists {
			s.Files = append(s.Files, f)
		}
	}
	return s, nil
}

// known is w.Known(path), or nil.
func (w *Workspace) known(path string) []byte {
	if w.Known == nil {
		return nil
	}
	return w.Known(path)
}

// readFile fills f from disk. Missing → Exists false. A symlink leading
// outside realDir is left unread (Exists true, Data nil, Link set). Anything
// that is not a regular file (a directory named x.md) counts as absent for
// unknown files and is an error for category files. Without read, a file
// that passes those checks is not read, and left with Exists false. A file
// that holds exactly known (non-nil) gets known as its Data.
func readFile(f *File, realDir string, read bool, known []byte) error {
	r, err := ResolveIn(realDir, f.Path)
	switch {
	case err == nil:
	case FailedStep(err) != ResolvingBase && errors.Is(err, fs.ErrNotExist):
		return nil // absent, or a dangling link
	case FailedStep(err) == ResolvingLink:
		return fmt.Errorf("reading %s: resolving symlink: %w", f.Path, err)
	default:
		return fmt.Errorf("reading %s: %w", f.Path, err)
	}
	fi := r.Info
	if r.Link != "" {
		f.Link = r.Link
		if !r.Inside {
			f.Exists = true
			return nil
		}
		if fi, err = os.Stat(r.Link); err != nil {
			return fmt.Errorf("reading %s: %w", f.Path, err)
		}
	}
	if !fi.Mode().IsRegular() {
		return notRegular(f)
	}
	if !read {
		return nil
	}
	data, size, mode, err := readKnown(f.Path, MaxReadBytes, known)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, errNotRegular):
		return notRegular(f) // replaced by a pipe or device since the Lstat
	case err != nil:
		return fmt.Errorf("reading %s: %w", f.Path, err)
	}
	f.Exists, f.Data, f.Size, f.Mode = true, data, size, mode.Perm()
	return nil
}

func notRegular(f *File) error {
	if f.Known {
		return fmt.Errorf("reading %s: not a regular file", f.Path)
	}
	return nil
}

var errNotRegular = errors.New("not a regular file")

// readAtMost reads the regular file at path if it holds at most limit
// bytes. A larger file gives nil data and its size, having read at most
// limit+1 bytes of it (the file may grow between the size check and the
// read). The size and type are those of the opened file, so a file replaced
// between a caller's Lstat and the open is judged as it is read; a pipe or
// device gives errNotRegular without blocking (openRead). An empty file gives
// non-nil empty data.
// openRegular opens path for reading without blocking (a FIFO put in a
// file's place would hold the open) and returns it with its stat, or
// errNotRegular, closed, for anything but a regular file.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	fh, err := openRead(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := fh.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errNotRegular
	}
	if err != nil {
		fh.Close()
		return nil, nil, err
	}
	return fh, fi, nil
}

func readAtMost(path string, limit int64) (data []byte, size int64, mode fs.FileMode, err error) {
	return readKnown(path, limit, nil)
}

// readKnown is readAtMost, giving known itself (non-nil) when the file
// holds exactly those bytes.
func readKnown(path string, limit int64, known []byte) (data []byte, size int64, mode fs.FileMode, err error) {
	fh, fi, err := openRegular(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer fh.Close()
	mode = fi.Mode()
	if size = fi.Size(); size > limit {
		return nil, size, mode, nil
	}
	if known != nil && size == int64(len(known)) {
		same, err := sameBytes(fh, known)
		if err != nil {
			return nil, 0, 0, err
		}
		if same {
			return known, size, mode, nil
		}
		// Not those bytes (or changed meanwhile): read it whole.
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, 0, 0, err
		}
	}
	// One allocation for the usual case: the size, plus one byte so that
	// the read which sees EOF needs no room of its own.
	buf := make([]byte, 0, size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // the file grew: let append pick the room
		}
		end := min(cap(buf), int(limit)+1)
		n, rerr := fh.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			if fi, err := fh.Stat(); err == nil {
				size = max(fi.Size(), int64(len(buf)))
			} else {
				size = int64(len(buf))
			}
			return nil, size, mode, nil
		}
		if rerr == io.EOF {
			return buf, int64(len(buf)), mode, nil
		}
		if rerr != nil {
			return nil, 0, 0, rerr
		}
	}
}

// Change replaces one file in `.memory/` with Data. Path is absolute or
// relative to the `.memory` directory.
type Change struct {
	Path string
	Data []byte
	// Append adds Data to the end of a log (conflicts.log) instead of
	// replacing the file; appends run after every file of the update is
	// written, so a log never records a change that did not happen.
	Append bool
}

// Update is the write transaction. It creates `.memory` if missing, takes
// the lock, removes temp files left by writers that died (see removeTemps),
// reads a fresh Snapshot inside it, and calls fn, which must only
// decide (no I/O) and return the files to replace. Every change is checked
// before anything is written (a direct child of `.memory`, not hidden, not a
// symlink leading outside, no duplicates); changes whose bytes equal the
// current content are dropped; the rest are written with WriteFileAtomic in
// order. The lock is released on every path, also when fn panics (the panic
// becomes an error). Update returns the changes it wrote.
//
// Each file is replaced atomically; several files are written one after the
// other, so a failure part-way leaves the earlier ones written (the error
// names the file that failed).
//
// A writer can be paused inside the lock for longer than the lock's Stale
// age (a stopped process, a sleeping laptop, a debugger, a slow disk); then
// another writer rightly takes the lock over and writes. So just before each
// file is replaced, Update checks that the lock still holds our bytes and
// that the file is still what the snapshot read. If not, the temp file is
// dropped, the file is left alone, and the whole transaction is done again
// under a new lock on a fresh snapshot (fn is pure, so running it again is
// safe; a file this transaction already wrote is then in the snapshot, and
// fn plans on it). Between that check and the rename a few instructions
// remain in which a takeover still cannot be seen: closing that window needs
// a lock the kernel enforces, which HackLM's protocol is not.
func (w *Workspace) Update(ctx context.Context, fn func(s *Snapshot) ([]Change, error)) (written []Change, err error) {
	return w.UpdateOnly(ctx, nil, fn)
}

// UpdateOnly is Update with a snapshot of only the files named (base names,
// such as "decisions.md"; nil: every file), for a transaction that plans on
// a few files: a store reads its category file, not the four others (8 MB
// at 100,000 entries, read inside the lock for nothing). fn must write only
// files it was given: a file outside the snapshot was not read, so the
// check before its replacement finds it changed, and the update fails
// rather than replace bytes nobody read.
func (w *Workspace) UpdateOnly(ctx context.Context, names []string, fn func(s *Snapshot) ([]Change, error)) (written []Change, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	for try := 1; ; try++ {
		done, err := w.updateOnce(ctx, names, fn)
		written = append(written, done...)
		if !errors.Is(err, errOvertaken) {
			return written, err
		}
		if try == maxRedo {
			return written, fmt.Errorf("updating %s: %d times the lock was taken over, or the file changed under it, while this writer was paused; nothing of this try was written: %w", w.Dir, try, err)
		}
	}
}

// maxRedo bounds how often Update starts again after being overtaken.
const maxRedo = 5

// errOvertaken is wrapped by updateOnce's error when the lock was taken
// over, or a file changed under it, before a file was replaced.
var errOvertaken = errors.New("overtaken while holding the lock")

// updateOnce is one try of Update.
func (w *Workspace) updateOnce(ctx context.Context, names []string, fn func(s *Snapshot) ([]Change, error)) (written []Change, err error) {
	exists, err := w.checkDir()
	if err != nil {
		return nil, err
	}
	if !exists {
		if err := os.Mkdir(w.Dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("creating %s: %w", w.Dir, err)
		}
		if _, err := w.checkDir(); err != nil {
			return nil, err
		}
	}
	lock, err := AcquireContext(ctx, w.Dir, w.Lock)
	if err != nil {
		return nil, err
	}
	defer func() {
		rerr := lock.Release()
		if rerr != nil && err == nil {
			err = rerr
		}
	}()
	w.at(stageLocked)
	removeTemps(w.Dir)

	snap, err := w.snapshot(names)
	if err != nil {
		return nil, err
	}
	changes, err := callFn(fn, snap)
	if err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		return nil, nil
	}
	todo, err := w.checkChanges(snap, changes)
	if err != nil {
		return nil, err
	}
	for _, c := range todo {
		if !c.Append && names != nil && !slices.Contains(names, filepath.Base(c.Path)) {
			return nil, fmt.Errorf("refusing to write %s: this update did not read it", c.Path)
		}
	}
	for _, c := range todo {
		if c.Append {
			continue
		}
		if err := ctx.Err(); err != nil {
			return written, fmt.Errorf("updating %s: %w", w.Dir, err)
		}
		if err := writeFileAtomic(c.Path, c.Data, w.hook, stillOurs(lock, snap, c.Path)); err != nil {
			return written, err
		}
		written = append(written, c)
	}
	for _, c := range todo {
		if !c.Append || IsJournal(c.Path) {
			continue
		}
		if err := appendLog(c.Path, c.Data); err != nil {
			return written, err
		}
		written = append(written, c)
	}
	// The journal last, and inside the lock: a server that reads it there
	// sees every record of what the files it reads hold.
	for _, c := range todo {
		if !IsJournal(c.Path) {
			continue
		}
		// Not in written: the journal is not memory, and readers that
		// follow what a write changed have nothing to do with it.
		if err := appendJournal(c.Path, c.Data, time.Now()); err != nil {
			return written, err
		}
	}
	w.at(stageWritten)
	return written, nil
}

// stillOurs is the check made just before path is replaced: the lock still
// holds our bytes and the file is still what snap read.
func stillOurs(lock *Lock, snap *Snapshot, path string) func() error {
	return func() error {
		if !lock.Held() {
			return fmt.Errorf("%w: the lock %s no longer holds our bytes", errOvertaken, lock.Path())
		}
		var was []byte
		if f := snap.Lookup(filepath.Base(path)); f != nil && f.Exists {
			was = f.Data
		} else if IsHeld(path) {
			// The review queue: read as bytes only, nil for absent or empty.
			same, err := holds(path, snap.Held)
			switch {
			case errors.Is(err, fs.ErrNotExist) && len(snap.Held) == 0, err == nil && same:
				return nil
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				return err
			}
			return fmt.Errorf("%w: %s changed", errOvertaken, path)
		}
		same, err := holds(path, was)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if was != nil {
				return fmt.Errorf("%w: %s was removed", errOvertaken, path)
			}
			return nil
		case err != nil:
			return err
		case was == nil || !same:
			return fmt.Errorf("%w: %s changed", errOvertaken, path)
		}
		return nil
	}
}

// holds reports whether the regular file at path holds exactly want. It
// compares a block at a time rather than reading the file whole: the
// check runs before every write, and a copy of a 2 MB file is garbage the
// collector of a long-lived process must then chase.
func holds(path string, want []byte) (bool, error) {
	fh, fi, err := openRegular(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	if fi.Size() != int64(len(want)) {
		return false, nil
	}
	return sameBytes(fh, want)
}

// sameBytes reports whether what is left to read in fh is exactly want,
// reading a block at a time.
func sameBytes(fh *os.File, want []byte) (bool, error) {
	buf := make([]byte, min(64<<10, len(want)+1))
	at := 0
	for {
		n, rerr := fh.Read(buf)
		if at+n > len(want) || !bytes.Equal(buf[:n], want[at:at+n]) {
			return false, nil // longer, or different
		}
		at += n
		if rerr == io.EOF {
			return at == len(want), nil
		}
		if rerr != nil {
			return false, rerr
		}
	}
}

func (w *Workspace) at(s stage) {
	if w.hook != nil {
		w.hook(s)
	}
}

func callFn(fn func(*Snapshot) ([]Change, error), s *Snapshot) (changes []Change, err error) {
	defer func() {
		if r := recover(); r != nil {
			changes, err = nil, fmt.Errorf("update of %s panicked: %v", s.Dir, r)
		}
	}()
	return fn(s)
}

// checkChanges validates every change and returns the ones that alter a
// file, with absolute paths.
func (w *Workspace) checkChanges(snap *Snapshot, changes []Change) ([]Change, error) {
	realDir, err := filepath.EvalSymlinks(w.Dir)
	if err != nil {
		return nil, fmt.Errorf("updating %s: %w", w.Dir, err)
	}
	seen := map[string]bool{}
	var todo []Change
	for _, c := range changes {
		p := c.Path
		if p == "" {
			return nil, fmt.Errorf("refusing to write: a change has no path")
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(w.Dir, p)
		}
		p = filepath.Clean(p)
		name := filepath.Base(p)
		if filepath.Dir(p) != w.Dir {
			return nil, fmt.Errorf("refusing to write %s: only files directly inside %s may be written", c.Path, w.Dir)
		}
		if IsJournal(p) {
			if !c.Append {
				return nil, fmt.Errorf("refusing to write %s: the journal is only appended to", c.Path)
			}
			if err := journalWritable(p); err != nil {
				return nil, err
			}
			todo = append(todo, Change{Path: p, Data: c.Data, Append: true})
			continue
		} else if strings.HasPrefix(name, ".") && !IsHeld(p) {
			return nil, fmt.Errorf("refusing to write %s: hidden files (like the lock) are not memory files", c.Path)
		} else if IsHeld(p) && snap.HeldErr != nil {
			return nil, snap.HeldErr
		}
		if isRecord(p) {
			if err := recordWritable(p); err != nil {
				return nil, err
			}
		}
		if seen[p] && !c.Append {
			return nil, fmt.Errorf("refusing to write %s: changed twice in one update", c.Path)
		}
		seen[p] = seen[p] || !c.Append
		r, err := ResolveIn(realDir, p)
		switch {
		case err == nil && r.Link != "" && !r.Inside:
			return nil, fmt.Errorf("refusing to write %s: symlink to %s, outside %s", p, r.Link, w.Dir)
		case err == nil && r.Link == "" && !r.Info.Mode().IsRegular():
			return nil, fmt.Errorf("refusing to write %s: not a regular file", p)
		case err == nil:
		case FailedStep(err) == ResolvingLink:
			return nil, fmt.Errorf("refusing to write %s: cannot resolve symlink: %w", p, err)
		case FailedStep(err) == ResolvingBase || !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("updating %s: %w", p, err)
		}
		f := snap.Lookup(name)
		if f != nil && f.TooLarge() {
			// The planners refuse such a file themselves; this is the net
			// under them. Whatever they planned was planned without its
			// bytes, so writing it would replace data nobody read.
			return nil, fmt.Errorf("refusing to write %s: it is %d bytes, over the %d-byte limit of a memory file, so it was not read and is not rewritten", p, f.Size, int64(MaxReadBytes))
		}
		if c.Append {
			if len(c.Data) > 0 {
				todo = append(todo, Change{Path: p, Data: c.Data, Append: true})
			}
			continue
		}
		if len(c.Data) > MaxReadBytes {
			// The planners refuse to grow a file past the limit themselves
			// (memory.RefuseGrowth); this is the net under them, and under
			// any write that carries a change onto a larger disk text. No
			// reader reads such a file, so what the write put there would
			// be acknowledged and then lost.
			return nil, fmt.Errorf("refusing to write %s: the new text is %d bytes, over the %d-byte limit of a memory file past which it is not read; nothing was written", p, len(c.Data), int64(MaxReadBytes))
		}
		if n := memfile.Lines(c.Data); n > memfile.MaxLines && strings.HasSuffix(name, ".md") {
			// The same net for the line limit, past which a file is read
			// but not parsed: what the write put there would go unseen.
			return nil, fmt.Errorf("refusing to write %s: the new text holds %d lines, over the %d-line limit of a memory file past which it is not parsed; nothing was written", p, n, memfile.MaxLines)
		}
		if f != nil && f.Exists && f.Data != nil && bytes.Equal(f.Data, c.Data) {
			continue
		}
		todo = append(todo, Change{Path: p, Data: c.Data})
	}
	return todo, nil
}
