package memory

import (
	"fmt"
	"maps"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// maxFixPasses bounds the fix loop; each pass only applies fixes whose
// edits do not overlap, so a few passes settle any real file.
const maxFixPasses = 8

// AllFiles, as FixAll's only, fixes every file.
const AllFiles = -1

// FixAll applies the safe fixes until none is left, as `check --fix` and
// the editor's "Fix all" do, and returns the new bytes of each file it
// changed, by index into files (which it leaves as they are). findings are
// a check of files as given, which callers usually hold already. With only
// at a file's index it fixes that file alone, with only the fixes that edit
// nothing else: the editor applies a fix-all to the one buffer it was asked
// for. A fix whose edits do not apply (a bug in a rule) ends the loop with
// an error naming the file; the bytes returned are those fixed until then.
// The reference rules judge entries against repo on every pass (nil: they
// stay silent); findings must be a check with that repository.
func FixAll(files []rules.File, cfg config.Config, repo rules.Repo, only int, findings []rules.Finding) (map[int][]byte, error) {
	cur := slices.Clone(files)
	var err error
	fixLoop(cur, cfg, repo, findings, func(files []rules.File, findings []rules.Finding) map[int][]text.Edit {
		if only == AllFiles {
			return rules.FixAll(files, findings)
		}
		edits := rules.FixAll(files, fixesOnlyIn(files, findings, only))[only]
		if len(edits) == 0 {
			return nil
		}
		return map[int][]text.Edit{only: edits}
	}, func(fi int, e error) bool {
		err = fmt.Errorf("fixing %s: %w", cur[fi].Name, e)
		return true
	})
	after := map[int][]byte{}
	for i := range cur {
		if cur[i].Doc != files[i].Doc && string(cur[i].Doc.Src) != string(files[i].Doc.Src) {
			after[i] = cur[i].Doc.Src
		}
	}
	if gerr := RefuseGrown("fix", files, after); gerr != nil {
		return nil, gerr
	}
	return after, err
}

// fixesOnlyIn is file fi's findings, each with only the fixes that edit
// file fi alone. A finding keeps its place even with no fix left, so that
// rules.FixAll takes each finding's first remaining safe fix.
func fixesOnlyIn(files []rules.File, findings []rules.Finding, fi int) []rules.Finding {
	var own []rules.Finding
	for _, f := range findings {
		if f.File != fi {
			continue
		}
		g := f
		g.Fixes = nil
		for _, fx := range f.Fixes {
			if editsOnly(f.EditsOf(&fx, files), fi) {
				g.Fixes = append(g.Fixes, fx)
			}
		}
		own = append(own, g)
	}
	return own
}

func editsOnly(edits []rules.FileEdit, fi int) bool {
	for _, e := range edits {
		if e.File != fi {
			return false
		}
	}
	return true
}

// fixLoop is the loop every fix-all runs (FixAll, and cleanup's
// normalisation, which picks its fixes by other rules): let pick choose one
// pass's edits from the findings, apply them (in file order), parse the
// changed files into files, check again (against repo, which may be nil),
// and repeat until pick chooses nothing or maxFixPasses passes ran.
// findings are the first pass's, a check of files as given. A file whose
// edits do not apply keeps its bytes and goes to failed with the error;
// failed says whether to stop.
func fixLoop(files []rules.File, cfg config.Config, repo rules.Repo, findings []rules.Finding,
	pick func(files []rules.File, findings []rules.Finding) map[int][]text.Edit, failed func(fi int, err error) (stop bool)) {
	for pass := 0; pass < maxFixPasses; pass++ {
		if pass > 0 {
			findings = rules.CheckWithRepo(files, cfg, repo)
		}
		edits := pick(files, findings)
		if len(edits) == 0 {
			return
		}
		for _, fi := range slices.Sorted(maps.Keys(edits)) {
			out, err := text.Apply(files[fi].Doc.Src, edits[fi])
			if err != nil {
				if failed(fi, err) {
					return
				}
				continue
			}
			files[fi].Doc = memfile.Parse(out)
		}
	}
}
