package memfile

import (
	"bytes"
	"fmt"
)

// MaxBytes and MaxLines bound the memory files that are read, parsed and
// analysed: 2 MiB and 25,000 lines. HackLM keeps 30 to 40 entries a
// category and our writers keep a file at its category's limit, so a real
// file holds a few dozen lines; ten thousand entries, the most this project
// promises to check in under a second, lay out in 20,000 lines and about a
// megabyte. A file past either bound is a mistake (a log piped into
// .memory) or an attack. What a reader keeps of a file grows with its
// bytes (an analysis of every entry's words, three to four bytes a byte of
// prose) and with its lines (a line and an entry for each, whatever their
// length: 2 MiB of two-byte lines would be a million of them), and the
// language server keeps it for as long as the file is open: at these
// bounds the server holding the largest file it reads open, and storing
// into it, stays under 100 MB (issue 26; BenchmarkServerMemoryFullFile). So a file past them is
// reported instead (rules), never read whole when over MaxBytes (store),
// and nothing is stored into it. The one definition: rules.MaxFileBytes,
// rules.MaxFileLines and store.MaxReadBytes name them where they are used.
const (
	MaxBytes = 2 << 20
	MaxLines = 25_000
)

// Lines is the number of lines Parse makes of src: its LFs and one more
// (the text after the last LF, empty or not).
func Lines(src []byte) int { return bytes.Count(src, []byte{'\n'}) + 1 }

// Fits reports whether src is within MaxBytes and MaxLines.
func Fits(src []byte) bool { return len(src) <= MaxBytes && Lines(src) <= MaxLines }

// LimitProblem says how a file of size bytes and lines lines (0: not
// counted) is over the limits, for the finding and for the errors of the
// writes that refuse such a file; "" when it is not.
func LimitProblem(size int64, lines int) string {
	switch {
	case size > MaxBytes:
		return fmt.Sprintf("is %d bytes (%.1f MiB), over the %d MiB limit of a memory file", size, float64(size)/(1<<20), MaxBytes>>20)
	case lines > MaxLines:
		return fmt.Sprintf("holds %d lines, over the %d-line limit of a memory file", lines, MaxLines)
	}
	return ""
}
