package memory

import (
	"fmt"
	"math"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/similar"
)

// messageFor writes HackLM's reply sentences (behaviour spec §5), so agents
// that learned HackLM's replies read ours. Our additions come after them.
func messageFor(r StoreResult) string {
	switch r.Action {
	case ActionSkipped:
		msg := fmt.Sprintf("Already stored something similar (%d%% match): %s", percent(r.Similarity), quote(r.Matched.Content))
		switch r.Kind {
		case similar.KindAddsDetail:
			msg += " — the new text only adds words to it; to replace it, store under its slug."
		case similar.KindLessDetail:
			msg += " — the stored entry already says this, and more."
		}
		return msg
	case ActionConflict:
		return fmt.Sprintf("Updated in %s: %s (replaced: %s) — the new entry reverses the old one; recorded in %s.", r.File, quote(r.Content), quote(r.Matched.Content), ConflictLog) + slugKept(r)
	case ActionUpdated:
		if r.SlugAdded {
			return fmt.Sprintf("Updated in %s: added slug [%s] to the stored entry %s (%d%% match).", r.File, r.Slug, quote(r.Content), percent(r.Similarity))
		}
		if r.Matched == nil {
			return fmt.Sprintf("Updated in %s: %s", r.File, quote(r.Content))
		}
		msg := fmt.Sprintf("Updated in %s: %s (replaced: %s)", r.File, quote(r.Content), quote(r.Matched.Content))
		switch r.Kind {
		case similar.KindValue:
			msg += " — the same fact with a changed value."
		case similar.KindAddsDetail:
			msg += " — the same fact with more detail."
		}
		return msg + slugKept(r)
	}
	msg := fmt.Sprintf("Stored in %s: %s", r.File, quote(r.Content))
	if r.Kind == similar.KindSibling && r.Matched != nil {
		msg += fmt.Sprintf(" — kept beside the similar entry %s on line %d, as a second fact (%s); merge them if they are one.", quote(r.Matched.Content), r.Matched.Line, r.Reason)
	}
	switch len(r.Related) {
	case 0:
	case 1:
		msg += " — on the same subject as " + relatedList(r.Related) + "; if the new entry says the same, reverses or updates it, remove the older line."
	default:
		msg += " — on the same subject as " + relatedList(r.Related) + "; if the new entry says the same as one of them, reverses or updates it, remove that line."
	}
	if r.Evicted != nil {
		msg += fmt.Sprintf(" (category full: removed the lowest-scoring entry %s)", quote(r.Evicted.Content))
	}
	return msg
}

// relatedList names entries as `"content" (line N)`, joined by "and".
func relatedList(es []EntryRef) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("%s (line %d)", quote(e.Content), e.Line)
	}
	return strings.Join(parts, " and ")
}

// slugKept says, for an update that matched an entry under another slug
// than the one asked for, which it keeps.
func slugKept(r StoreResult) string {
	if r.SlugAsked == "" {
		return ""
	}
	return fmt.Sprintf(" It keeps its slug [%s]: [%s] was asked for, and an update keeps the entry's identity.", r.Slug, r.SlugAsked)
}

// quote wraps text in double quotes without escaping, as HackLM's template does.
func quote(s string) string { return `"` + s + `"` }

// percent is JavaScript's Math.round(sim*100): halves round up.
func percent(sim float64) int { return int(math.Floor(sim*100 + 0.5)) }
