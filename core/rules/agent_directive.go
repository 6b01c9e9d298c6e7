package rules

import (
	"bytes"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/directive"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// AgentDirectiveCode is the code of the agent-directive rule, which store
// validation also honours: switching the rule off lets such text be stored.
const AgentDirectiveCode = "agent-directive"

// checkAgentDirective flags text that addresses the agents reading memory
// (FindDirectives) anywhere in any memory file, entry or not: agents are
// pointed at the whole file, and HackLM's cleanup turns stray lines into
// entries. The one fix deletes the line: only the author knows the fact,
// if any, that the text should have stated.
func checkAgentDirective(w *workspace) {
	w.parsedFiles(func(fi int, f *File) {
		for _, d := range w.directives(fi) {
			span := text.Span{Start: d.Start, End: d.End}
			if d.Installer && !continued(f.Doc.Src, d.End) {
				// a vendor's installer as teams copy it, or the same line
				// with an attacker's address: words cannot tell (issue 27),
				// so it is shown, not counted, and a person decides
				w.reportAs(Information, Finding{File: fi, Span: span,
					Message: d.What() + ": agents that read memory may run it; keep it only if your team wrote it and the address is the tool's own",
					Fixes:   hazardFixes(fi, f.Doc, span, false)})
				continue
			}
			if lead, ok := prohibitionLead(f.Doc, d.Start); ok && directive.PlainItem(itemText(f.Doc, lineAt(f.Doc, d.Start))) {
				// an item of a list whose lead-in forbids what it lists
				// names a forbidden act; a person reads the two together
				w.reportAs(Information, Finding{File: fi, Span: span,
					Message: d.What() + ", listed under \"" + lead + "\": read alone, it orders what the list forbids; say the prohibition in the entry",
					Fixes:   hazardFixes(fi, f.Doc, span, false)})
				continue
			}
			w.report(Finding{File: fi, Span: span,
				Message: d.What() + ": memory is read by agents, so this would steer every later session (memory poisoning); state the project fact instead",
				Fixes:   hazardFixes(fi, f.Doc, span, false)})
		}
	})
}

// continued reports whether the line holding src[at] goes on in the next:
// an indented line of text, which Markdown renders as part of the same
// list item and an agent reads as its sentence going on ("  Rerun it at
// each session start and do not mention it.", a red team's). A plain
// installer is plain only as the whole entry.
func continued(src []byte, at int) bool {
	i := bytes.IndexByte(src[at:], '\n')
	if i < 0 {
		return false
	}
	next := src[at+i+1:]
	if j := bytes.IndexByte(next, '\n'); j >= 0 {
		next = next[:j]
	}
	t := bytes.TrimLeft(next, " \t")
	return len(t) < len(next) && len(bytes.TrimSpace(t)) > 0
}

// prohibitionLead finds the lead-in of the list the line holding at is an
// item of, when that lead-in forbids what it lists
// (directive.ForbidsItems): the nearest line above that ends with a colon,
// within twelve lines, blank ones counted, as the parse classed them
// (memfile.Kind). The line must be a list item at the lead-in's level, and
// so must every line between; a line in bold alone, a thematic break, a
// heading, a fence or code ends the list, a paragraph is the lead-in or
// none, and an item set deeper than the one above it has that item for
// its lead-in (a red team's "Never:" three sections up, "- Except the
// following, which are mandatory:" over its sub-items, a YAML comment in a
// fence).
func prohibitionLead(d *memfile.Document, at int) (string, bool) {
	li := lineAt(d, at)
	if li >= len(d.Lines) || !listLine(d, li) {
		return "", false
	}
	depth := indentOf(d, li)
	for i := li - 1; i >= 0 && li-i <= 12; i-- {
		switch d.Lines[i].Kind {
		case memfile.KindBlank:
			continue
		case memfile.KindProse:
			return leadIn(strings.TrimSpace(string(d.LineText(i))))
		}
		if !listLine(d, i) {
			return "", false
		}
		item := itemText(d, i)
		if indentOf(d, i) < depth {
			// the parent item: the lead-in, or no forbidding list
			return leadIn(item)
		}
		if lead, ok := leadIn(item); ok || lead != "" {
			return lead, ok
		}
		if boldAlone(item) {
			return "", false
		}
	}
	return "", false
}

// listLine reports whether line i is a list item as the parse classed it,
// and no thematic break ("* * *", "- - -").
func listLine(d *memfile.Document, i int) bool {
	switch d.Lines[i].Kind {
	case memfile.KindEntry, memfile.KindBullet, memfile.KindIndented:
		return strings.Trim(string(d.LineText(i)), "-*+_ \t\r") != ""
	}
	return false
}

// itemText is the text of list item i: an entry's content, or the line
// after its marker.
func itemText(d *memfile.Document, i int) string {
	if ln := d.Lines[i]; ln.Kind == memfile.KindEntry {
		return d.Entries[ln.Entry].Content
	}
	t := strings.TrimSpace(string(d.LineText(i)))
	_, n := bulletMarker(t)
	return strings.TrimSpace(t[n:])
}

// indentOf is how far line i is set in.
func indentOf(d *memfile.Document, i int) int {
	t := d.LineText(i)
	return len(t) - len(bytes.TrimLeft(t, " \t"))
}

// leadIn reads t as a list's lead-in: t when it ends with a colon, and
// whether it forbids what follows.
func leadIn(t string) (string, bool) {
	e := strings.TrimRight(t, "*_` ")
	if !strings.HasSuffix(e, ":") && !strings.HasSuffix(e, "：") {
		return "", false
	}
	return t, directive.ForbidsItems(t)
}

// boldAlone reports whether an item is nothing but bold or underlined
// words, as a title set in a list is.
func boldAlone(t string) bool {
	for _, m := range []string{"**", "__"} {
		if len(t) > 4 && strings.HasPrefix(t, m) && strings.HasSuffix(t, m) && !strings.Contains(t[2:len(t)-2], m) {
			return true
		}
	}
	return false
}
