package rules

import (
	"fmt"
	"strconv"

	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkDuplicateSlug flags a slug used twice in one file (an error: a store
// under that slug can only update one of them) and a slug used in two files
// (a warning: the slug no longer names one memory). Checkboxes are left to
// the checkbox rule. Two different texts under one slug in a file are two
// versions of the entry, what the merge driver leaves when both sides of a
// git merge changed it: the finding says so and offers to keep either. They
// are no reversal (issue 27: "[no-pii-logs] Keep PII out of log statements"
// / "[no-pii-logs] Remove PII from log statements" agree); the conflict rule
// reports a pair that is one, slug or not.
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
		local := make(map[string]*slugUses, len(usedIn[fi]))
		for i := range d.Entries {
			e := &d.Entries[i]
			if !e.HasSlug || isCheckbox(e.Slug) {
				continue
			}
			if u, ok := local[e.Slug]; ok {
				first := &d.Entries[u.first]
				if u.classes == nil {
					// read only for a slug used again: most are used once
					u.classes = map[string]bool{exactClass(first.Content): true}
				}
				if c := exactClass(e.Content); !u.classes[c] {
					// no earlier use holds this text: another version
					u.classes[c] = true
					fd := Finding{File: fi, Span: e.SlugSpan,
						Message: fmt.Sprintf("slug %q holds a different text on line %d: a store under it updates only one of them — keep one, or give one another slug if they are two facts", e.Slug, w.lineNo(fi, first.LineSpan.Start)),
						Related: []Related{{File: fi, Span: entrySpan(first), Message: "the other version of the slug"}},
						Fixes:   append(within.renameFix(fi, e.SlugSpan, e.Slug), Fix{Title: FixKeepThis, keep: keepThis}, Fix{Title: FixKeepOther, keep: keepOther}),
						pair:    pairRef{int32(fi), int32(u.first), int32(fi), int32(i)}, versions: true}
					w.report(fd)
					continue
				}
				w.report(Finding{File: fi, Span: e.SlugSpan,
					Message: fmt.Sprintf(`slug %q is already used on line %d: a store under it can update only one of them`, e.Slug, w.lineNo(fi, first.LineSpan.Start)),
					Related: []Related{{File: fi, Span: first.SlugSpan, Message: "first use of the slug"}},
					Fixes:   within.renameFix(fi, e.SlugSpan, e.Slug)})
				continue
			}
			local[e.Slug] = &slugUses{first: i}
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

// slugUses is a slug's uses so far in a file: its first entry, and, once
// it is used again, the exact classes (similar.ExactClass) of the texts
// under it. A later use
// whose text is in none is another version of the entry; one that repeats
// a text is a duplicate as well, which the duplicate rule reports.
type slugUses struct {
	first   int
	classes map[string]bool
}

func exactClass(content string) string { return similar.ExactClass(similar.Analyze(content)) }
