package memory

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// CategoryStats is one category's fill against its limit.
type CategoryStats struct {
	Category string `json:"category"`
	File     string `json:"file"`
	Entries  int    `json:"entries"`
	Limit    int    `json:"limit"`
}

// Pair is two entries a rule relates: Entry is the later one (where the
// finding is), Other the earlier one it repeats or reverses.
type Pair struct {
	// Kind is the finding's code — "duplicate", "near-duplicate" or
	// "conflict" — or "sibling" for a near-duplicate that differs by one
	// term (likely two facts).
	Kind       string   `json:"kind"`
	Entry      EntryRef `json:"entry"`
	Other      EntryRef `json:"other"`
	Similarity float64  `json:"similarity"`
	Reason     string   `json:"reason,omitempty"`
}

// Stats is the health of a workspace's memory at a glance.
type Stats struct {
	Categories []CategoryStats `json:"categories"`
	Total      int             `json:"total"`
	// Duplicates are exact and near duplicates; Conflicts are reversals;
	// Siblings are pairs that differ by one term, likely two facts, listed
	// so a person can merge them if they are one; Versions are two texts
	// under one slug in a file (a store updates only one of them).
	Duplicates []Pair `json:"duplicates"`
	Conflicts  []Pair `json:"conflicts"`
	Siblings   []Pair `json:"siblings"`
	Versions   []Pair `json:"versions"`
	// Stale are the entries that cite a path, command or version the
	// repository contradicts (the reference rules' findings).
	Stale []StaleEntry `json:"stale"`
	// Budget is what the workspace's agents load and how it stands against
	// their limits (AddBudget); nil when not asked for.
	Budget *Budget `json:"budget,omitempty"`
}

// AddBudget fills st.Budget for the workspace at root, whose memory files
// are files.
func (st *Stats) AddBudget(cfg config.Config, files []rules.File, root string) {
	b := ComputeBudget(cfg, files, AgentLoads(cfg, root))
	st.Budget = &b
}

// StaleEntry is an entry and what it cites that no longer holds.
type StaleEntry struct {
	Entry    EntryRef `json:"entry"`
	Problems []string `json:"problems"`
}

// ComputeStats counts entries per category and lists the duplicate and
// conflicting pairs, and with a repository (nil: none) the stale entries.
// The pairs are the rules' own findings (so stats, check and the editor's
// diagnostics never disagree, and a rule the user switched off is not
// counted); only the similarity is recomputed, because findings carry it as
// words.
func ComputeStats(files []rules.File, cfg config.Config, repo rules.Repo) Stats {
	st := Stats{Categories: []CategoryStats{}, Duplicates: []Pair{}, Conflicts: []Pair{}, Siblings: []Pair{}, Versions: []Pair{}, Stale: []StaleEntry{}}
	for _, c := range category.All {
		cs := CategoryStats{Category: c.String(), File: c.File(), Limit: cfg.Limit(c)}
		for _, f := range files {
			if f.IsCategory && f.Category == c && f.Doc != nil {
				cs.Entries = len(f.Doc.Entries)
			}
		}
		st.Total += cs.Entries
		st.Categories = append(st.Categories, cs)
	}
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	findings := rules.CheckWithRepo(files, cfg, repo)
	st.Stale = staleEntries(files, findings)
	for _, fd := range findings {
		if !fd.Traits().Pairs && !fd.Versions() {
			continue
		}
		if len(fd.Related) == 0 {
			continue
		}
		later, ok1 := entryAt(files, fd.File, fd.Span)
		earlier, ok2 := entryAt(files, fd.Related[0].File, fd.Related[0].Span)
		if !ok1 || !ok2 {
			continue
		}
		p := Pair{Kind: fd.Code, Entry: *refIn(&files[fd.File], later), Other: *refIn(&files[fd.Related[0].File], earlier)}
		v := similar.Classify(similar.Analyze(earlier.Content), similar.Analyze(later.Content), th)
		p.Similarity, p.Reason = v.Similarity, v.Reason
		switch {
		case fd.Versions():
			st.Versions = append(st.Versions, p)
		case fd.Traits().Conflicting:
			st.Conflicts = append(st.Conflicts, p)
		case v.Kind == similar.KindSibling:
			p.Kind = similar.KindSibling
			st.Siblings = append(st.Siblings, p)
		default:
			st.Duplicates = append(st.Duplicates, p)
		}
	}
	return st
}

// staleEntries groups the reference rules' findings by entry, in file
// order; information (what the rules cannot tell: a path the history
// never had) does not make an entry stale, as in a query's marks.
func staleEntries(files []rules.File, findings []rules.Finding) []StaleEntry {
	out := []StaleEntry{}
	for _, fd := range findings {
		if !fd.Traits().NeedsRepo || fd.Severity > rules.Warning {
			continue
		}
		e, ok := entryAt(files, fd.File, fd.Span)
		if !ok {
			continue
		}
		ref := *refIn(&files[fd.File], e)
		if n := len(out); n > 0 && out[n-1].Entry == ref {
			out[n-1].Problems = append(out[n-1].Problems, fd.Message)
			continue
		}
		out = append(out, StaleEntry{Entry: ref, Problems: []string{fd.Message}})
	}
	return out
}

// entryAt finds the entry whose line holds a finding's span.
func entryAt(files []rules.File, fi int, sp text.Span) (memfile.Entry, bool) {
	if fi < 0 || fi >= len(files) || files[fi].Doc == nil {
		return memfile.Entry{}, false
	}
	for _, e := range files[fi].Doc.Entries {
		if sp.Start >= e.LineSpan.Start && sp.Start <= e.LineSpan.End {
			return e, true
		}
	}
	return memfile.Entry{}, false
}

// SlugsWithVersions counts the slugs of st.Versions: a slug with three
// texts gives two pairs.
func (st Stats) SlugsWithVersions() int {
	seen := map[[2]string]bool{}
	for _, p := range st.Versions {
		seen[[2]string{p.Entry.File, p.Entry.Slug}] = true
	}
	return len(seen)
}

// Message is the stats as a person or an agent reads them, the same in the
// editor and over MCP: the totals, each category against its limit, each
// pair, and (when lastFile is not empty) the last change. Every front end
// renders it; none writes its own.
func (st Stats) Message(lastChange, lastFile string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; %s, %s", Plural(st.Total, "memory", "memories"),
		Plural(len(st.Duplicates), "duplicate", "duplicates"), Plural(len(st.Conflicts), "conflict", "conflicts"))
	if len(st.Siblings) > 0 {
		fmt.Fprintf(&b, ", %s (likely two facts each)", Plural(len(st.Siblings), "sibling pair", "sibling pairs"))
	}
	if n := st.SlugsWithVersions(); n > 0 {
		fmt.Fprintf(&b, ", %s", Plural(n, "slug holding several texts", "slugs holding several texts"))
	}
	if len(st.Stale) > 0 {
		fmt.Fprintf(&b, ", %s", Plural(len(st.Stale), "stale entry", "stale entries"))
	}
	b.WriteString(".")
	for _, c := range st.Categories {
		fmt.Fprintf(&b, "\n%s: %d/%d", c.Category, c.Entries, c.Limit)
		if c.Entries >= c.Limit {
			b.WriteString(" (full: the next new entry drops the lowest-scoring one)")
		}
	}
	for _, p := range st.Duplicates {
		fmt.Fprintf(&b, "\n%s: %s:%d %q repeats %s:%d %q (similarity %.2f)", p.Kind, p.Entry.File, p.Entry.Line, p.Entry.Content, p.Other.File, p.Other.Line, p.Other.Content, p.Similarity)
	}
	for _, p := range st.Conflicts {
		fmt.Fprintf(&b, "\nconflict: %s:%d %q reverses %s:%d %q", p.Entry.File, p.Entry.Line, p.Entry.Content, p.Other.File, p.Other.Line, p.Other.Content)
	}
	for _, p := range st.Versions {
		// two texts under one slug may say different things without
		// reversing anything (issues 27, 28)
		fmt.Fprintf(&b, "\nversions: %s:%d %q holds another text under the same slug as %s:%d %q", p.Entry.File, p.Entry.Line, p.Entry.Content, p.Other.File, p.Other.Line, p.Other.Content)
	}
	for _, p := range st.Siblings {
		fmt.Fprintf(&b, "\nsibling: %s:%d %q and %s:%d %q differ by one term (%s): two facts, unless they are one", p.Entry.File, p.Entry.Line, p.Entry.Content, p.Other.File, p.Other.Line, p.Other.Content, p.Reason)
	}
	for _, se := range st.Stale {
		fmt.Fprintf(&b, "\nstale: %s:%d %q: %s", se.Entry.File, se.Entry.Line, se.Entry.Content, strings.Join(se.Problems, "; "))
	}
	if st.Budget != nil {
		for _, a := range st.Budget.Agents {
			fmt.Fprintf(&b, "\nbudget: %s loads %s at session start", a.Name, sizeWords(a.Total))
		}
		for _, s := range st.Budget.warnings() {
			fmt.Fprintf(&b, "\nbudget: %s", s)
		}
	}
	if lastFile != "" {
		fmt.Fprintf(&b, "\nLast change: %s (%s)", lastChange, lastFile)
	}
	return b.String()
}
