package rules

import (
	"bytes"

	"github.com/memory-lsp/memory-lsp/core/hidden"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// HiddenTextCode is the code of the hidden-text rule, which store
// validation also honours: switching the rule off lets such text be stored.
const HiddenTextCode = "hidden-text"

// checkHiddenText flags text a reader cannot see but an agent reads
// (hidden.Find) anywhere in any memory file, entry or not, as the other
// hazards are: agents are pointed at the whole file. The byte order mark at
// a file's start is the bom rule's. The safe fix removes the hidden passage
// (what a reader saw stays as it was); the other deletes the line, for
// when the visible text is part of the same attack.
func checkHiddenText(w *workspace) {
	w.parsedFiles(func(fi int, f *File) {
		d := f.Doc
		if !hidden.MayHide(d.Src) {
			return
		}
		hidden.Each(w.idx.source(w.files, fi), hiddenChunk, func(h hidden.Match) {
			if h.Start == 0 && h.Kind == hidden.Invisible && bytes.HasPrefix(d.Src, bomBytes) {
				if h.End == 3 {
					return
				}
				// A run that begins with the BOM: the rest is hidden.
				h.Start, h.Visible = 3, hidden.ShowRun(string(d.Src[3:h.End]))
			}
			span := text.Span{Start: h.Start, End: h.End}
			if !w.listing(fi) {
				// counted, and its line kept from rewrites, not shown
				sev := w.rule.Severity
				if h.Note || h.Hint {
					sev = noteSeverity(h)
				}
				w.reportAs(sev, Finding{File: fi, Span: span})
				return
			}
			fixes := append([]Fix{removeHidden(fi, d, h)}, hazardFixes(fi, d, span, false)...)
			if h.Note || h.Hint {
				// words, not an instruction to an agent: a reader of the
				// rendered file misses them, nothing more (issue 27)
				w.reportAs(noteSeverity(h), Finding{File: fi, Span: span, Message: h.What() + "; make it visible text or remove it", Fixes: fixes})
				return
			}
			w.report(Finding{File: fi, Span: span, Message: h.What() + " (memory poisoning); remove it", Fixes: fixes})
		})
	})
}

// noteSeverity is the severity of hidden words that order nothing the
// rules can read, or order something only a person editing the file would
// do (a template's hint); store takes them either way. A comment or a
// definition holding a note is information: words cannot tell a note from
// a hidden rule stated as a fact or an order in a language the rules do not
// read, and where a rule cannot tell it says info (issue 27), still shown
// and made visible. A template's hint opens with an order, a note that
// names what hidden orders harm or comments an entry out is a Hint too
// (hidden.Match.Hint), and an element hidden by style or a soft hyphen
// inside a word is a deliberate way to hide that no note needs: those stay
// warnings.
func noteSeverity(h hidden.Match) Severity {
	if h.Note && (h.Kind == hidden.Comment || h.Kind == hidden.Definition) {
		return Information
	}
	return Warning
}

// hiddenChunk is how much of a file checkHiddenText reads for hidden
// characters at a time (eachHidden).
const hiddenChunk = 64 << 10

// removeHidden is the fix that removes a hidden passage, safe unless it is a
// comment over several lines. A comment or
// link that is all its lines hold takes its lines with it, and one between
// two spaces takes one of them, so that no blank line or double space is
// left behind.
func removeHidden(fi int, d *memfile.Document, h hidden.Match) Fix {
	title := "Remove the hidden characters"
	switch h.Kind {
	case hidden.Comment:
		title = "Remove the comment"
	case hidden.Link:
		title = "Remove the link"
	case hidden.Element:
		title = "Remove the hidden element"
	case hidden.Definition:
		title = "Remove the definition"
	case hidden.Title:
		// the link or image stays; only the words a reader does not see
		// go, which a person chooses: alt text is also what a screen
		// reader says
		return Fix{Title: "Remove the hidden title or image text", Edits: in(fi, text.Edit{Start: h.Start, End: h.End})}
	default:
		return Fix{Title: title, Safe: true, Edits: in(fi, text.Edit{Start: h.Start, End: h.End})}
	}
	// A comment over several lines may hide entries HackLM reads and an
	// editor shows: removing it is for a person to choose.
	safe := !bytes.ContainsAny(d.Src[h.Start:h.End], "\r\n")
	lines := linesOf(d, text.Span{Start: h.Start, End: h.End})
	first, last := lines[0], lines[len(lines)-1]
	before := d.Src[d.Lines[first].Span.Start:h.Start]
	after := d.Src[h.End:max(h.End, d.BodyEnd(last))]
	if memfile.TrimJS(string(before)) == "" && memfile.TrimJS(string(after)) == "" {
		return Fix{Title: title, Safe: safe, Edits: in(fi, d.DeleteLines(lines)...)}
	}
	start := h.Start
	if len(before) > 0 && before[len(before)-1] == ' ' && (len(after) == 0 || after[0] == ' ' || isClosing(after[0])) {
		start--
	}
	return Fix{Title: title, Safe: safe, Edits: in(fi, text.Edit{Start: start, End: h.End})}
}

func isClosing(c byte) bool {
	switch c {
	case '.', ',', ';', ':', '!', '?', ')':
		return true
	}
	return false
}
