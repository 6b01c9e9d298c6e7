package rules

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/directive"
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
		src := w.idx.source(w.files, fi)
		hidden.Each(src, hiddenChunk, func(h hidden.Match) {
			if h.Start == 0 && h.Kind == hidden.Invisible && bytes.HasPrefix(d.Src, bomBytes) {
				if h.End == 3 {
					return
				}
				// A run that begins with the BOM: the rest is hidden.
				h.Start, h.Visible = 3, hidden.ShowRun(string(d.Src[3:h.End]))
			}
			span := text.Span{Start: h.Start, End: h.End}
			// markup is judged by its words, characters by what they do
			quiet := h.Note || h.Hint || h.Stray
			if h.Kind.Markup() {
				quiet = !markupOrders(h, src[h.Start:h.End])
			}
			if !w.listing(fi) {
				// counted, and its line kept from rewrites, not shown
				sev := w.rule.Severity
				if quiet {
					sev = noteSeverity(h)
				}
				w.reportAs(sev, Finding{File: fi, Span: span})
				return
			}
			fixes := append([]Fix{removeHidden(fi, d, h)}, hazardFixes(fi, d, span, false)...)
			if quiet {
				// words, not an instruction to an agent: a reader of the
				// rendered file misses them, nothing more (issue 27)
				w.reportAs(noteSeverity(h), Finding{File: fi, Span: span, Message: h.What() + "; make it visible text or remove it", Fixes: fixes})
				return
			}
			w.report(Finding{File: fi, Span: span, Message: h.What() + " (memory poisoning); remove it", Fixes: fixes})
		})
	})
}

// noteSeverity is the severity of hidden text that is no order to agents
// (markupOrders): information for markup any source view shows, where words
// cannot tell a colleague's note or a template's hint from a hidden rule
// stated as a fact (issue 27), and for one invisible character left from
// pasting (hidden.Match.Stray); a warning for characters no view shows (a
// soft hyphen inside a word too short to need one), store taking it.
func noteSeverity(h hidden.Match) Severity {
	if h.Kind.Markup() || h.Stray {
		return Information
	}
	return Warning
}

// markupOrders reports whether hidden markup is one to warn of: it also
// holds characters no view shows, or its words are an order agent-directive
// reads. Markup alone hides nothing from whoever edits or reviews the file,
// only from its rendered page, and on real teams' files every warning of
// markup that asked less was wrong (issue 27's files v1–v10: 86 of 86), so
// the rest is information: shown, made visible, not counted.
func markupOrders(h hidden.Match, passage string) bool {
	if h.Unseen {
		return true
	}
	for _, words := range hiddenWords(passage, h.Kind) {
		if len(directive.Find(words)) > 0 {
			return true
		}
	}
	return false
}

// hiddenWords are the readings of a hidden passage's words: the passage
// without its markup (comment and CDATA delimiters, tags, a link's empty
// text and brackets; an address stays, as the place an order sends to),
// and, for a link, an element or a title, each text its quotes or angle
// brackets hold (a title, an input's value, an address), each read alone:
// the markup around words reads to agent-directive as a quotation, and an
// address or a word before an order hides the order's start. A comment is
// read once: a file may hold thousands (BenchmarkCheckComments10k).
func hiddenWords(v string, kind hidden.Kind) []string {
	out := []string{strings.Trim(strings.TrimSpace(markupAround().ReplaceAllString(v, "")), "\"“”'")}
	if kind != hidden.Link && kind != hidden.Element && kind != hidden.Title {
		return out
	}
	for _, re := range []*regexp.Regexp{quotedParts(), bracketedParts()} {
		for _, m := range re.FindAllStringSubmatch(v, -1) {
			for _, g := range m[1:] {
				if strings.TrimSpace(g) != "" {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// markupAround is the markup around a hidden passage's words: comment and
// CDATA delimiters, HTML tags (a letter after "<": "if retries < 3" is
// words), a link's empty text and brackets, the angle brackets of an
// address.
var markupAround = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<!--|-->|<!\[CDATA\[|\]\]>|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|^\[\s*\]\(|\)$|\[//\]: # \(|[<>]`)
})

// quotedParts are the texts a passage's quotes hold, and bracketedParts
// those its angle brackets hold, read apart: a tag's brackets hold its
// quotes.
var (
	quotedParts = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"([^"]*)"|'([^']*)'`)
	})
	bracketedParts = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<([^<>!/][^<>]*)>`)
	})
)

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
