package merge

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Norm is the identity of an entry's text: whitespace runs (JavaScript's
// set, as HackLM trims) become one space, letters are lower-cased, and
// trailing sentence punctuation and whitespace go. Nothing else changes:
// similar.Normalize also drops every symbol and inner punctuation, which
// would make `C++` the same entry as `C` and `--force` the same as `force`;
// a merge that wrongly joins two entries loses one of them, so identity is
// kept narrow. '?' is kept because a question is not its statement.
func Norm(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if text.IsJSSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimRightFunc(b.String(), func(r rune) bool {
		return text.IsJSSpace(r) || strings.ContainsRune(".!;:,…。！；，", r)
	})
}

// ent is one entry of one version of the file.
type ent struct {
	id string
	// line indexes the version's Document.Lines.
	line int
	// body is the line without its ending (a CRLF line's CR is dropped).
	body    string
	hasSlug bool
	slug    string
	content string
	norm    string
}

// sameSlug reports whether two entries carry the same slug, or both none.
func (e *ent) sameSlug(o *ent) bool { return e.hasSlug == o.hasSlug && e.slug == o.slug }

// equivalent is "unchanged in meaning": the same slug and the same text
// once normalised. A side that only reformatted an entry has not changed it
// for a delete on the other side to give way to.
func (e *ent) equivalent(o *ent) bool { return e.sameSlug(o) && e.norm == o.norm }

// version is one of the three inputs, parsed, with an identity per entry.
type version struct {
	doc  *memfile.Document
	ents []ent
	// byID maps an identity to its index in ents.
	byID map[string]int
	// entAt maps a line index to its index in ents, -1 for other lines.
	entAt []int
}

// newVersion parses src (without its BOM) and gives every entry its direct
// identity: "s" + slug for a slugged entry, "t" + Norm(content) otherwise,
// each followed by its occurrence number among equal keys in the file, so
// that a slug used twice (the result of an earlier conflicting merge) still
// names two entries.
func newVersion(src []byte) *version {
	d := memfile.Parse(src)
	v := &version{doc: d, ents: make([]ent, 0, len(d.Entries)), entAt: make([]int, len(d.Lines))}
	for i := range v.entAt {
		v.entAt[i] = -1
	}
	seen := map[string]int{}
	for _, e := range d.Entries {
		x := ent{line: e.LineIndex, body: body(d, e.LineIndex), hasSlug: e.HasSlug, slug: e.Slug, content: e.Content, norm: Norm(e.Content)}
		k := "t\x00" + x.norm
		if x.hasSlug {
			k = "s\x00" + x.slug
		}
		x.id = k + "\x00" + strconv.Itoa(seen[k])
		seen[k]++
		v.entAt[e.LineIndex] = len(v.ents)
		v.ents = append(v.ents, x)
	}
	v.index()
	return v
}

func (v *version) index() {
	v.byID = make(map[string]int, len(v.ents))
	for i := range v.ents {
		v.byID[v.ents[i].id] = i
	}
}

func (v *version) get(id string) *ent {
	if i, ok := v.byID[id]; ok {
		return &v.ents[i]
	}
	return nil
}

// adopt gives an entry of v whose direct identity other lacks the identity
// of an entry of other with the same normalised text that no entry of v
// holds yet (eligible says which of other's entries may be taken), first
// come first served in both files' order. This is what makes "slug added
// to an old entry", "slug renamed" and "slug dropped" changes of one entry
// rather than a deletion plus an addition.
func (v *version) adopt(other *version, mine, eligible func(*ent) bool) {
	free := map[string][]string{} // norm → identities of other, in order
	for i := range other.ents {
		o := &other.ents[i]
		if _, held := v.byID[o.id]; !held && eligible(o) {
			free[o.norm] = append(free[o.norm], o.id)
		}
	}
	changed := false
	for i := range v.ents {
		e := &v.ents[i]
		if !mine(e) {
			continue
		}
		if ids := free[e.norm]; len(ids) > 0 {
			e.id, free[e.norm] = ids[0], ids[1:]
			changed = true
		}
	}
	if changed {
		v.index()
	}
}

// body is line i's text without its ending.
func body(d *memfile.Document, i int) string {
	return string(d.Src[d.Lines[i].Span.Start:d.BodyEnd(i)])
}

// eolOf is line i's own ending: "\r\n", "\n", or "" for a last line
// without one.
func eolOf(d *memfile.Document, i int) string {
	switch {
	case !d.Lines[i].HasLF:
		return ""
	case d.BodyEnd(i) < d.Lines[i].Span.End:
		return "\r\n"
	}
	return "\n"
}

// trimmed is a non-entry line's text for matching lines between versions.
func trimmed(d *memfile.Document, i int) string {
	return string(bytes.TrimFunc(d.LineText(i), text.IsJSSpace))
}
