package memory

import (
	"fmt"
	"time"
)

// ConflictLog is the log, in `.memory/`, where HackLM records a rule that a
// store reversed; we append to it in HackLM's format so that a team using
// both tools reads one history.
const ConflictLog = "conflicts.log"

// ConflictRecord is the conflicts.log line of a store that replaced the
// rule it reverses (nil for any other store): HackLM's
// `<UTC date> | <file> | <slug> | OLD: "<old>" | NEW: "<new>"` and LF.
func ConflictRecord(r StoreResult, now time.Time) []byte {
	if r.Action != ActionConflict || r.Matched == nil {
		return nil
	}
	return fmt.Appendf(nil, "%s | %s | %s | OLD: %s | NEW: %s\n",
		now.UTC().Format(time.DateOnly), r.File, r.Slug, quote(r.Matched.Content), quote(r.Content))
}
