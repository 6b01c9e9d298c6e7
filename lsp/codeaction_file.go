package lsp

import (
	"fmt"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// fileActions are the code actions of a file that do not depend on where the
// cursor is: the file-wide rewrites and the fix-all. Planning them (slugs
// for every entry, a fix-all that checks the fixed files again) and making
// their edits costs tens of milliseconds on a large file, and an editor asks
// for code actions whenever the cursor rests; so they are made once per
// checked view (a view is checked once, and then served until its files
// change) and per set of kept pairs, and each request only picks from them.
type fileActions struct {
	rewrites []rewriteAction // in the order codeAction offers them
	fixAll   *protocol.CodeAction
}

// rewriteAction is one file-wide rewrite, made ready for codeAction's add.
type rewriteAction struct {
	key   string // codeAction's seen key: kind, title and edits
	title string
	// fileWide: a finding's file-wide fix, left out when an action of the
	// same title was offered already.
	fileWide bool
	action   protocol.CodeAction
	err      error
}

// actionCache holds a view's fileActions.
type actionCache struct {
	mu sync.Mutex
	// by file index, number of kept pairs, and part (rewrites, fix-all)
	files map[[3]int]*fileActions
}

// actionKey is codeAction's key for telling equal actions apart.
func actionKey(kind, title string, edits []rules.FileEdit) string {
	return fmt.Sprint(kind, "\x00", title, "\x00", edits)
}

// fileRewrites returns file fi's file-wide rewrites in v, made on first
// use for the findings v's check left once kept pairs were dropped (kept of
// them).
func (s *Server) fileRewrites(v *view, fi, kept int, findings []rules.Finding, hazards rules.Hazards) *fileActions {
	return v.actions.get([3]int{fi, kept, 0}, func(fa *fileActions) {
		rewrite := func(title string, fileWide bool, edits []rules.FileEdit) {
			we, err := s.fixEdit(v, edits)
			k := kindRewrite
			fa.rewrites = append(fa.rewrites, rewriteAction{key: actionKey(kindRewrite, title, edits), title: title,
				fileWide: fileWide, action: protocol.CodeAction{Title: title, Kind: &k, Edit: we}, err: err})
		}
		if edits, _ := memory.PlanSlugs(&v.files[fi], hazards[fi]); len(edits) > 0 {
			fes := make([]rules.FileEdit, len(edits))
			for i, e := range edits {
				fes[i] = rules.FileEdit{File: fi, Edit: e}
			}
			rewrite("Assign slugs to all entries", false, fes)
		}
		// A file-wide fix whose title an earlier one has is never offered
		// (every over-limit finding carries the same prune): one made
		// without error per title is enough.
		made := map[string]bool{}
		for _, f := range findings {
			if f.File != fi {
				continue
			}
			for _, fx := range f.Fixes {
				if fx.FileWide && !made[fx.Title] {
					rewrite(fx.Title, true, f.EditsOf(&fx, v.files))
					made[fx.Title] = fa.rewrites[len(fa.rewrites)-1].err == nil
				}
			}
		}
	})
}

// fileFixAll returns file fi's fix-all action in v (nil when there is
// nothing to fix), made on first use like fileRewrites.
func (s *Server) fileFixAll(v *view, fi, kept int, cfg config.Config, findings []rules.Finding) *fileActions {
	return v.actions.get([3]int{fi, kept, 1}, func(fa *fileActions) {
		orig := v.files[fi].Doc.Src
		// logged once, when made: the actions serve every request on this view
		after, err := memory.FixAll(v.files, cfg, v.repo, fi, findings)
		if err != nil {
			s.log.Errorf("fix-all for %s: %v", v.files[fi].Path, err)
		}
		if fixed, ok := after[fi]; ok {
			we, err := s.workspaceEdit([]fileEdits{{path: v.files[fi].Path, version: v.versions[fi], src: orig, ix: v.ix(fi), edits: []text.Edit{lineDiff(orig, fixed)}}})
			if err != nil {
				s.log.Errorf("fix-all for %s: %v", v.files[fi].Path, err)
			} else {
				k := kindFixAll
				fa.fixAll = &protocol.CodeAction{Title: "Fix all safe problems in " + v.files[fi].Name, Kind: &k, Edit: we}
			}
		}
	})
}

// get returns the actions under key, made by make on first use; requests
// for one view wait for each other rather than make them twice.
func (c *actionCache) get(key [3]int, make func(*fileActions)) *fileActions {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fa := c.files[key]; fa != nil {
		return fa
	}
	fa := &fileActions{}
	make(fa)
	if c.files == nil {
		c.files = map[[3]int]*fileActions{}
	}
	c.files[key] = fa
	return fa
}
