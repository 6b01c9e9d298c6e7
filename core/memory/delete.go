package memory

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// DeleteRequest names the entry to delete: by slug, by content, or by both
// (then both must match).
type DeleteRequest struct {
	Category string `json:"category"`
	Slug     string `json:"slug,omitempty"`
	Content  string `json:"content,omitempty"`
}

// DeleteTarget is a validated DeleteRequest: a known category and the
// trimmed slug and content, at least one of them given.
type DeleteTarget struct {
	Category category.Category
	Slug     string
	Content  string
}

// ValidateDelete checks a request before any file is read, so that bad
// input is refused without waiting for the lock.
func ValidateDelete(req DeleteRequest) (DeleteTarget, error) {
	cat, err := category.Parse(req.Category)
	if err != nil {
		return DeleteTarget{}, &InputError{Field: "category", Problem: err.Error()}
	}
	t := DeleteTarget{Category: cat, Slug: memfile.TrimJS(req.Slug), Content: memfile.TrimJS(req.Content)}
	if t.Slug == "" && t.Content == "" {
		return DeleteTarget{}, &InputError{Field: "slug", Problem: "give the slug or the content of the entry to delete"}
	}
	return t, nil
}

// DeletePlan is a delete decided: the file's new bytes and what went.
type DeletePlan struct {
	Path    string
	After   []byte
	Deleted EntryRef
	Message string
}

// PlanDelete removes the first entry of t's category file that matches t,
// line and all. No matching entry is an *InputError naming the field that
// did not match; a category file too large to read is a
// *FileTooLargeError.
func PlanDelete(files []rules.File, t DeleteTarget) (DeletePlan, error) {
	f := CategoryFile(files, t.Category)
	if f != nil && f.TooLarge() {
		return DeletePlan{}, tooLarge("delete from", f)
	}
	var e *memfile.Entry
	if f != nil {
		for i := range f.Doc.Entries {
			c := &f.Doc.Entries[i]
			if (t.Slug == "" || (c.HasSlug && c.Slug == t.Slug)) && (t.Content == "" || c.Content == t.Content) {
				e = c
				break
			}
		}
	}
	if e == nil {
		field, what := "content", fmt.Sprintf("%q", t.Content)
		if t.Slug != "" {
			field, what = "slug", fmt.Sprintf("[%s]", t.Slug)
			if t.Content != "" {
				what += fmt.Sprintf(" with content %q", t.Content)
			}
		}
		return DeletePlan{}, &InputError{Field: field, Problem: fmt.Sprintf("no entry %s in %s", what, t.Category.File())}
	}
	out, err := text.Apply(f.Doc.Src, f.Doc.DeleteLines([]int{e.LineIndex}))
	if err != nil {
		return DeletePlan{}, fmt.Errorf("deleting line %d of %s: %w", e.Line, f.Name, err)
	}
	p := DeletePlan{Path: f.Path, After: out,
		Deleted: EntryRef{Category: t.Category.String(), File: f.Name, Line: e.Line, Content: e.Content},
		Message: fmt.Sprintf("Deleted from %s: %q", f.Name, e.Content)}
	if e.HasSlug {
		p.Deleted.Slug = e.Slug
	}
	return p, nil
}

// CategoryFile is the parsed file of category c among files, or nil.
func CategoryFile(files []rules.File, c category.Category) *rules.File {
	for i := range files {
		if files[i].IsCategory && files[i].Category == c && files[i].Doc != nil {
			return &files[i]
		}
	}
	return nil
}
