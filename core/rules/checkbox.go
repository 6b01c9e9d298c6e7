package rules

import "github.com/memory-lsp/memory-lsp/core/text"

// isCheckbox reports whether a slug is really a task checkbox: `- [ ] x`
// and `- [x] y` parse as entries with the slug " " or "x".
func isCheckbox(slug string) bool { return slug == " " || slug == "x" || slug == "X" }

// checkCheckbox flags task-list checkboxes, which HackLM reads as slugs.
func checkCheckbox(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for i := range d.Entries {
			e := &d.Entries[i]
			if !e.HasSlug || !isCheckbox(e.Slug) {
				continue
			}
			box := text.Span{Start: e.SlugSpan.Start - 1, End: e.SlugSpan.End + 1}
			w.report(Finding{File: fi, Span: box,
				Message: `task checkbox "[` + e.Slug + `]": HackLM reads "` + e.Slug + `" as the slug of this entry`,
				Fixes: []Fix{{Title: "Drop the checkbox",
					Edits: in(fi, text.Edit{Start: box.Start, End: e.ContentSpan.Start})}}})
		}
	})
}
