package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// malformedSlug describes a slug-less entry whose content starts like a slug
// that HackLM did not accept.
type malformedSlug struct {
	kind  int       // malformedGlued, malformedEmpty, malformedAlone
	span  text.Span // the bracket part
	label string    // the bracket text, e.g. "[s]"
}

const (
	malformedNone = iota
	malformedGlued
	malformedEmpty
	malformedAlone
)

// classifySlugLike recognises `[s]text`, `[] x` and `[slug]` alone in an
// entry without a slug. Markdown links (`[text](url)`, `[a][b]`) and wiki
// links (`[[x]]`) are content, not failed slugs.
func classifySlugLike(e *memfile.Entry) malformedSlug {
	c := e.Content
	if e.HasSlug || !strings.HasPrefix(c, "[") || strings.HasPrefix(c, "[[") {
		return malformedSlug{}
	}
	at := e.ContentSpan.Start
	if strings.HasPrefix(c, "[]") {
		if len(strings.TrimLeftFunc(c[2:], text.IsJSSpace)) == 0 {
			return malformedSlug{}
		}
		return malformedSlug{malformedEmpty, text.Span{Start: at, End: at + 2}, "[]"}
	}
	close := strings.IndexByte(c, ']')
	if close < 0 {
		return malformedSlug{}
	}
	sp := text.Span{Start: at, End: at + close + 1}
	label := c[:close+1]
	switch {
	case close == len(c)-1:
		return malformedSlug{malformedAlone, sp, label}
	case c[close+1] == '(' || c[close+1] == '[' || c[close+1] == ':':
		return malformedSlug{}
	}
	// Whitespace after `]` would have made a slug; so this is glued text.
	return malformedSlug{malformedGlued, sp, label}
}

// checkSlugMalformed flags slug-like brackets HackLM keeps as content.
func checkSlugMalformed(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for i := range d.Entries {
			e := &d.Entries[i]
			m := classifySlugLike(e)
			fd := Finding{File: fi, Span: m.span}
			switch m.kind {
			case malformedNone:
				continue
			case malformedGlued:
				fd.Message = `"` + m.label + `" has no space after it: HackLM reads no slug and keeps the brackets in the content`
				fd.Fixes = []Fix{{Title: `Insert a space after "` + m.label + `"`, Safe: true,
					Edits: in(fi, text.Edit{Start: m.span.End, End: m.span.End, New: " "})}}
			case malformedEmpty:
				end := m.span.End
				for end < e.ContentSpan.End {
					r, size := decodeRune(d.Src, end)
					if !text.IsJSSpace(r) {
						break
					}
					end += size
				}
				fd.Message = `empty slug "[]": HackLM reads the brackets as part of the content`
				fd.Fixes = []Fix{{Title: `Remove "[]"`, Safe: true, Edits: in(fi, text.Edit{Start: m.span.Start, End: end})}}
			case malformedAlone:
				fd.Message = `"` + m.label + `" with no text after it: HackLM reads the brackets as the entry's content, not as a slug`
			}
			w.report(fd)
		}
	})
}
