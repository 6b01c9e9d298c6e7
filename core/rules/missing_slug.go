package rules

import "github.com/memory-lsp/memory-lsp/core/text"

// checkMissingSlug hints at entries without a slug: a store cannot update
// them by name. Empty entries and failed slugs (`[s]text`, `[] x`) are left
// to their own rules, whose fixes give them a slug or remove them.
func checkMissingSlug(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		used := usedSlugs(f)
		taken := func(s string) bool { return used[s] }
		for i := range d.Entries {
			e := &d.Entries[i]
			if e.HasSlug || e.Content == "" {
				continue
			}
			if k := classifySlugLike(e).kind; k == malformedGlued || k == malformedEmpty {
				continue
			}
			fd := Finding{File: fi, Span: e.ContentSpan,
				Message: "entry has no slug: a store cannot update it by name"}
			if s := w.generateSlug(e.Content, taken); s != "" && !used[s] {
				used[s] = true
				fd.Fixes = []Fix{{Title: "Assign slug " + s, Edits: in(fi, text.Edit{Start: e.TailSpan.Start, End: e.TailSpan.Start, New: "[" + s + "] "})}}
			}
			w.report(fd)
		}
	})
}
