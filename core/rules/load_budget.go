package rules

import (
	"bytes"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/budget"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// LoadBudgetCode is the code of the findings on what an agent would cut.
const LoadBudgetCode = "load-budget"

// checkLoadBudget judges each category file against the file tool of each
// agent the workspace uses (cfg.Agents): the pointer blocks send agents to
// read these files, and a tool that stops at a line count or a token count
// leaves the rest unread. What agents load at session start from their own
// instruction files is judged by the front end that reads those files,
// into the same findings (LoadBudget).
func checkLoadBudget(w *workspace) {
	for _, id := range w.cfg.Agents {
		a := budget.ByID(id)
		if a == nil {
			continue
		}
		for fi, f := range w.files {
			if !f.IsCategory || f.Doc == nil || f.unread > 0 {
				continue
			}
			for _, u := range budget.ReadUses(a, ".memory/"+f.Name, f.Doc.Src) {
				reportUse(w, u, fi, f.Doc.Src)
			}
		}
	}
}

// LoadBudget are the load-budget findings of uses of the agents' limits
// over files (the instruction files an agent loads at session start, and
// the memory files they import), each use on the file whose Path is its
// mark's; a use on no file of files is left out, and all of them when cfg
// switches the rule off.
func LoadBudget(uses []budget.Use, files []File, cfg config.Config) []Finding {
	w := &workspace{files: files, cfg: cfg, rule: ruleOf(LoadBudgetCode)}
	if !w.rule.on(cfg) {
		return nil
	}
	for _, u := range uses {
		m := u.Over
		if m == nil {
			m = u.Near
		}
		for fi, f := range files {
			if m != nil && f.Path == m.Path && f.Doc != nil {
				reportUse(w, u, fi, f.Doc.Src)
				break
			}
		}
	}
	return w.out
}

// reportUse reports one use of an agent's limit, on the line where the
// agent cuts (or where 80 % is passed) in src, file fi's bytes.
func reportUse(w *workspace, u budget.Use, fi int, src []byte) {
	sev := u.Severity()
	if sev < 0 {
		return
	}
	m := u.Over
	if m == nil {
		m = u.Near
	}
	end := len(src)
	if i := bytes.IndexByte(src[m.Offset:], '\n'); i >= 0 {
		end = m.Offset + i
	}
	if end > m.Offset && src[end-1] == '\r' {
		end--
	}
	w.reportAs(Severity(sev), Finding{File: fi, Span: text.Span{Start: m.Offset, End: end}, Message: u.Message()})
}

// ruleOf is the registry's rule with code, for the rules a front end runs
// on files beside the memory files (LoadBudget, CrossFile).
func ruleOf(code string) *rule {
	for i := range registry {
		if registry[i].Code == code {
			return &registry[i]
		}
	}
	panic("rules: no rule " + code) // a code constant of this package
}

// Sorted sorts findings as Check returns them (by file, start offset and
// code), for a front end that adds the findings of LoadBudget to a check's.
func Sorted(findings []Finding) []Finding {
	slices.SortStableFunc(findings, func(a, b Finding) int { return compareFindings(&a, &b) })
	return findings
}
