package rules

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// FormatText renders a finding as `path:line:col: severity: message [code]`
// with a 1-based line and a 1-based column in UTF-16 units, as an editor
// shows them (LSP line semantics). ix is the index of the finding's file,
// built once per file by the caller (nil: line 1, column 1): building it per
// finding made a check of a large file quadratic.
func FormatText(path string, ix *text.Index, f Finding) string {
	line, col := 1, 1
	if ix != nil {
		if p, err := ix.Position(f.Span.Start); err == nil {
			line, col = p.Line+1, p.Col+1
		}
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", path, line, col, f.Severity, f.Message, f.Code)
}

// FixAll picks the first safe fix of each finding, in order, skipping any
// fix whose edits overlap an edit already chosen (in the same file). The
// caller applies the result, checks again, and repeats until no safe fix is
// left, so skipped fixes get their turn on the next round. A line holding a
// secret or an agent directive is never rewritten (see Hazards).
func FixAll(files []File, findings []Finding) map[int][]text.Edit {
	out := make(map[int][]text.Edit)
	hazards := FindHazards(files, findings)
	for _, f := range findings {
		for _, fx := range f.Fixes {
			if !fx.Safe || hazards.Blocks(files, f, fx) {
				continue
			}
			if edits := f.EditsOf(&fx, files); fits(out, edits) {
				for _, fe := range edits {
					out[fe.File] = append(out[fe.File], fe.Edit)
				}
			}
			break
		}
	}
	return out
}

func fits(chosen map[int][]text.Edit, edits []FileEdit) bool {
	for i, fe := range edits {
		for _, c := range chosen[fe.File] {
			if overlap(fe.Edit, c) {
				return false
			}
		}
		for _, other := range edits[:i] {
			if other.File == fe.File && overlap(fe.Edit, other.Edit) {
				return false
			}
		}
	}
	return true
}

// overlap reports whether two edits touch the same bytes, or insert at the
// same place (their order would be ambiguous) or inside the other's range.
func overlap(a, b text.Edit) bool {
	if a.Start == b.Start {
		return true
	}
	if a.Start == a.End {
		return b.Start < a.Start && a.Start < b.End
	}
	if b.Start == b.End {
		return a.Start < b.Start && b.Start < a.End
	}
	return a.Start < b.End && b.Start < a.End
}
