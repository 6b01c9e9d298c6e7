package memory

import (
	"fmt"
	"math"
)

// messageFor writes HackLM's reply sentences (behaviour spec §5), so agents
// that learned HackLM's replies read ours. Our additions come after them.
func messageFor(r StoreResult) string {
	switch r.Action {
	case ActionSkipped:
		return fmt.Sprintf("Already stored something similar (%d%% match): %s", percent(r.Similarity), quote(r.Matched.Content))
	case ActionConflict:
		return fmt.Sprintf("Updated in %s: %s (replaced: %s) — the new entry reverses the old one.", r.File, quote(r.Content), quote(r.Matched.Content))
	case ActionUpdated:
		if r.Matched != nil {
			return fmt.Sprintf("Updated in %s: %s (replaced: %s)", r.File, quote(r.Content), quote(r.Matched.Content))
		}
		return fmt.Sprintf("Updated in %s: %s", r.File, quote(r.Content))
	}
	msg := fmt.Sprintf("Stored in %s: %s", r.File, quote(r.Content))
	if r.Evicted != nil {
		msg += fmt.Sprintf(" (category full: removed the lowest-scoring entry %s)", quote(r.Evicted.Content))
	}
	return msg
}

// quote wraps text in double quotes without escaping, as HackLM's template does.
func quote(s string) string { return `"` + s + `"` }

// percent is JavaScript's Math.round(sim*100): halves round up.
func percent(sim float64) int { return int(math.Floor(sim*100 + 0.5)) }
