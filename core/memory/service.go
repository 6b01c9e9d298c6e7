package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/repo"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Service runs the planners against one workspace on disk. Every write goes
// through store.Workspace.Update: lock, re-read, plan, atomic replace.
type Service struct {
	WS  *store.Workspace
	Cfg config.Config
	// Warm, when set, keeps what the Service read and indexed for the next
	// call of a long-lived process: a query re-parses and re-indexes only
	// the files whose bytes changed, and opens the last repository again
	// rather than afresh.
	Warm *Warm
	// CacheDir, when set, is a cache folder in which a one-shot process
	// keeps what the reference rules read of the repository's history
	// between runs (store.Project.MovesCached).
	CacheDir string

	// Who is the writer, for the journal of what it acknowledged, the
	// provenance log and review.
	Who Writer
}

// OpenService opens the workspace at root for a front end: its .memory
// folder (which need not exist yet), the settings with the agents the
// workspace uses (WithAgents), and who writes through it. The CLI and the
// MCP server open each call's workspace so, afresh: the folder may have
// been created, moved or replaced since the last call.
func OpenService(root string, cfg config.Config, who Writer) (*Service, error) {
	ws, err := store.Open(root)
	if err != nil {
		return nil, err
	}
	return &Service{WS: ws, Cfg: WithAgents(cfg, ws.Root), Who: who}, nil
}

// Keep has s read and index through w, which a long-lived process keeps
// for the folder between calls: a file that holds what w last wrote or
// read there is compared with those bytes, not read into a copy.
func (s *Service) Keep(w *Warm) {
	s.Warm = w
	s.WS.Known = w.Bytes
}

// Files parses a snapshot into the rule engine's file list: the category
// files that exist, in category order, then any other `.md` in `.memory/`.
func Files(snap *store.Snapshot) []rules.File { return Overlay(snap, nil) }

// Overlay is Files with editor buffers (by path) in place of the disk's
// contents; buffers of files that are not on disk come last, by path. A nil
// snapshot gives the buffers alone.
func Overlay(snap *store.Snapshot, bufs map[string][]byte) []rules.File {
	return OverlayParsed(snap, nil, buffers(bufs))
}

// buffers are OverlayParsed's open parses of bufs.
func buffers(bufs map[string][]byte) map[string]func() rules.File {
	open := make(map[string]func() rules.File, len(bufs))
	for p, b := range bufs {
		open[p] = func() rules.File { return rules.NewFile(p, b) }
	}
	return open
}

// OverlayParsed is Overlay for a caller that keeps parses between calls, as
// the language server does on every keystroke: parsed[i], when parsed is
// non-nil, returns snap.Files[i] parsed, and open returns each buffer's parse
// by path. Each is called only for a file the result holds.
func OverlayParsed(snap *store.Snapshot, parsed []func() rules.File, open map[string]func() rules.File) []rules.File {
	var out []rules.File
	seen := map[string]bool{}
	if snap != nil {
		for i, f := range snap.Files {
			if parse, ok := open[f.Path]; ok {
				out = append(out, parse())
				seen[f.Path] = true
			} else if f.TooLarge() {
				out = append(out, rules.NewFileTooLarge(f.Path, f.Size))
			} else if f.Exists && f.Data != nil {
				if parsed != nil && parsed[i] != nil {
					out = append(out, parsed[i]())
				} else {
					out = append(out, rules.NewFile(f.Path, f.Data))
				}
			}
		}
	}
	rest := make([]string, 0, len(open))
	for p := range open {
		if !seen[p] {
			rest = append(rest, p)
		}
	}
	sort.Strings(rest)
	for _, p := range rest {
		out = append(out, open[p]())
	}
	return out
}

// Load reads and parses the workspace without locking (reads never lock;
// every write re-reads inside the lock).
func (s *Service) Load() ([]rules.File, error) {
	if s.Warm != nil {
		return s.Warm.Load(s.WS)
	}
	snap, err := s.WS.Snapshot()
	if err != nil {
		return nil, err
	}
	return Files(snap), nil
}

// Store runs storeMemory. With dryRun it decides on the current files and
// writes nothing.
func (s *Service) Store(ctx context.Context, req StoreRequest, dryRun bool) (StoreResult, error) {
	cfg, err := ProjectReview(s.Cfg, s.WS.Dir)
	if err != nil {
		return StoreResult{}, err
	}
	sc, err := Screen(req, cfg)
	if err != nil {
		return StoreResult{}, err
	}
	v := sc.Store
	var res StoreResult
	plan := StorePlan(s.WS.Dir, sc, s.Who, &res)
	run := func(snap *store.Snapshot) ([]store.Change, error) {
		files := Files(snap)
		if s.Warm != nil {
			files = Overlay(snap, nil)
		}
		changes, err := plan(View{Files: files, Held: snap.Held, HeldErr: snap.HeldErr}, s.Cfg)
		if dryRun {
			return nil, err
		}
		return changes, err
	}
	// The plan reads the category file alone, and the review queue.
	names := []string{v.Category.File(), store.HeldName}
	if dryRun {
		snap, err := s.WS.SnapshotOnly(names)
		if err != nil {
			return StoreResult{}, err
		}
		_, err = run(snap)
		if res.Held != nil {
			// Nothing was held: there is no ID to approve.
			res.Held.ID = ""
			res.Message = wouldHold(res)
		}
		return res, err
	}
	if _, err := s.WS.UpdateOnly(ctx, names, run); err != nil {
		return StoreResult{}, fmt.Errorf("storing into %s: %w", v.Category.File(), err)
	}
	return res, nil
}

// Review approves or rejects held writes (ReviewPlan); the reviewer is s.Who.
func (s *Service) Review(ctx context.Context, req ReviewRequest) ([]ReviewOutcome, error) {
	var out []ReviewOutcome
	plan := ReviewPlan(s.WS.Dir, req, s.Who, &out)
	_, err := s.WS.Update(ctx, func(snap *store.Snapshot) ([]store.Change, error) {
		return plan(View{Files: Files(snap), Held: snap.Held, HeldErr: snap.HeldErr}, s.Cfg)
	})
	return out, err
}

// Held lists the writes waiting for review, and the queue's lines that are
// no record (kept, and shown, so that nothing in them goes unseen).
func (s *Service) Held() ([]Held, []int, error) { return ReadHeld(s.WS) }

// Query runs queryMemory on the current files: from the warm catalog of a
// long-lived process, else by scanning the files once (scan.go).
func (s *Service) Query(req QueryRequest) (QueryResult, error) {
	if s.Warm == nil {
		return s.scanQuery(req)
	}
	files, err := s.Load()
	if err != nil {
		return QueryResult{}, err
	}
	c := s.Warm.Catalog(files)
	c.JudgeWith(s.Cfg, func() rules.Repo {
		return s.Warm.Repo(context.Background(), strconv.Itoa(s.Cfg.HistoryDepth), func() rules.Repo { return s.ReferenceRepo(context.Background()) })
	})
	return c.Query(req)
}

// ReferenceRepo is Repo for a reader that goes on without it: nil when no
// reference rule is on, or when the repository cannot be opened (the rules
// then stay silent; never a failed query or stats).
func (s *Service) ReferenceRepo(ctx context.Context) rules.Repo {
	if !rules.ReadsRepo(s.Cfg) {
		return nil
	}
	r, err := s.Repo(ctx)
	if err != nil {
		return nil
	}
	return r
}

// Repo opens the code beside the workspace (core/repo), which the
// reference rules judge entries against. A caller that cannot open it
// checks without it: those rules then stay silent, and nothing else changes.
func (s *Service) Repo(ctx context.Context) (rules.Repo, error) {
	r, err := repo.OpenCaching(ctx, s.WS.Root, s.Cfg, s.CacheDir)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Check returns the workspace's files and every finding; the reference
// rules judge entries against repo (nil: they stay silent).
func (s *Service) Check(repo rules.Repo) ([]rules.File, []rules.Finding, error) {
	files, err := s.Load()
	if err != nil {
		return nil, nil, err
	}
	return files, rules.CheckWithRepo(files, s.Cfg, repo), nil
}

// Fix applies the safe fixes until none is left and returns the names of the
// files it rewrote; the reference rules judge entries against repo (nil:
// they stay silent, and fix nothing).
func (s *Service) Fix(ctx context.Context, repo rules.Repo) ([]string, error) {
	var changed []string
	_, err := s.WS.Update(ctx, func(snap *store.Snapshot) ([]store.Change, error) {
		changed = nil
		files := Files(snap)
		if err := RefuseTooLarge("fix", files); err != nil {
			return nil, err
		}
		after, err := FixAll(files, s.Cfg, repo, AllFiles, rules.CheckWithRepo(files, s.Cfg, repo))
		if err != nil {
			return nil, err
		}
		var changes []store.Change
		for i, f := range files {
			if b, ok := after[i]; ok {
				changes = append(changes, store.Change{Path: f.Path, Data: b})
				changed = append(changed, f.Name)
			}
		}
		return changes, nil
	})
	return changed, err
}

// Cleanup plans a cleanup of the workspace and, with apply, carries it out.
// The plan is made in full, and handed to show (when non-nil) to be shown,
// before anything is written: a plan that fails, or a process killed while
// it plans, leaves every file as it was. Show runs without the lock (a
// person may page through a long diff). The plan is then written under the
// lock only if the files are still exactly those it was made from;
// otherwise nothing is written and the error says to run it again.
func (s *Service) Cleanup(ctx context.Context, opts CleanupOptions, apply bool, show func(*CleanupPlan, []rules.File) error) (*CleanupPlan, []rules.File, error) {
	files, err := s.Load()
	if err != nil {
		return nil, nil, err
	}
	if err := RefuseTooLarge("clean up", files); err != nil {
		return nil, nil, err
	}
	plan := PlanCleanup(files, s.Cfg, opts)
	if err := RefuseGrown("clean up", files, plan.After); err != nil {
		return nil, nil, err
	}
	if show != nil {
		if err := show(plan, files); err != nil {
			return plan, files, err
		}
	}
	if !apply || len(plan.After) == 0 {
		return plan, files, nil
	}
	_, err = s.WS.Update(ctx, func(snap *store.Snapshot) ([]store.Change, error) {
		now := Files(snap)
		if !sameFiles(files, now) {
			return nil, errors.New("the memory files changed after the cleanup plan was made; nothing was written; run the cleanup again to see the new plan")
		}
		var changes []store.Change
		for i, f := range files {
			if after, ok := plan.After[i]; ok {
				changes = append(changes, store.Change{Path: f.Path, Data: after})
			}
		}
		return changes, nil
	})
	return plan, files, err
}

// sameFiles reports whether two readings of a workspace hold the same
// files with the same bytes.
func sameFiles(a, b []rules.File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].TooLarge() != b[i].TooLarge() || !bytes.Equal(a[i].Doc.Src, b[i].Doc.Src) {
			return false
		}
	}
	return true
}

// Init creates the missing category files and, when no block from HackLM or
// from us is there yet, a pointer block in .github/copilot-instructions.md;
// opts adds blocks in AGENTS.md and CLAUDE.md (pointers.go). It returns the
// paths it created or changed.
func (s *Service) Init(ctx context.Context, opts InitOptions) ([]string, error) {
	// Checked before anything is created, so that a refusal writes nothing.
	pointers, err := s.pointerFiles(opts)
	if err != nil {
		return nil, err
	}
	var created []string
	_, err = s.WS.Update(ctx, func(snap *store.Snapshot) ([]store.Change, error) {
		created = nil
		var changes []store.Change
		for _, c := range category.All {
			if f := snap.Category(c); f == nil || !f.Exists {
				p := filepath.Join(s.WS.Dir, c.File())
				changes = append(changes, store.Change{Path: p, Data: store.NewFileBytes(c)})
				created = append(created, p)
			}
		}
		return changes, nil
	})
	if err != nil {
		return nil, err
	}
	wrote, err := s.writePointers(pointers)
	created = append(created, wrote...)
	if err != nil {
		return created, err
	}
	ignored, err := store.IgnoreLock(s.WS.Root)
	if ignored != "" {
		created = append(created, ignored)
	}
	return created, err
}
