package rules

import (
	"fmt"
	"sort"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// A hazard is text that must not spread: a likely secret, an instruction
// to the agents that read memory, or text a reader cannot see. Normalising
// such a line (a "* " bullet made "- ") would make HackLM read it, a slug
// would make it addressable, and a merge would copy it: so no tool rewrites
// a line that holds one. The fixes offered for it are its own: delete the
// line or, for a secret, replace the secret with a placeholder, both for a
// person to choose; hidden text's removal is safe, since what a reader saw
// stays.
// Hazard reports whether f is about a hazard: its fixes come first.
func (f Finding) Hazard() bool { return f.Traits().Hazard }

// Placeholder is what "Replace the secret with a placeholder" writes: not a
// credential, no brackets that could read as a slug.
const Placeholder = "<redacted>"

// Hazards are the lines of each file that hold a hazard, with the first
// hazard found on each, by file index and line index.
type Hazards map[int]map[int]Hazard

// Hazard is what is wrong with a line and what a person does about it.
type Hazard struct {
	Message string
	Advice  string
}

// FindHazards collects the hazard lines of findings (those of Check).
func FindHazards(files []File, findings []Finding) Hazards {
	h := Hazards{}
	for _, f := range findings {
		if !f.Hazard() || f.File >= len(files) || files[f.File].Doc == nil {
			continue
		}
		var lines []int
		for _, sp := range append([]text.Span{f.Span}, f.unlisted...) {
			lines = append(lines, linesOf(files[f.File].Doc, sp)...)
		}
		message := f.Message
		if len(f.unlisted) > 0 {
			// the finding that counts those not listed: its message is
			// the count, not what is wrong with each line
			message = fmt.Sprintf("a %s finding, one of those a file does not list past %d", f.Code, MaxListed)
		}
		for _, li := range lines {
			if h[f.File] == nil {
				h[f.File] = map[int]Hazard{}
			}
			if _, ok := h[f.File][li]; !ok {
				advice := "delete the line, or write the project fact it meant in plain words"
				switch f.Code {
				case "secret":
					advice = "delete the line or replace the secret with a placeholder, then rotate the secret"
				case HiddenTextCode:
					advice = "remove the hidden text (check --fix does) or delete the line"
				}
				h[f.File][li] = Hazard{Message: message, Advice: advice}
			}
		}
	}
	return h
}

// HazardsOf runs only the hazard rules that cfg enables over files: what a
// planner needs after it changed the files, without a full check.
func HazardsOf(files []File, cfg config.Config) Hazards {
	return FindHazards(files, checkOnly(files, cfg, func(r rule) bool { return r.Hazard }))
}

// Unresolved is what keeps `check` failing or a hazard in place after an
// automatic repair: the hazards and the findings of severity error, by the
// rules cfg enables. Only rules that can report either are run, so it
// costs no similarity pairs.
func Unresolved(files []File, cfg config.Config) []Finding {
	all := checkOnly(files, cfg, func(r rule) bool { return r.Hazard || r.Severity == Error })
	out := all[:0]
	for _, f := range all {
		if f.Hazard() || f.Severity == Error {
			out = append(out, f)
		}
	}
	return out
}

func checkOnly(files []File, cfg config.Config, keep func(rule) bool) []Finding {
	only := cfg
	only.Disabled = map[string]bool{}
	for _, r := range registry {
		only.Disabled[r.Code] = !keep(r) || !cfg.Enabled(r.Code)
	}
	return Check(files, only)
}

// Blocks reports whether fix, offered for finding f, would rewrite a hazard
// line of another finding: every fix but the hazard's own.
func (h Hazards) Blocks(files []File, f Finding, fix Fix) bool {
	if f.Hazard() || len(h) == 0 {
		return false
	}
	for _, fe := range f.EditsOf(&fix, files) {
		lines := h[fe.File]
		if len(lines) == 0 || fe.File >= len(files) || files[fe.File].Doc == nil {
			continue
		}
		d := files[fe.File].Doc
		for li := range lines {
			if touches(fe.Edit, d, li) {
				return true
			}
		}
	}
	return false
}

// Lines lists the hazard lines of file fi in order.
func (h Hazards) Lines(fi int) []int {
	out := make([]int, 0, len(h[fi]))
	for li := range h[fi] {
		out = append(out, li)
	}
	sort.Ints(out)
	return out
}

// touches: the edit changes line li's text (an insertion between two lines
// does not).
func touches(e text.Edit, d *memfile.Document, li int) bool {
	line := d.Lines[li].Span
	if e.Start == e.End {
		return line.Start < e.Start && e.Start <= d.BodyEnd(li)
	}
	return e.Start < line.End && line.Start < e.End
}

// lineAt is the index of the line holding byte off (its line break
// included), len(d.Lines) past the last.
func lineAt(d *memfile.Document, off int) int {
	return sort.Search(len(d.Lines), func(i int) bool { return d.Lines[i].Span.End > off })
}

// linesOf lists the indexes of the lines span touches.
func linesOf(d *memfile.Document, span text.Span) []int {
	first := lineAt(d, span.Start)
	var out []int
	for li := first; li < len(d.Lines); li++ {
		if li > first && d.Lines[li].Span.Start >= span.End {
			break
		}
		out = append(out, li)
	}
	return out
}

// hazardFixes are the fixes of a hazard finding: delete its lines (the
// entry, when it is one) and, for a secret, replace it with Placeholder.
// Neither is safe: a person chooses.
func hazardFixes(fi int, d *memfile.Document, span text.Span, secret bool) []Fix {
	lines := linesOf(d, span)
	if len(lines) == 0 {
		return nil
	}
	title := "Delete line"
	if len(lines) > 1 {
		title = "Delete lines"
	} else if d.Lines[lines[0]].Entry >= 0 {
		title = "Delete entry"
	}
	fixes := []Fix{{Title: title, Edits: in(fi, d.DeleteLines(lines)...)}}
	if secret {
		fixes = append(fixes, Fix{Title: "Replace the secret with a placeholder", Edits: in(fi, text.Edit{Start: span.Start, End: span.End, New: Placeholder})})
	}
	return fixes
}
