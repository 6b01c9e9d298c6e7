package memory

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// MaxShownSuggestions bounds the pairs the readable plan lists; the
// structured plan (JSON) holds all of them.
const MaxShownSuggestions = 40

// Clean: the plan changes nothing and suggests nothing.
func (p *CleanupPlan) Clean() bool { return len(p.Steps) == 0 && len(p.Suggestions) == 0 }

// Summary is the plan as a person reads it before the diff: what changes,
// one line a step, then the pairs left to decide, each with both lines and
// the choice a store would have made. acceptHint says how the front end
// accepts a kind ("--accept KIND"); maxSteps bounds the steps listed (0:
// all of them) and MaxShownSuggestions the pairs.
func (p *CleanupPlan) Summary(acceptHint string, maxSteps int) string {
	var b strings.Builder
	if p.Clean() {
		fmt.Fprintf(&b, "Memory is already clean! %d entries.\n", p.EntriesBefore)
		return b.String()
	}
	var open []Suggestion
	for _, s := range p.Suggestions {
		if !s.Applied {
			open = append(open, s)
		}
	}
	fmt.Fprintf(&b, "Cleanup plan: %d entries before, %d after%s.\n", p.EntriesBefore, p.EntriesAfter, p.counts(len(open)))
	if len(p.Steps) > 0 {
		b.WriteString("\n")
	}
	for i, s := range p.Steps {
		if maxSteps > 0 && i == maxSteps {
			fmt.Fprintf(&b, "… and %d more steps (all are in the structured plan and the diff)\n", len(p.Steps)-maxSteps)
			break
		}
		fmt.Fprintf(&b, "%s %s:%d: %s\n", s.Kind, s.File, s.Line, s.Detail)
	}
	if len(open) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "\n%s to decide (not applied: choose per pair in the editor, or accept a kind with %s):\n", Plural(len(open), "pair", "pairs"), acceptHint)
	for i, s := range open {
		if i == MaxShownSuggestions {
			fmt.Fprintf(&b, "… and %d more pairs (all are in the structured plan)\n", len(open)-MaxShownSuggestions)
			break
		}
		why := s.Kind
		if s.Reason != "" && !strings.HasPrefix(s.Reason, s.Kind) {
			why += ", " + s.Reason
		} else if s.Reason != "" {
			why = s.Reason
		}
		fmt.Fprintf(&b, "%s %s:%d and %d (%s, similarity %.2f): %s\n", s.Kind, s.File, s.Earlier.Line, s.Later.Line, why, s.Similarity, keepPhrase(s))
		fmt.Fprintf(&b, "  %d: %s\n  %d: %s\n", s.Earlier.Line, memfile.EntryLine(s.Earlier.Slug, s.Earlier.Content), s.Later.Line, memfile.EntryLine(s.Later.Slug, s.Later.Content))
	}
	return b.String()
}

func keepPhrase(s Suggestion) string {
	switch s.Keep {
	case KeepEarlier:
		return fmt.Sprintf("suggested: keep line %d", s.Earlier.Line)
	case KeepLater:
		return fmt.Sprintf("suggested: keep line %d", s.Later.Line)
	}
	return "suggested: keep both"
}

// Report is the whole readable plan: the summary, then the diff.
func (p *CleanupPlan) Report(files []rules.File, acceptHint string) string {
	out := p.Summary(acceptHint, 0)
	if d := p.Diff(files); d != "" {
		out += "\n" + d
	}
	return out
}

// Outcome is the sentence that follows the plan: "Applied." once it was
// written, otherwise "Nothing written; " and applyHint, how the front end
// applies it ("run `memory-lsp cleanup --apply` to apply this plan"); empty
// for a plan that changes nothing.
func (p *CleanupPlan) Outcome(applied bool, applyHint string) string {
	switch {
	case len(p.After) == 0:
		return ""
	case applied:
		return "Applied."
	}
	return "Nothing written; " + applyHint + "."
}

// counts is the plan in numbers: " (1 merge, 2 pruned; 3 pairs to decide)".
func (p *CleanupPlan) counts(open int) string {
	n := map[string]int{}
	for _, s := range p.Steps {
		n[s.Kind]++
	}
	var parts []string
	for _, c := range []struct{ kind, one, many string }{
		{StepNormalize, "normalisation", "normalisations"}, {StepMerge, "merge", "merges"},
		{StepResolve, "pair resolved", "pairs resolved"}, {StepPrune, "pruned", "pruned"},
		{StepAssignSlug, "slug assigned", "slugs assigned"}, {StepLeft, "line left to you", "lines left to you"},
	} {
		if n[c.kind] > 0 {
			parts = append(parts, Plural(n[c.kind], c.one, c.many))
		}
	}
	out := strings.Join(parts, ", ")
	if open > 0 {
		if out != "" {
			out += "; "
		}
		out += Plural(open, "pair", "pairs") + " to decide"
	}
	if out == "" {
		return ""
	}
	return " (" + out + ")"
}

// Plural is "1 entry" or "2 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
