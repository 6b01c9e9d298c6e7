package rules

import (
	"fmt"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// MaxFileBytes and MaxFileLines bound the memory files that are parsed and
// analysed (memfile.MaxBytes and memfile.MaxLines); a larger one gets one
// file-too-large finding.
const (
	MaxFileBytes = memfile.MaxBytes
	MaxFileLines = memfile.MaxLines
)

// fileTooLargeSummary is the rule's summary, naming the limits from their
// one definition: a summary that says other numbers than the code holds
// misleads every reader of the README.
var fileTooLargeSummary = fmt.Sprintf("A memory file over %d MiB or %s lines: it is not parsed or checked, and stores, fixes and cleanup refuse it. Cannot be switched off.",
	MaxFileBytes>>20, text.Thousands(MaxFileLines))

// TooLarge reports whether the file is over MaxFileBytes or MaxFileLines.
// Such a file is not parsed (NewFile leaves its Document without lines or
// entries, and NewFileTooLarge without bytes) and every rule but
// file-too-large passes it by.
func (f File) TooLarge() bool { return f.Size() > MaxFileBytes || f.Lines() > MaxFileLines }

// Lines is the number of lines of the file: its parse's, or those of the
// bytes of a file too large to parse; 0 for a file whose bytes were never
// read (NewFileTooLarge).
func (f File) Lines() int {
	switch {
	case f.Doc == nil || f.unread > 0:
		return 0
	case f.Doc.Lines != nil:
		return len(f.Doc.Lines)
	}
	return memfile.Lines(f.Doc.Src)
}

// Problem says how the file is over the limits ("" when it is not).
func (f File) Problem() string { return memfile.LimitProblem(f.Size(), f.Lines()) }

// parsed reports whether the rules may read the file's lines and entries.
func (f File) parsed() bool { return f.Doc != nil && !f.TooLarge() }

// checkFileTooLarge reports each file over the limits once, at its start:
// that one finding stands for everything the other rules did not look at.
func checkFileTooLarge(w *workspace) {
	for fi, f := range w.files {
		if f.TooLarge() {
			w.report(Finding{File: fi, Span: text.Span{},
				Message: f.Name + " " + f.Problem() + ": it is not parsed or checked, and stores into it are refused; trim it or split it"})
		}
	}
}
