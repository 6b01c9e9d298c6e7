package rules

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/crossfile"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// CrossFileCode is the code of the findings on an entry that contradicts a
// line of the team's other instruction files.
const CrossFileCode = "cross-file"

// checkCrossFile is the registry's hook: the rule needs the instruction
// files beside `.memory/`, which a front end reads and gives CrossFile, so
// a check of the memory files alone reports nothing.
func checkCrossFile(*workspace) {}

// ReferencesIn are the reference rules' findings (stale-path,
// stale-command, version-drift) on the bullets of an agent's instruction
// file (AGENTS.md, CLAUDE.md …), read as entries, judged against repo:
// what check reports when it is given that file, without fixes.
func ReferencesIn(f File, repo Repo, cfg config.Config) []Finding {
	g := f
	g.IsCategory, g.Category = true, category.Instruction
	c := cfg
	c.Disabled = map[string]bool{}
	for code, off := range cfg.Disabled {
		c.Disabled[code] = off
	}
	for _, r := range registry {
		if !r.NeedsRepo {
			c.Disabled[r.Code] = true
		}
	}
	var out []Finding
	for _, fd := range CheckWithRepo([]File{g}, c, repo) {
		if fd.Traits().NeedsRepo {
			// The fixes rewrite memory entries; an agent's file is the
			// team's to edit.
			fd.Fixes = nil
			out = append(out, fd)
		}
	}
	return out
}

// CrossFileOn reports whether cfg runs cross-file: a front end reads the
// team's instruction files for it only then.
func CrossFileOn(cfg config.Config) bool { return ruleOf(CrossFileCode).on(cfg) }

// CrossFile are the cross-file findings of the entries of files (the
// memory files) against others (the team's instruction files, by their
// path from the workspace root): on the entry, with the line it
// contradicts as related information, and fixes that edit the entry. A
// Finding's File indexes files followed by others. Nothing when cfg
// switches the rule off.
func CrossFile(files, others []File, cfg config.Config) []Finding {
	w := &workspace{files: append(append([]File(nil), files...), others...), cfg: cfg, rule: ruleOf(CrossFileCode)}
	if !w.rule.on(cfg) {
		return nil
	}
	type at struct{ file, entry int }
	var where []at
	var entries []string
	for fi, f := range files {
		if !f.IsCategory || !f.parsed() {
			continue
		}
		for ei := range f.Doc.Entries {
			where = append(where, at{fi, ei})
			entries = append(entries, f.Doc.Entries[ei].Content)
		}
	}
	var lines []crossfile.Line
	lineFile := []int{}
	for k, o := range others {
		if o.Doc == nil {
			continue
		}
		for _, l := range crossfile.Lines(o.Path, o.Doc.Src) {
			lines = append(lines, l)
			lineFile = append(lineFile, len(files)+k)
		}
	}
	if len(entries) == 0 || len(lines) == 0 {
		return nil
	}
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	reported := map[int]bool{}
	for _, c := range crossfile.Find(entries, lines, th) {
		if reported[c.Entry] {
			continue // one finding an entry: the first line it contradicts
		}
		reported[c.Entry] = true
		a, l := where[c.Entry], lines[c.Line]
		f := &files[a.file]
		e := &f.Doc.Entries[a.entry]
		place := fmt.Sprintf("%s:%d", l.Path, l.Line+1)
		fd := Finding{File: a.file, Span: entrySpan(e), Message: c.Message(place),
			Related: []Related{{File: lineFile[c.Line], Span: text.Span{Start: l.Start, End: l.End}, Message: "the line it contradicts"}}}
		if c.Says != "" && c.Other != "" && strings.Count(e.Content, c.Says) == 1 {
			start := e.ContentSpan.Start + strings.Index(e.Content, c.Says)
			fd.Fixes = append(fd.Fixes, Fix{Title: fmt.Sprintf("Say %s, as %s does", c.Other, l.Path),
				Edits: in(a.file, text.Edit{Start: start, End: start + len(c.Says), New: c.Other})})
		}
		fd.Fixes = append(fd.Fixes, deleteLineFix("Delete this entry (the other file stands)", false, a.file, f.Doc, e.LineIndex))
		w.report(fd)
	}
	return w.out
}
