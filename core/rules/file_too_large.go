package rules

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// MaxFileBytes is the largest memory file that is parsed and analysed
// (memfile.MaxBytes, 8 MiB); a larger one gets one file-too-large finding.
const MaxFileBytes = memfile.MaxBytes

// SizeProblem says how a file of size bytes is over MaxFileBytes, for the
// finding and for the errors of the writes that refuse such a file.
func SizeProblem(size int64) string {
	return fmt.Sprintf("is %d bytes (%.1f MiB), over the %d MiB limit of a memory file", size, float64(size)/(1<<20), MaxFileBytes>>20)
}

// TooLarge reports whether the file is over MaxFileBytes. Such a file is not
// parsed (NewFile leaves its Document without lines or entries, and
// NewFileTooLarge without bytes) and every rule but file-too-large passes it
// by.
func (f File) TooLarge() bool { return f.Size() > MaxFileBytes }

// parsed reports whether the rules may read the file's lines and entries.
func (f File) parsed() bool { return f.Doc != nil && !f.TooLarge() }

// checkFileTooLarge reports each file over MaxFileBytes once, at its start:
// that one finding stands for everything the other rules did not look at.
func checkFileTooLarge(w *workspace) {
	for fi, f := range w.files {
		if f.TooLarge() {
			w.report(Finding{File: fi, Span: text.Span{},
				Message: f.Name + " " + SizeProblem(f.Size()) + ": it is not parsed or checked, and stores into it are refused; trim it or split it"})
		}
	}
}
