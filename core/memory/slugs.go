package memory

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// PlanSlugs gives every slug-less entry of a category file a slug, as
// cleanup's last step and the editor's "Assign slugs" do: deterministic,
// unique in the file, and never on a line that holds a hazard (hazards, by
// line index, as rules.FindHazards or rules.HazardsOf found them for this
// file; callers pass what they already computed). It returns the edits and
// the entries with their new slugs.
func PlanSlugs(f *rules.File, hazards map[int]rules.Hazard) ([]text.Edit, []EntryRef) {
	if !f.IsCategory || f.Doc == nil || f.TooLarge() {
		return nil, nil
	}
	d := f.Doc
	used := map[string]bool{}
	for _, e := range d.Entries {
		if e.HasSlug {
			used[e.Slug] = true
		}
	}
	var edits []text.Edit
	var refs []EntryRef
	for _, e := range d.Entries {
		if _, held := hazards[e.LineIndex]; e.HasSlug || e.Content == "" || held {
			continue
		}
		slug := similar.GenerateSlug(e.Content, func(s string) bool { return used[s] })
		if slug == "" {
			continue
		}
		used[slug] = true
		edits = append(edits, d.ReplaceLine(e.LineIndex, memfile.EntryLine(slug, e.Content)))
		refs = append(refs, EntryRef{Category: f.Category.String(), File: f.Name, Line: e.Line, Slug: slug, Content: e.Content})
	}
	return edits, refs
}

// SlugAssignment is "assign slugs" decided: the new bytes of each file it
// changes, by index into the files it was planned on, the entries that got
// a slug and the names of the files changed, in file order, and the reply.
type SlugAssignment struct {
	After    map[int][]byte
	Assigned []EntryRef
	Files    []string
	Message  string
}

// PlanAssignSlugs gives every slug-less entry of the category files a slug
// (PlanSlugs), or only those of the file at path only when it is not "".
// That file too large to read is a *FileTooLargeError; other files that
// large have no entries to give slugs to.
func PlanAssignSlugs(files []rules.File, cfg config.Config, only string) (SlugAssignment, error) {
	for _, f := range files {
		if f.Path == only && f.TooLarge() {
			return SlugAssignment{}, tooLarge("assign slugs in", &f)
		}
	}
	a := SlugAssignment{After: map[int][]byte{}}
	hazards := rules.HazardsOf(files, cfg)
	for fi := range files {
		f := &files[fi]
		if !f.IsCategory || (only != "" && f.Path != only) {
			continue
		}
		edits, assigned := PlanSlugs(f, hazards[fi])
		if len(edits) == 0 {
			continue
		}
		b, err := text.Apply(f.Doc.Src, edits)
		if err != nil {
			return SlugAssignment{}, fmt.Errorf("%s: %w", f.Name, err)
		}
		a.After[fi] = b
		a.Assigned = append(a.Assigned, assigned...)
		a.Files = append(a.Files, f.Name)
	}
	if err := RefuseGrown("assign slugs in", files, a.After); err != nil {
		return SlugAssignment{}, err
	}
	if len(a.Assigned) == 0 {
		a.Message = "Every entry already has a slug."
	} else {
		a.Message = fmt.Sprintf("Assigned %s in %s.", Plural(len(a.Assigned), "slug", "slugs"), strings.Join(a.Files, ", "))
	}
	return a, nil
}
