package memory

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Plan decides one write to a .memory folder inside its lock, on the
// folder as the writer sees it (View), and returns the changes. Every front
// end runs the same plans; only how the files are read and how the changes
// reach buffers differs.
type Plan func(v View, cfg config.Config) ([]store.Change, error)

// View is a .memory folder as a write plans on it.
type View struct {
	// Files are the folder's memory files: the disk as read inside the
	// lock, or for the language server its open buffers laid over it.
	Files []rules.File
	// Held is the review queue (store.HeldName) as read inside the lock,
	// and HeldErr why it could not be read (a plan that uses it fails).
	Held    []byte
	HeldErr error
}

// Writer says who asks for a write: for the journal of acknowledged
// entries, the provenance log and review.
type Writer struct {
	By string // ByCLI, ByMCP, ByLSP
	// Name is the writer as it names itself: the MCP client's name and
	// version from initialize, the CLI's --source, the editor's name.
	Name string
	// Person: a person in an editor, through the language server's
	// commands (review: agents holds every other write).
	Person bool
}

// StorePlan is the plan of the screened store sc into the .memory folder
// dir: the category file's new bytes,
// the record of a reversal in the conflict log, the provenance of the
// write, and the acknowledgement every writer journals (ack.go: an
// editor's save must not take out what a store answered "stored"); or, when
// review holds the write, its record in the review queue instead. The
// plan's result is left in *res.
func StorePlan(dir string, sc Screened, who Writer, res *StoreResult) Plan {
	st, signals := sc.Store, sc.Signals
	return func(v View, cfg config.Config) ([]store.Change, error) {
		cfg.Review = sc.Review // as screened, the project's floor applied
		path := filepath.Join(dir, st.Category.File())
		var cur []byte
		parse := memfile.Parse
		if f := CategoryFile(v.Files, st.Category); f != nil {
			if f.TooLarge() {
				// A file that large was never read: its empty Doc must not
				// be taken for an empty file.
				return nil, tooLarge("store into", f)
			}
			path, cur, parse = f.Path, f.Doc.Src, ParsedAs(f.Doc)
		}
		out, r, err := PlanStoreParsing(cur, parse, st, cfg)
		*res = r
		if err != nil {
			return nil, err
		}
		now := time.Now()
		if cfg.Review != config.ReviewOff && r.Action != ActionSkipped {
			// A write whose text memory already holds changes nothing, and
			// is answered as before; any other is judged on its signals
			// and the links memory does not cite yet.
			all := append(slices.Clone(signals), newURLSignals(st.Content, v.Files)...)
			if heldBy(cfg.Review, who, all) {
				if len(all) == 0 {
					all = []Signal{{Code: SignalReview, What: "review is set to agents: a write that does not come from a person in an editor waits for one"}}
				}
				return holdPlan(dir, st, v, all, who, now, res)
			}
		}
		var changes []store.Change
		if out != nil {
			changes = append(changes, store.Change{Path: path, Data: out})
			changes = append(changes, ProvenanceChange(dir, storeProvenance(r, who, now.UTC().Format(time.RFC3339Nano))))
		}
		if rec := ConflictRecord(r, now); rec != nil {
			changes = append(changes, store.Change{Path: filepath.Join(dir, ConflictLog), Data: rec, Append: true})
		}
		// Also a store that wrote nothing (the entry is there already)
		// answers "stored": an editor's save must not take it out either.
		return append(changes, AckChange(dir, StoreAck(r, who.By, now))), nil
	}
}

// Rewrites are the changes that give files[i] the bytes after[i] (a
// planner's new bytes by index into files, as FixAll, PlanAssignSlugs and
// PlanCleanup give them), in file order.
func Rewrites(files []rules.File, after map[int][]byte) []store.Change {
	changes := make([]store.Change, 0, len(after))
	for i := range files {
		if b, ok := after[i]; ok {
			changes = append(changes, store.Change{Path: files[i].Path, Data: b})
		}
	}
	return changes
}
