package rules

import "fmt"

// checkConflict flags an entry that reverses an earlier one ("Always X" /
// "Never X"): HackLM sees the two as duplicates (B3); both are read by
// agents. It also flags a slug that holds two different texts in one file:
// the merge driver leaves exactly that when both sides of a git merge
// changed one entry, and it must not pass as a mere rename job for
// duplicate-slug, since one of the two versions is wrong.
func checkConflict(w *workspace) {
	checkSlugVersions(w)
	refs, best := w.related()
	for j, b := range best {
		if b.conflict < 0 || b.exact >= 0 {
			continue
		}
		r, o := refs[j], refs[b.conflict]
		e, oe := w.entry(r), w.entry(o)
		if r.file == o.file && e.HasSlug && oe.HasSlug && e.Slug == oe.Slug {
			continue // reported by checkSlugVersions
		}
		line := w.entryLineNo(o)
		v := w.pairs[b.conflictP].Verdict
		msg := fmt.Sprintf("reverses line %d: %s", line, quote(oe.Content, 60))
		if v.Reason != "" && v.Reason != "reversal" {
			msg = fmt.Sprintf("reverses line %d (%s): %s", line, v.Reason, quote(oe.Content, 60))
		}
		fd := Finding{File: r.file, Span: entrySpan(e),
			Message: msg,
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the entry it reverses"}}}
		w.pairFixes(&fd, o, r)
		w.report(fd)
	}
}

// checkSlugVersions flags each later entry of a file whose slug an earlier
// entry holds with another text, against the first such entry. Texts the
// duplicate rule calls equal are not versions (that rule reports them).
func checkSlugVersions(w *workspace) {
	// Each exact duplicate is paired with the earliest entry of its class
	// (similar.Pairs): two entries are equal when they lead to the same one.
	// The earliest partner is kept, so every pair of a class would do too.
	firstOf := map[entryRef]entryRef{}
	for _, p := range w.pairs {
		if r := w.refs[p.I]; p.Verdict.Exact {
			if f, ok := firstOf[w.refs[p.J]]; !ok || r.entry < f.entry {
				firstOf[w.refs[p.J]] = r
			}
		}
	}
	first := func(r entryRef) entryRef {
		if f, ok := firstOf[r]; ok {
			return f
		}
		return r
	}
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		// the earlier entries holding a slug, in file order: a list from
		// seen[slug].first along next, without a slice per slug (nearly
		// every slug is held once)
		type span struct{ first, last int }
		seen := make(map[string]span, len(d.Entries))
		next := make([]int, len(d.Entries))
		for i := range d.Entries {
			e := &d.Entries[i]
			if !e.HasSlug || isCheckbox(e.Slug) {
				continue
			}
			next[i] = -1
			head, ok := seen[e.Slug]
			if ok {
				next[head.last] = i
				seen[e.Slug] = span{head.first, i}
			} else {
				head.first = -1
				seen[e.Slug] = span{i, i}
			}
			other := -1
			for k := head.first; k >= 0 && k != i; k = next[k] {
				if d.Entries[k].Content == e.Content || first(entryRef{fi, k}) == first(entryRef{fi, i}) {
					other = -1
					break // a duplicate, not a version
				}
				if other < 0 {
					other = k
				}
			}
			if other < 0 {
				continue
			}
			r, o := entryRef{fi, i}, entryRef{fi, other}
			oe := w.entry(o)
			fd := Finding{File: fi, Span: entrySpan(e),
				Message: fmt.Sprintf("slug %q holds a different text on line %d: a store under it updates only one of them — keep one, or give one another slug if they are two facts", e.Slug, w.entryLineNo(o)),
				Related: []Related{{File: fi, Span: entrySpan(oe), Message: "the other version of the slug"}}}
			w.pairFixes(&fd, o, r)
			w.report(fd)
		}
	})
}
