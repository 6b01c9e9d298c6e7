package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxLogLines is how many non-empty lines a log in `.memory/` keeps: HackLM
// trims conflicts.log to its last 50 at every cleanup, and we keep it so
// after every append, so that the file never grows without bound between
// cleanups.
const MaxLogLines = 50

// ProvenanceName is the log in `.memory/` of who made each write
// (memory.ProvenanceLog): kept whole, never trimmed.
const ProvenanceName = "provenance.log"

// appendLog adds data to the log at path. It appends with O_APPEND rather
// than replacing the file, because HackLM appends to the same log without
// taking the lock (behaviour spec §16.3): a rename over the file could drop
// a line it appended meanwhile, an append cannot. Only when one of HackLM's
// logs has grown past MaxLogLines is it rewritten, atomically, with its
// last lines; the provenance log and the review queue are records, not
// logs to trim, and keep every line. A file that does not end its last
// line (a hand edit, a cut write) gets a line break first, so that the
// appended record is a line of its own.
func appendLog(path string, data []byte) error {
	keepAll := isRecord(path)
	if keepAll {
		if err := recordWritable(path); err != nil {
			return err
		}
	}
	fi, err := os.Lstat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0:
		return fmt.Errorf("appending to %s: not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, NewFileMode)
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	if st, serr := f.Stat(); serr == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, rerr := f.ReadAt(last, st.Size()-1); rerr == nil && last[0] != '\n' {
			data = append([]byte{'\n'}, data...)
		}
	}
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	if keepAll {
		return nil
	}
	return TrimLog(path, MaxLogLines)
}

// kindOf names a file mode that is not a regular file's.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	}
	return "a special file"
}

// TrimLog rewrites the log at path with its last keep non-empty lines, each
// ending in LF, as HackLM's cleanup does; a log within the limit, or absent,
// is left alone. A log over MaxReadBytes (HackLM appends without trimming,
// and trims only at its cleanup) is trimmed from its last MaxReadBytes,
// whose first line may be cut and is dropped: the lines kept are the last.
func TrimLog(path string, keep int) error {
	data, size, _, err := readAtMost(path, MaxReadBytes)
	over := err == nil && data == nil && size > MaxReadBytes
	if over {
		data, err = readTail(path, MaxReadBytes)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("trimming %s: %w", path, err)
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	if len(lines) <= keep && !over {
		return nil
	}
	if len(lines) > keep {
		lines = lines[len(lines)-keep:]
	}
	out := []byte{}
	if len(lines) > 0 {
		out = append(bytes.Join(lines, []byte{'\n'}), '\n')
	}
	return WriteFileAtomic(path, out)
}

// readTail reads the last n bytes of the regular file at path.
func readTail(path string, n int64) ([]byte, error) {
	fh, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	at := max(fi.Size()-n, 0)
	buf := make([]byte, fi.Size()-at)
	k, err := fh.ReadAt(buf, at)
	if err == io.EOF {
		err = nil // shrunk meanwhile: what was read is the tail
	}
	return buf[:k], err
}

// ReadLogTail reads the log at path, at most its last MaxReadBytes (whose
// first line may be cut); nil when there is none.
func ReadLogTail(path string) ([]byte, error) {
	data, size, _, err := readAtMost(path, MaxReadBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err == nil && data == nil && size > MaxReadBytes:
		data, err = readTail(path, MaxReadBytes)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, nil
}

// isRecord: the file at path is one of our records (the review queue, the
// provenance log), kept whole and never followed through a link.
func isRecord(path string) bool { return IsHeld(path) || filepath.Base(path) == ProvenanceName }

// recordWritable refuses a record that is not a regular file of its own: a
// link would carry a held write's text into the file it names (a category
// file, which agents read). Checked before anything of a write is written.
func recordWritable(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil // absent: created as a regular file
	case !fi.Mode().IsRegular():
		return fmt.Errorf("refusing to write %s: it must be a regular file, not %s", path, kindOf(fi.Mode()))
	case linkCount(fi) > 1:
		return fmt.Errorf("refusing to write %s: it is a hard link (%d names), so what is written would show in another file too", path, linkCount(fi))
	}
	return nil
}
