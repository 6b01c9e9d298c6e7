package rules

import (
	"strings"
	"unicode"

	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkSlugFormat flags slugs that are not kebab-case. HackLM reads any slug
// verbatim (`[ spaced ]` has the slug " spaced "), but its docs promise
// lowercase letters, digits and hyphens, and agents match slugs as words.
func checkSlugFormat(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		used := usedSlugs(f)
		for i := range d.Entries {
			e := &d.Entries[i]
			if !e.HasSlug || isCheckbox(e.Slug) || similar.IsKebab(e.Slug) {
				continue
			}
			fd := Finding{File: fi, Span: e.SlugSpan,
				Message: `slug "` + e.Slug + `" is not kebab-case (lowercase letters and digits joined by single hyphens)`}
			if k := similar.Kebab(e.Slug); k != "" && !used[k] && faithful(e.Slug, k) {
				fd.Fixes = []Fix{{Title: "Rename slug to " + k, Edits: in(fi, text.Edit{Start: e.SlugSpan.Start, End: e.SlugSpan.End, New: k})}}
			}
			w.report(fd)
		}
	})
}

// usedSlugs is the set of slugs of a file's entries.
func usedSlugs(f *File) map[string]bool {
	m := make(map[string]bool, len(f.Doc.Entries))
	for i := range f.Doc.Entries {
		if e := &f.Doc.Entries[i]; e.HasSlug {
			m[e.Slug] = true
		}
	}
	return m
}

// faithful reports whether the kebab form keeps every letter and digit of the
// slug (so "Ünïcode" → "n-code" is not offered).
func faithful(slug, kebab string) bool {
	keep := func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}
	return strings.Map(keep, slug) == strings.Map(keep, kebab)
}
