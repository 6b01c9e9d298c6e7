package memory

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Cleanup step kinds.
const (
	StepNormalize  = "normalize"
	StepMerge      = "merge"
	StepResolve    = "resolve" // an accepted suggestion
	StepPrune      = "prune"
	StepAssignSlug = "assign-slug"
	// StepLeft names a line cleanup did not touch because it holds a
	// likely secret or an instruction to agents (rules.Hazards): a person
	// deletes it or, for a secret, replaces the secret.
	StepLeft = "left-as-is"
)

// CleanupStep is one listed change. Nothing is removed without a step that
// names it: merges list every duplicate they drop, prunes every entry with
// its score.
// Line is the entry's line in the file as it stands when the step runs
// (after the earlier steps), so steps also name the entry's text.
type CleanupStep struct {
	Kind   string `json:"kind"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Detail string `json:"detail"`
}

// CleanupPlan is the whole cleanup as steps and resulting file bytes.
type CleanupPlan struct {
	Steps []CleanupStep `json:"steps"`
	// Suggestions are the pairs a person should look at: near-duplicates,
	// siblings, qualifications, changed values and reversals. None of them
	// is applied unless its kind is accepted (CleanupOptions.Accept).
	Suggestions []Suggestion `json:"suggestions"`
	// After holds the new bytes of each changed file, by index into the input files.
	After map[int][]byte `json:"-"`
	// EntriesBefore and EntriesAfter count the category files' entries.
	EntriesBefore int `json:"entriesBefore"`
	EntriesAfter  int `json:"entriesAfter"`
}

// CleanupOptions are the choices a person made before the cleanup.
type CleanupOptions struct {
	// Accept names the suggestion kinds (SuggestReversal, SuggestValue,
	// SuggestReworded, SuggestQualification) whose suggested choice is
	// applied; the others stay suggestions.
	Accept map[string]bool
}

// PlanCleanup computes the cleanup as a plan, in HackLM's order —
// normalise, merge, prune over-limit categories, assign slugs — but
// deterministic, with every removal listed and nothing written. Unlike
// HackLM it merges only true duplicates (what a store would skip), keeping
// one of the original lines verbatim; every weaker pair becomes a
// suggestion, applied only when its kind is in opts.Accept.
func PlanCleanup(files []rules.File, cfg config.Config, opts CleanupOptions) *CleanupPlan {
	p := &CleanupPlan{After: map[int][]byte{}}
	cur := make([]rules.File, len(files))
	copy(cur, files)
	for _, f := range files {
		if f.IsCategory && f.Doc != nil {
			p.EntriesBefore += len(f.Doc.Entries)
		}
	}
	p.normalize(cur, cfg)
	for i := range cur {
		f := &cur[i]
		if !f.IsCategory || f.Doc == nil || f.TooLarge() {
			continue // a file over the limit has no entries to plan with
		}
		edits, pairs := p.mergePlan(f, cfg, hazardLines(f, cfg))
		p.apply(cur, i, edits)
		p.apply(cur, i, p.suggestPlan(f, pairs, opts))
		p.apply(cur, i, p.prunePlan(f, cfg))
		p.apply(cur, i, p.slugPlan(f, hazardLines(f, cfg)))
		p.EntriesAfter += len(f.Doc.Entries)
	}
	p.leftAsIs(cur, cfg)
	for i := range cur {
		if cur[i].Doc != nil && files[i].Doc != nil && string(cur[i].Doc.Src) != string(files[i].Doc.Src) {
			p.After[i] = cur[i].Doc.Src
		}
	}
	return p
}

// apply replaces file i's document with the edited one.
func (p *CleanupPlan) apply(files []rules.File, i int, edits []text.Edit) {
	if len(edits) == 0 {
		return
	}
	out, err := text.Apply(files[i].Doc.Src, edits)
	if err != nil {
		// The planners build non-overlapping edits from one parse; an
		// overlap is a bug in this package, so keep the file as it was.
		p.Steps = append(p.Steps, CleanupStep{Kind: "error", File: files[i].Name, Detail: err.Error()})
		return
	}
	files[i].Doc = memfile.Parse(out)
}

// normalize applies the safe fixes, and turns other list markers into "- "
// bullets, until nothing changes, listing each as a step. It runs FixAll's
// loop but picks its own fixes: the rules' cleanup traits choose them
// (CleanupNormalizes takes a fix that is not safe, CleanupOwnStep leaves a
// finding to mergePlan), and an edit that does not apply is listed as an
// error step while the other files go on.
func (p *CleanupPlan) normalize(files []rules.File, cfg config.Config) {
	pick := func(files []rules.File, findings []rules.Finding) map[int][]text.Edit {
		hazards := rules.FindHazards(files, findings)
		perFile := map[int][]text.Edit{}
		taken := map[int][]text.Span{}
		for _, f := range findings {
			fix, ok := normalizingFix(f)
			edits := f.EditsOf(&fix, files)
			if !ok || len(edits) == 0 || overlapsAny(edits, taken) || hazards.Blocks(files, f, fix) {
				continue
			}
			for _, fe := range edits {
				perFile[fe.File] = append(perFile[fe.File], fe.Edit)
				taken[fe.File] = append(taken[fe.File], text.Span{Start: fe.Edit.Start, End: fe.Edit.End})
			}
			d := files[f.File].Doc
			line := lineNumberAt(d, f.Span.Start)
			p.Steps = append(p.Steps, CleanupStep{Kind: StepNormalize, File: files[f.File].Name, Line: line, Detail: f.Code + ": " + fix.Title})
		}
		return perFile
	}
	fixLoop(files, cfg, nil, rules.Check(files, cfg), pick, func(fi int, err error) bool {
		// The fixes picked do not overlap, so this is a bug in a rule: the
		// step names it and the file keeps its bytes, as in apply.
		p.Steps = append(p.Steps, CleanupStep{Kind: "error", File: files[fi].Name, Detail: err.Error()})
		return false
	})
}

func normalizingFix(f rules.Finding) (rules.Fix, bool) {
	if f.Traits().CleanupOwnStep {
		// mergePlan merges duplicates, keeping the fuller line and the
		// earliest slug; the quick fix would drop the later line's slug.
		return rules.Fix{}, false
	}
	for _, fx := range f.Fixes {
		if fx.Safe || f.Traits().CleanupNormalizes {
			return fx, true
		}
	}
	return rules.Fix{}, false
}

func overlapsAny(edits []rules.FileEdit, taken map[int][]text.Span) bool {
	for _, fe := range edits {
		for _, s := range taken[fe.File] {
			if fe.Edit.Start < s.End && s.Start < fe.Edit.End || fe.Edit.Start == s.Start {
				return true
			}
		}
	}
	return false
}

func lineNumberAt(d *memfile.Document, off int) int { return d.Lines[lineIndexAt(d, off)].Num }

func lineIndexAt(d *memfile.Document, off int) int {
	i := sort.Search(len(d.Lines), func(i int) bool { return d.Lines[i].Span.End >= off })
	if i == len(d.Lines) {
		i--
	}
	return i
}

// prunePlan drops the lowest-scoring entries of a category over its limit,
// in HackLM's score order (HackLM users rely on the limit holding), naming
// each with its score.
func (p *CleanupPlan) prunePlan(f *rules.File, cfg config.Config) []text.Edit {
	d := f.Doc
	limit := cfg.Limit(f.Category)
	if len(d.Entries) <= limit {
		return nil
	}
	order, scores := similar.PruneOrder(f.Category, contentsOf(d))
	drop := append([]int(nil), order[limit:]...)
	sort.Ints(drop)
	var edits []text.Edit
	for _, i := range drop {
		e := d.Entries[i]
		edits = append(edits, d.DeleteLines([]int{e.LineIndex})...)
		p.Steps = append(p.Steps, CleanupStep{Kind: StepPrune, File: f.Name, Line: e.Line,
			Detail: fmt.Sprintf("score %d, lowest of [%s] over its limit of %d: removed %q", scores[i], f.Category, limit, e.Content)})
	}
	return edits
}

// slugPlan gives every slug-less entry a slug (planSlugs) and lists each.
func (p *CleanupPlan) slugPlan(f *rules.File, hazards map[int]rules.Hazard) []text.Edit {
	edits, refs := PlanSlugs(f, hazards)
	for _, r := range refs {
		p.Steps = append(p.Steps, CleanupStep{Kind: StepAssignSlug, File: f.Name, Line: r.Line, Detail: fmt.Sprintf("assigned slug %q to %q", r.Slug, r.Content)})
	}
	return edits
}

// hazardLines are the lines of f that hold a hazard, by line index: no
// step rewrites, merges or slugs them.
func hazardLines(f *rules.File, cfg config.Config) map[int]rules.Hazard {
	return rules.HazardsOf([]rules.File{*f}, cfg)[0]
}

// leftAsIs lists, after every other step, each line cleanup leaves to a
// person: one that holds a hazard, which no step touched, and one with an
// error only a person can settle (two texts under one slug). A cleanup
// cannot make such a file pass `check`, and says so rather than "clean".
func (p *CleanupPlan) leftAsIs(files []rules.File, cfg config.Config) {
	findings := rules.Unresolved(files, cfg)
	hazards := rules.FindHazards(files, findings)
	listed := map[[2]int]bool{}
	for _, f := range findings {
		d := files[f.File].Doc
		if d == nil || len(d.Lines) == 0 {
			// a file too large to read: its finding has no line, and
			// cleanup refuses category files of that size already
			continue
		}
		li := lineIndexAt(d, f.Span.Start)
		if listed[[2]int{f.File, li}] {
			continue
		}
		listed[[2]int{f.File, li}] = true
		detail := f.Message + "; cleanup cannot choose for you: use the editor's quick fix, or edit the line"
		if h, ok := hazards[f.File][li]; ok {
			detail = h.Message + "; cleanup leaves this line to you: " + h.Advice
		}
		p.Steps = append(p.Steps, CleanupStep{Kind: StepLeft, File: files[f.File].Name, Line: d.Lines[li].Num, Detail: detail})
	}
	// the hazard lines past those a file lists (rules.MaxListed): no
	// finding of their own, but left as much as the others
	for _, fi := range slices.Sorted(maps.Keys(hazards)) {
		for _, li := range slices.Sorted(maps.Keys(hazards[fi])) {
			if listed[[2]int{fi, li}] {
				continue
			}
			h := hazards[fi][li]
			p.Steps = append(p.Steps, CleanupStep{Kind: StepLeft, File: files[fi].Name, Line: files[fi].Doc.Lines[li].Num,
				Detail: h.Message + "; cleanup leaves this line to you: " + h.Advice})
		}
	}
}

// Diff renders the plan's file changes as unified diffs, in file order.
func (p *CleanupPlan) Diff(files []rules.File) string {
	var b strings.Builder
	for i, f := range files {
		after, ok := p.After[i]
		if !ok {
			continue
		}
		b.WriteString(text.UnifiedDiff("a/.memory/"+f.Name, "b/.memory/"+f.Name, string(f.Doc.Src), string(after), 1))
	}
	return b.String()
}
