package memory

import (
	"bytes"
	"path/filepath"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Plan decides one write to a .memory folder inside its lock: given the
// folder's files as the writer sees them (the disk as read inside the lock;
// for the language server, its open buffers laid over it), it returns the
// changes. Every front end runs the same plans; only how the files are read
// and how the changes reach buffers differs.
type Plan func(files []rules.File, cfg config.Config) ([]store.Change, error)

// Writer says who asks for a write, for the journal of acknowledged
// entries (store.Ack.By: ByCLI, ByMCP, ByLSP).
type Writer struct {
	By string
}

// StorePlan is the plan of the validated store st into the .memory folder
// dir: the category file's new bytes, the record of a reversal in the
// conflict log, and the acknowledgement every writer journals (ack.go: an
// editor's save must not take out what a store answered "stored"). w, when
// non-nil, is the warm catalog that keeps what the dedup read in the file
// between a long-lived process's stores. The plan's result is left in *res.
func StorePlan(dir string, st Store, w *Warm, who Writer, res *StoreResult) Plan {
	return func(files []rules.File, cfg config.Config) ([]store.Change, error) {
		path := filepath.Join(dir, st.Category.File())
		var cur []byte
		parse, keyed, grow := memfile.Parse, Dedup(nil), Appender(nil)
		if f := CategoryFile(files, st.Category); f != nil {
			if f.TooLarge() {
				// A file that large was never read: its empty Doc must not
				// be taken for an empty file.
				return nil, tooLarge("store into", f)
			}
			path, cur, parse = f.Path, f.Doc.Src, ParsedAs(f.Doc)
			if w != nil {
				// The warm catalog's parse of the new bytes is the next
				// store's and query's.
				d, p := f.Doc, f.Path
				parse = func(b []byte) *memfile.Document {
					if bytes.Equal(b, d.Src) {
						return d
					}
					return w.Parse(p, b)
				}
				keyed, grow = w.Dedup(f.Path), w.Appender(f.Path)
			}
		}
		out, r, err := PlanStoreParsing(cur, parse, keyed, grow, st, cfg)
		*res = r
		if err != nil {
			return nil, err
		}
		now := time.Now()
		var changes []store.Change
		if out != nil {
			changes = append(changes, store.Change{Path: path, Data: out})
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
