package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The acknowledgement journal. A writer that tells someone "stored" has put
// the entry on disk, but an editor holding the file open may save its
// buffer over it a moment later, before the language server has even read
// the file: then nothing the server saw records the entry. So every one of
// our writers (the CLI, the MCP server, the language server) appends what it
// acknowledged to this journal inside the same lock as the write, before the
// lock is released; the language server reads the journal inside the lock
// whenever it reconciles a buffer with the disk, and puts back an entry that
// a save of a buffer which never held it dropped (ARCHITECTURE.md, "Nothing
// acknowledged is lost"). The journal sits beside the lock because every
// process that may write `.memory/` can write there (an agent's sandbox may
// keep `.git` read-only), and HackLM reads only its category files.

// JournalName is the journal's file name in `.memory/`.
const JournalName = ".acked"

// JournalKeep is how long a record stays in the journal. A server reads the
// journal at every change it sees in the folder, so a record is needed only
// until each running server has seen one change after it; an hour covers a
// server that saw no event (a watcher that failed) until the next save.
const JournalKeep = time.Hour

// journalMaxBytes bounds the journal: past it, appending rewrites it with
// the records younger than JournalKeep, at most half of it.
const journalMaxBytes = 256 << 10

// Ack is one journal record: what a write acknowledged in one file.
type Ack struct {
	// ID tells records apart (a reader remembers those it has seen).
	ID string    `json:"id"`
	At time.Time `json:"at"`
	// File is the memory file's base name.
	File string `json:"file"`
	// Add is the entry line the writer acknowledged as stored ("" for a
	// record that only removes).
	Add string `json:"add,omitempty"`
	// Drop are the entry lines the write removed (an update's old line, an
	// evicted entry): putting Add back puts these out again.
	Drop []string `json:"drop,omitempty"`
	// By names the writer ("cli", "mcp", "lsp").
	By string `json:"by,omitempty"`
}

var ackSeq atomic.Uint64

// NewAck is a record of now with an ID no other record of this process or
// of another process has.
func NewAck(file, add string, drop []string, by string, now time.Time) Ack {
	id := strconv.FormatInt(now.UnixNano(), 36) + "-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(ackSeq.Add(1), 36)
	return Ack{ID: id, At: now.UTC(), File: file, Add: add, Drop: drop, By: by}
}

// Encode is the record as the journal holds it: one line of JSON.
func (a Ack) Encode() []byte {
	b, err := json.Marshal(a)
	if err != nil {
		// Strings and a time always marshal.
		panic(fmt.Sprintf("encoding a journal record: %v", err))
	}
	return append(b, '\n')
}

// IsJournal reports whether path is a journal: its changes are appended
// records, which Update writes after every file and before it releases
// the lock.
func IsJournal(path string) bool { return filepath.Base(path) == JournalName }

// ReadJournal returns the records of the journal in dir (a `.memory`
// folder), oldest first; none when it is absent. Their age is the writers'
// to judge (they drop old records as they append): a reader compares
// records by ID, never by a clock another process kept. A line that does
// not decode (a writer killed mid-append) is skipped: the records around
// it still count.
func ReadJournal(dir string) ([]Ack, error) {
	data, _, _, err := readAtMost(filepath.Join(dir, JournalName), journalReadBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the journal of %s: %w", dir, err)
	}
	return decodeJournal(data, time.Time{}), nil
}

// journalReadBytes bounds what is read of a journal: one that is larger
// was not written by our writers, which keep it under journalMaxBytes.
const journalReadBytes = 4 * journalMaxBytes

// decodeJournal is the records of data; with now non-zero, only those
// younger than JournalKeep.
func decodeJournal(data []byte, now time.Time) []Ack {
	var out []Ack
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var a Ack
		if json.Unmarshal(line, &a) != nil || a.ID == "" || a.File == "" {
			continue
		}
		if !now.IsZero() && now.Sub(a.At) > JournalKeep {
			continue
		}
		out = append(out, a)
	}
	return out
}

// appendJournal appends records to the journal at path, and rewrites it
// with its young records once it has grown past journalMaxBytes or its
// first record is old (so that it holds little more than JournalKeep's
// records). The caller holds the lock.
func appendJournal(path string, data []byte, now time.Time) error {
	if err := journalWritable(path); err != nil {
		return err
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		IgnoreJournal(filepath.Dir(path))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, NewFileMode)
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	_, err = f.Write(data)
	fi, serr := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	if fi.Size() <= journalMaxBytes && !oldestExpired(path, now) {
		return nil
	}
	return pruneJournal(path, now, data)
}

// oldestExpired reports whether the journal's first record is older than
// JournalKeep; it reads that record alone.
func oldestExpired(path string, now time.Time) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 16<<10)
	n, _ := f.Read(buf)
	var a struct {
		At time.Time `json:"at"`
	}
	line, _, _ := bytes.Cut(buf[:n], []byte{'\n'})
	return json.Unmarshal(line, &a) == nil && now.Sub(a.At) > JournalKeep
}

// pruneJournal rewrites the journal at path with its records younger than
// JournalKeep (the newest that fit in half of journalMaxBytes), or removes
// it when none is. The caller holds the lock.
func pruneJournal(path string, now time.Time, appended []byte) error {
	data, size, _, err := readAtMost(path, journalReadBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil || size > journalReadBytes {
		// Not ours to read whole (none of our writers lets it grow so):
		// what was just appended is what the journal must hold.
		data = appended
	}
	keep := decodeJournal(data, now)
	var out []byte
	for i := len(keep) - 1; i >= 0; i-- {
		rec := keep[i].Encode()
		if len(out)+len(rec) > journalMaxBytes/2 {
			break
		}
		out = append(rec, out...)
	}
	if len(out) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("pruning %s: %w", path, err)
		}
		return nil
	}
	return WriteFileAtomic(path, out)
}

// journalPattern is the line of git's exclude file that keeps every
// `.memory/.acked` out of commits, at any depth (a workspace in a subfolder
// of a monorepo): a pattern with a slash inside is anchored to the top
// unless it starts with `**/`.
const journalPattern = "**/" + DirName + "/" + JournalName

// IgnoreJournal makes git ignore the journal of the memory folder dir, in
// the repository's own exclude file (never in a file the team shares): a
// record of this machine's moments has no place in a commit, and a journal
// committed on two branches would conflict at every merge. Best effort, as
// the journal is created: a repository whose git folder the writer may not
// write (an agent's sandbox) gets the line from the next writer that may.
func IgnoreJournal(dir string) {
	top := filepath.Dir(dir)
	out, err := exec.Command("git", "-C", top, "rev-parse", "--git-common-dir").Output()
	if err != nil {
		return // not in a repository, or no git
	}
	common := strings.TrimSpace(string(out))
	if !filepath.IsAbs(common) {
		common = filepath.Join(top, common)
	}
	exclude := filepath.Join(common, "info", "exclude")
	have, _, _, err := readAtMost(exclude, 1<<20)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	for _, line := range strings.Split(string(have), "\n") {
		if strings.TrimSpace(line) == journalPattern {
			return
		}
	}
	if os.MkdirAll(filepath.Dir(exclude), 0o755) != nil {
		return
	}
	f, err := os.OpenFile(exclude, os.O_WRONLY|os.O_APPEND|os.O_CREATE, NewFileMode)
	if err != nil {
		return
	}
	defer f.Close()
	add := "# memory-lsp: its journal of acknowledged stores, for this machine only\n" + journalPattern + "\n"
	if len(have) > 0 && have[len(have)-1] != '\n' {
		add = "\n" + add
	}
	f.WriteString(add)
}

// JournalTracked reports whether git tracks the journal of the memory
// folder dir: then it came from a commit, not from a writer of this
// machine, and none of its records is to be trusted.
func JournalTracked(dir string) bool {
	return exec.Command("git", "-C", dir, "ls-files", "--error-unmatch", "--", JournalName).Run() == nil
}

// journalWritable refuses a journal path that is something else than a
// regular file (a folder, a symlink, a pipe committed or planted there): an
// update checks it before it writes any file, so that a store is refused
// whole, naming the problem, rather than written and then reported failed.
func journalWritable(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("refusing to write: the journal %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("refusing to write: %s is %s, not memory-lsp's journal of acknowledged stores (a regular file); remove it and store again", path, describeMode(fi.Mode()))
	}
	return nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	default:
		return "not a regular file"
	}
}

// JournalGit remembers whether git tracks a folder's journal, asking git
// again only when the journal is another file than the last time (a
// checkout writes a new one; appends keep it). The first time, it also
// has git ignore the journal (IgnoreJournal): an agent in a sandbox may not
// write git's folder, a long-lived server may. Safe for concurrent use;
// the zero value is ready.
type JournalGit struct {
	mu      sync.Mutex
	file    fs.FileInfo // the journal as last stat-ed
	tracked bool
}

// Tracked reports whether git tracks the journal of the memory folder dir,
// and whether git was asked now (not: the journal is the file it was).
func (g *JournalGit) Tracked(dir string) (tracked, asked bool) {
	fi, err := os.Stat(filepath.Join(dir, JournalName))
	if err != nil {
		return false, false
	}
	g.mu.Lock()
	known := g.file != nil && SameFile(g.file, fi)
	tracked, first := g.tracked, g.file == nil
	g.mu.Unlock()
	if known {
		return tracked, false
	}
	if first {
		IgnoreJournal(dir)
	}
	tracked = JournalTracked(dir)
	g.mu.Lock()
	g.file, g.tracked = fi, tracked
	g.mu.Unlock()
	return tracked, true
}
