package memory

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// GetRequest names entries to read back: by slug (in every file, or in File
// only), or by File and an inclusive range of 1-based lines. A search result
// carries file and line, so an agent can fetch exactly what it was shown.
type GetRequest struct {
	// File is a category ("Decision", any letter case) or the base name of a
	// file in .memory ("decisions.md").
	File string `json:"file,omitempty"`
	// Line is the first line; without EndLine it is the only line. Nil means
	// the whole file.
	Line *int `json:"line,omitempty"`
	// EndLine is the last line, inclusive.
	EndLine *int   `json:"endLine,omitempty"`
	Slug    string `json:"slug,omitempty"`
}

// Get returns the entries a request names, in read order. Finding nothing is
// not an error (the reply says so); a request that names no file, a file
// that is not there, or lines that cannot exist are InputErrors.
func Get(files []rules.File, req GetRequest) ([]EntryRef, error) {
	slug := memfile.TrimJS(req.Slug)
	var only *rules.File
	if req.File != "" {
		f, err := fileNamed(files, req.File)
		if err != nil {
			return nil, err
		}
		only = f
	} else if slug == "" {
		return nil, &InputError{Field: "file", Problem: "give a slug, or a file (a category or a file name such as decisions.md) with an optional line range"}
	}
	if slug != "" && (req.Line != nil || req.EndLine != nil) {
		return nil, &InputError{Field: "line", Problem: "give either a slug or a line range, not both"}
	}
	first, last, err := lineRange(req)
	if err != nil {
		return nil, err
	}
	out := []EntryRef{}
	for i := range files {
		f := &files[i]
		if f.Doc == nil || (only != nil && f != only) {
			continue
		}
		for _, e := range f.Doc.Entries {
			if slug != "" && !(e.HasSlug && e.Slug == slug) {
				continue
			}
			if e.Line < first || e.Line > last {
				continue
			}
			out = append(out, *refIn(f, e))
		}
	}
	return out, nil
}

// lineRange turns the request's lines into bounds; no lines is every line.
func lineRange(req GetRequest) (int, int, error) {
	first, last := 1, int(^uint(0)>>1)
	if req.EndLine != nil && req.Line == nil {
		return 0, 0, &InputError{Field: "line", Problem: "endLine needs line, the first line of the range"}
	}
	if req.Line != nil {
		if *req.Line < 1 {
			return 0, 0, &InputError{Field: "line", Problem: fmt.Sprintf("line %d is out of range: lines count from 1", *req.Line)}
		}
		first, last = *req.Line, *req.Line
	}
	if req.EndLine != nil {
		if *req.EndLine < first {
			return 0, 0, &InputError{Field: "endLine", Problem: fmt.Sprintf("endLine %d is before line %d", *req.EndLine, first)}
		}
		last = *req.EndLine
	}
	return first, last, nil
}

// fileNamed finds a file by category name or by base name. Only files of the
// workspace's snapshot can match, so a name can never lead outside .memory.
func fileNamed(files []rules.File, name string) (*rules.File, error) {
	if c, err := category.Parse(name); err == nil {
		name = c.File()
	}
	for i := range files {
		if files[i].Name == name {
			return &files[i], nil
		}
	}
	if _, known := category.FromFile(name); known {
		return nil, &InputError{Field: "file", Problem: fmt.Sprintf("%s does not exist yet: nothing has been stored in that category", name)}
	}
	return nil, &InputError{Field: "file", Problem: fmt.Sprintf("no memory file %q: use a category (%s) or the name of a .md file in .memory", name, category.Names())}
}

// refIn is ref for a file that may not be a category file.
func refIn(f *rules.File, e memfile.Entry) *EntryRef {
	r := &EntryRef{File: f.Name, Line: e.Line, Content: e.Content}
	if f.IsCategory {
		r.Category = f.Category.String()
	}
	if e.HasSlug {
		r.Slug = e.Slug
	}
	return r
}
