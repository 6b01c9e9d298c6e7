package rules

import (
	"fmt"
	"strconv"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkDuplicateSlug flags a slug used twice in one file (an error: a store
// under that slug can only update one of them) and a slug used in two files
// (a warning: the slug no longer names one memory). Checkboxes are left to
// the checkbox rule.
func checkDuplicateSlug(w *workspace) {
	type use struct{ file, entry int }
	// each file's slugs, gathered once for allUsed and then handed to the
	// file's renames, which add to them
	usedIn := make([]map[string]bool, len(w.files))
	n := 0
	w.categoryFiles(func(fi int, f *File) {
		usedIn[fi] = usedSlugs(f)
		n += len(usedIn[fi])
	})
	// sized once: grown by doubling, the two maps of 100,000 slugs were
	// rehashed a dozen times on every check
	firstIn := make(map[string]use, n) // first use across files
	allUsed := make(map[string]bool, n)
	for _, used := range usedIn {
		for k := range used {
			allUsed[k] = true
		}
	}
	across := newSlugNames(allUsed)
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		within := newSlugNames(usedIn[fi])
		local := make(map[string]int, len(usedIn[fi]))
		for i := range d.Entries {
			e := &d.Entries[i]
			if !e.HasSlug || isCheckbox(e.Slug) {
				continue
			}
			if j, ok := local[e.Slug]; ok {
				first := &d.Entries[j]
				w.report(Finding{File: fi, Span: e.SlugSpan,
					Message: fmt.Sprintf(`slug %q is already used on line %d: a store under it can update only one of them`, e.Slug, w.lineNo(fi, first.LineSpan.Start)),
					Related: []Related{{File: fi, Span: first.SlugSpan, Message: "first use of the slug"}},
					Fixes:   within.renameFix(fi, e.SlugSpan, e.Slug)})
				continue
			}
			local[e.Slug] = i
			if u, ok := firstIn[e.Slug]; ok && u.file != fi {
				other := &w.files[u.file]
				oe := &other.Doc.Entries[u.entry]
				// One store per file can still reach each: a warning.
				w.reportAs(Warning, Finding{File: fi, Span: e.SlugSpan,
					Message: fmt.Sprintf(`slug %q is also used in %s line %d`, e.Slug, other.Name, w.lineNo(u.file, oe.LineSpan.Start)),
					Related: []Related{{File: u.file, Span: oe.SlugSpan, Message: "first use of the slug"}},
					Fixes:   across.renameFix(fi, e.SlugSpan, e.Slug)})
				continue
			}
			if _, ok := firstIn[e.Slug]; !ok {
				firstIn[e.Slug] = use{fi, i}
			}
		}
	})
}

// slugNames hands out new names for slugs used twice: the first free
// "<slug>-N", N ≥ 2, each marked used so that two findings never propose
// the same one. next remembers where the search for a slug stopped: the
// names before it stay used, and a slug used 12,500 times in a file no
// longer tries 78 million names (issue 26's red team).
type slugNames struct {
	used map[string]bool
	next map[string]int
}

func newSlugNames(used map[string]bool) *slugNames {
	return &slugNames{used: used, next: map[string]int{}}
}

// renameFix renames the slug at sp of file fi to a free name.
func (sn *slugNames) renameFix(fi int, sp text.Span, slug string) []Fix {
	n := max(2, sn.next[slug])
	s := slug + "-" + strconv.Itoa(n)
	for sn.used[s] {
		n++
		s = slug + "-" + strconv.Itoa(n)
	}
	sn.used[s], sn.next[slug] = true, n+1
	return []Fix{{Title: "Rename slug to " + s, Edits: in(fi, text.Edit{Start: sp.Start, End: sp.End, New: s})}}
}
