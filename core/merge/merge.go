// Package merge merges three versions of one memory file (`.memory/*.md`)
// entry by entry, for the git merge driver: a memory file is a set of
// one-line facts, so two branches that each append a line are not in
// conflict, and git's line-based merge (which reports one) is the wrong tool.
//
// Identity. An entry with a slug is the same entry in every version that
// has that slug; an entry without one is identified by its text after Norm.
// An entry whose identity is missing from the base but whose normalised text
// equals that of a base entry the side no longer holds is that entry, with
// its slug added, renamed or dropped. The n-th use of a key in a file is a
// separate identity from the first, so a slug already used twice still names
// two entries.
//
// Decisions, per identity (changed = the line differs from the base;
// "unchanged in meaning" = the same slug and the same normalised text):
//
//   - changed on one side only: that side's line;
//   - changed on both sides the same way: once; differently: slug and text
//     are merged separately (a slug change on one side and a text change on
//     the other combine; a slug changed differently on both sides keeps
//     ours'); texts that differ only by Norm are the same text; two really
//     different texts are a Conflict: both lines are kept, ours first, with
//     their common slug, which `memory-lsp check` reports as `conflict`;
//   - deleted on one side, unchanged in meaning on the other: deleted;
//     deleted on one side and changed in meaning on the other: the change;
//   - added on both sides: both, unless they are the same entry (the same
//     normalised text, whatever the slugs): then once, ours' line unless
//     only theirs' has a slug; the same new slug with two texts is a
//     Conflict.
//
// Layout. The result is ours' file: its lines (title, blank lines, prose)
// and entry order, BOM and line endings. Theirs' reorderings are not
// applied. Lines theirs adds after the last entry it shares with the result
// go after ours' last entry; any other run of added lines goes after the
// entry that precedes it in theirs and after ours' own additions there
// (never past a heading or an entry of the base), or, when no entry
// precedes it, just before the entry that follows it. Theirs' new non-entry
// lines (any but blank lines, their title when ours has one, and HackLM's
// "Memories stored by" line when ours has one) travel with those runs; a
// blank line is kept only between two added lines. Every line of the result
// is a line of ours or theirs, or an entry line rebuilt from a slug and a
// text that parses back to them: never a conflict marker.
//
// The package is pure: bytes in, bytes out.
package merge

import (
	"bytes"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

const bom = "\uFEFF"

// Conflict is one entry that both sides changed (or added) differently. Both
// versions are in the result, ours first, under the same slug.
type Conflict struct {
	Slug string
	// Ours and Theirs are the 1-based lines (LF-separated, as HackLM
	// numbers them) of the two versions in Result.Data.
	Ours, Theirs int
}

// Result is a merged file.
type Result struct {
	Data      []byte
	Conflicts []Conflict
}

// kind says how far theirs' additions may be moved past an output line.
type kind uint8

const (
	// kOther is a non-entry line that is no boundary (blank, prose, …).
	kOther kind = iota
	// kHeading is a heading: additions never move past it into the next
	// section.
	kHeading
	// kEntry is an entry the base holds: additions stay before it.
	kEntry
	// kAdded is an entry new since the base (ours' addition, theirs' line,
	// the second version of a conflict): theirs' additions go after ours'.
	kAdded
)

type outLine struct {
	body string
	// eol is the line's own ending; "" takes the file's.
	eol  string
	kind kind
	// before and after hold theirs' lines placed next to this line.
	before, after []*outLine
}

// Merge merges ours and theirs, both descendants of base.
func Merge(base, ours, theirs []byte) Result { return merge(base, ours, theirs, false) }

// Carry is Merge for carrying one side's change onto another text, as the
// language server does between an editor buffer and the disk: it also
// removes the lines other than entries (a bullet turned into an entry, a
// note) that theirs removed from the base and ours still holds unchanged.
// Merge keeps them, as a git merge of two branches should (ours' layout
// wins there).
func Carry(base, ours, theirs []byte) Result { return merge(base, ours, theirs, true) }

func merge(base, ours, theirs []byte, followRemovals bool) Result {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(base, theirs):
		return Result{Data: bytes.Clone(ours)}
	case bytes.Equal(base, ours):
		return Result{Data: bytes.Clone(theirs)}
	}
	b := newVersion(trimBOM(base))
	o := newVersion(trimBOM(ours))
	t := newVersion(trimBOM(theirs))
	newSince := func(v *version) func(*ent) bool {
		return func(e *ent) bool { return v.get(e.id) == nil }
	}
	all := func(*ent) bool { return true }
	o.adopt(b, newSince(b), all)
	t.adopt(b, newSince(b), all)
	// the same entry added on both sides, once with a slug and once without
	t.adopt(o, func(e *ent) bool { return b.get(e.id) == nil && o.get(e.id) == nil }, newSince(b))

	m := &merger{base: b, ours: o, theirs: t, followRemovals: followRemovals}
	m.fromOurs()
	m.placeTheirs()
	return m.render(bytes.HasPrefix(ours, []byte(bom)), fileEOL(o, t))
}

type merger struct {
	base, ours, theirs *version
	// followRemovals drops ours' lines other than entries that theirs
	// removed from the base (Carry).
	followRemovals bool
	out            []*outLine
	// placed maps the identities of ours' kept entries to their index in out.
	placed    map[string]int
	conflicts []conflictLines
}

type conflictLines struct {
	slug         string
	ours, theirs *outLine
}

// fromOurs walks ours' lines and decides each entry.
func (m *merger) fromOurs() {
	d := m.ours.doc
	m.placed = map[string]int{}
	dropped := false
	var deleted map[string]int
	if m.followRemovals {
		deleted = m.deletedByTheirs()
	}
	for i := range d.Lines {
		ei := m.ours.entAt[i]
		if ei < 0 {
			if t := trimmed(d, i); deleted[t] > 0 {
				deleted[t]--
				dropped = true
				continue // theirs removed this line of the base, ours kept it as it was
			}
			blank := d.Lines[i].Kind == memfile.KindBlank
			if dropped && blank && len(m.out) > 0 && isBlank(m.out[len(m.out)-1]) {
				continue // a deleted entry between two blank lines takes one with it
			}
			dropped = false
			k := kOther
			if d.Lines[i].Kind == memfile.KindHeading {
				k = kHeading
			}
			m.out = append(m.out, &outLine{body: body(d, i), eol: eolOf(d, i), kind: k})
			continue
		}
		e := &m.ours.ents[ei]
		be, te := m.base.get(e.id), m.theirs.get(e.id)
		keep, partner, conflict := e.body, "", false
		switch {
		case be != nil && te != nil:
			keep, partner, conflict = merge3(be, e, te)
		case be != nil: // theirs deleted it
			if e.body == be.body || e.equivalent(be) {
				dropped = true
				continue
			}
		case te != nil:
			keep, partner, conflict = mergeAdded(e, te)
		}
		dropped = false
		k := kEntry
		if be == nil {
			k = kAdded
		}
		m.placed[e.id] = len(m.out)
		ol := &outLine{body: keep, eol: eolOf(d, i), kind: k}
		m.out = append(m.out, ol)
		if conflict {
			tl := &outLine{body: partner, kind: kAdded}
			m.out = append(m.out, tl)
			m.conflicts = append(m.conflicts, conflictLines{slug: e.slug, ours: ol, theirs: tl})
		}
	}
}

// deletedByTheirs counts the non-blank lines other than entries that the
// base holds and theirs no longer does (a bullet another writer turned into
// an entry, a note it removed): ours drops as many of them as it still has.
// Blank lines are layout, which follows ours.
func (m *merger) deletedByTheirs() map[string]int {
	count := func(v *version) map[string]int {
		c := map[string]int{}
		for i := range v.doc.Lines {
			if v.entAt[i] < 0 && v.doc.Lines[i].Kind != memfile.KindBlank {
				c[trimmed(v.doc, i)]++
			}
		}
		return c
	}
	base, theirs := count(m.base), count(m.theirs)
	out := map[string]int{}
	for t, n := range base {
		if n > theirs[t] {
			out[t] = n - theirs[t]
		}
	}
	return out
}

// merge3 decides an entry all three versions hold: the line for ours'
// place and, for a conflict, theirs' line to follow it.
func merge3(b, o, t *ent) (keep, partner string, conflict bool) {
	switch {
	case o.body == t.body, t.body == b.body:
		return o.body, "", false
	case o.body == b.body:
		return t.body, "", false
	}
	slugFrom := pick(b, o, t, (*ent).sameSlug)
	if slugFrom == nil {
		slugFrom = o // both renamed it: ours wins, the text still merges
	}
	textFrom := pick(b, o, t, func(x, y *ent) bool { return x.content == y.content })
	if textFrom == nil {
		textFrom = pick(b, o, t, func(x, y *ent) bool { return x.norm == y.norm })
	}
	if textFrom == nil {
		return o.body, t.body, true
	}
	if slugFrom == textFrom || slugFrom.sameSlug(textFrom) {
		return textFrom.body, "", false
	}
	if line, ok := entryLine(slugFrom, textFrom.content); ok {
		return line, "", false
	}
	return textFrom.body, "", false // the text cannot carry that slug back; the text matters more
}

// pick is the three-way choice of one field: the side that changed it, or
// either when both changed it the same way; nil when both changed it
// differently.
func pick(b, o, t *ent, eq func(x, y *ent) bool) *ent {
	switch {
	case eq(o, t), eq(t, b):
		return o
	case eq(o, b):
		return t
	}
	return nil
}

// mergeAdded decides an entry both sides added.
func mergeAdded(o, t *ent) (keep, partner string, conflict bool) {
	switch {
	case o.body == t.body:
		return o.body, "", false
	case o.norm == t.norm:
		if !o.hasSlug && t.hasSlug {
			return t.body, "", false
		}
		return o.body, "", false
	}
	// different texts under one identity: the same new slug
	return o.body, t.body, true
}

// entryLine renders a slug (from s) and a text as an entry line, if it
// parses back to exactly them.
func entryLine(s *ent, content string) (string, bool) {
	slug := ""
	if s.hasSlug {
		slug = s.slug
	}
	line := memfile.EntryLine(slug, content)
	d := memfile.Parse([]byte(line))
	if len(d.Entries) != 1 {
		return "", false
	}
	e := d.Entries[0]
	return line, e.HasSlug == s.hasSlug && e.Slug == slug && e.Content == content
}

// placeTheirs adds what only theirs brings, run by run (see the package
// comment).
func (m *merger) placeTheirs() {
	d := m.theirs.doc
	isNew := m.newNonEntry()
	prev := -1 // index in out of the last anchor: an entry of theirs that is in out
	var run []*outLine
	blank := false
	add := func(l *outLine) {
		if blank && len(run) > 0 {
			run = append(run, &outLine{kind: kOther})
		}
		run = append(run, l)
		blank = false
	}
	// flush places the run before the anchor at out[next], or, with next
	// -1, at theirs' end.
	flush := func(next int) {
		switch {
		case len(run) == 0:
		case next < 0:
			// theirs appended it: it goes after ours' last entry, even
			// when ours moved the entry theirs appended it after
			m.atEnd(run)
		case prev >= 0:
			at := m.out[m.skip(prev)]
			at.after = append(at.after, headed(run)...)
		default:
			m.out[next].before = append(m.out[next].before, run...)
		}
		run, blank = nil, false
	}
	for i := range d.Lines {
		ei := m.theirs.entAt[i]
		if ei < 0 {
			switch {
			case d.Lines[i].Kind == memfile.KindBlank:
				blank = true
			case isNew(i):
				k := kOther
				if d.Lines[i].Kind == memfile.KindHeading {
					k = kHeading
				}
				add(&outLine{body: body(d, i), kind: k})
			}
			continue
		}
		e := &m.theirs.ents[ei]
		if at, ok := m.placed[e.id]; ok {
			flush(at)
			prev = at
			continue
		}
		if m.ours.get(e.id) != nil {
			continue // ours holds it, so it was decided with ours' line
		}
		if be := m.base.get(e.id); be != nil && (e.body == be.body || e.equivalent(be)) {
			continue // ours deleted it and theirs did not change it
		}
		add(&outLine{body: e.body, kind: kAdded})
	}
	flush(-1)
}

// skip moves an insertion point from out[at] past ours' own additions that
// follow it (and the blank lines or prose between them), stopping at a
// heading or an entry of the base.
func (m *merger) skip(at int) int {
	last := at
	for j := at + 1; j < len(m.out); j++ {
		switch m.out[j].kind {
		case kAdded:
			last = j
		case kEntry, kHeading:
			return last
		}
	}
	return last
}

// atEnd places a run that has no entry of ours around it: after ours' last
// entry, or, in a file without entries, at its end, after a blank line.
func (m *merger) atEnd(run []*outLine) {
	for j := len(m.out) - 1; j >= 0; j-- {
		if k := m.out[j].kind; k == kEntry || k == kAdded {
			m.out[j].after = append(m.out[j].after, headed(run)...)
			return
		}
	}
	if len(m.out) == 0 { // ours deleted its only line
		m.out = append(m.out, run...)
		return
	}
	last := len(m.out) - 1
	if m.out[last].body == "" {
		// the empty final line after the last line ending (or an empty file)
		if last > 0 && !isBlank(m.out[last-1]) {
			run = append([]*outLine{{kind: kOther}}, run...)
		}
		m.out[last].before = append(m.out[last].before, run...)
		return
	}
	if !isBlank(m.out[last]) {
		run = append([]*outLine{{kind: kOther}}, run...)
	}
	m.out[last].after = append(m.out[last].after, run...)
}

// headed puts a blank line before a run that starts with a heading, which
// is placed after an entry.
func headed(run []*outLine) []*outLine {
	if run[0].kind == kHeading {
		return append([]*outLine{{kind: kOther}}, run...)
	}
	return run
}

// newNonEntry reports whether theirs' non-entry line i is new: its text is
// in neither the base nor ours, it is not theirs' title while ours has one,
// and not HackLM's header line while ours has one.
func (m *merger) newNonEntry() func(i int) bool {
	known := map[string]bool{}
	for _, v := range []*version{m.base, m.ours} {
		for i := range v.doc.Lines {
			if v.entAt[i] < 0 {
				known[trimmed(v.doc, i)] = true
			}
		}
	}
	oTitle, tTitle := title(m.ours.doc), title(m.theirs.doc)
	oHeader := false
	for _, ln := range m.ours.doc.Lines {
		oHeader = oHeader || ln.Kind == memfile.KindBoilerplate
	}
	d := m.theirs.doc
	return func(i int) bool {
		switch {
		case i == tTitle && oTitle >= 0, d.Lines[i].Kind == memfile.KindBoilerplate && oHeader:
			return false
		}
		return !known[trimmed(d, i)]
	}
}

// title is the index of a file's first non-blank line if it is a heading,
// else -1.
func title(d *memfile.Document) int {
	for i, ln := range d.Lines {
		switch ln.Kind {
		case memfile.KindBlank:
			continue
		case memfile.KindHeading:
			return i
		}
		return -1
	}
	return -1
}

// render joins the lines: every line but the last ends with its own ending
// or the file's, and the last with none, which keeps ours' final newline
// (or its absence).
func (m *merger) render(withBOM bool, eol string) Result {
	var lines []*outLine
	for _, l := range m.out {
		lines = append(lines, l.before...)
		lines = append(lines, l)
		lines = append(lines, l.after...)
	}
	num := make(map[*outLine]int, len(lines))
	var buf bytes.Buffer
	if withBOM {
		buf.WriteString(bom)
	}
	for i, l := range lines {
		num[l] = i + 1
		buf.WriteString(l.body)
		if i < len(lines)-1 {
			if l.eol != "" {
				buf.WriteString(l.eol)
			} else {
				buf.WriteString(eol)
			}
		}
	}
	res := Result{Data: buf.Bytes()}
	for _, c := range m.conflicts {
		res.Conflicts = append(res.Conflicts, Conflict{Slug: c.slug, Ours: num[c.ours], Theirs: num[c.theirs]})
	}
	return res
}

// fileEOL is the ending of added lines: the one ours mostly uses, or
// theirs' when ours has no line ending at all.
func fileEOL(o, t *version) string {
	for _, v := range []*version{o, t} {
		if bytes.IndexByte(v.doc.Src, '\n') >= 0 {
			return v.doc.EOL()
		}
	}
	return "\n"
}

func isBlank(l *outLine) bool { return len(bytes.TrimSpace([]byte(l.body))) == 0 }

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte(bom)) }
