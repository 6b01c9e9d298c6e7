package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

func init() {
	onRequest("workspace/executeCommand", (*Server).executeCommand)
}

type commandFunc func(s *Server, ctx context.Context, name string, args json.RawMessage) (any, error)

// commandIDs are the advertised commands, namespaced because
// vscode-languageclient registers each as a global VS Code command.
var commandIDs = []string{
	"memory.storeMemory",
	"memory.queryMemory",
	"memory.listMemories",
	"memory.deleteMemory",
	"memory.assignSlugs",
	"memory.cleanup",
	"memory.stats",
	cmdKeepBoth,
	cmdReview,
}

var commands = map[string]commandFunc{
	"memory.storeMemory":  (*Server).cmdStore,
	"memory.queryMemory":  (*Server).cmdQuery,
	"memory.listMemories": (*Server).cmdList,
	"memory.deleteMemory": (*Server).cmdDelete,
	"memory.assignSlugs":  (*Server).cmdAssignSlugs,
	"memory.cleanup":      (*Server).cmdCleanup,
	"memory.stats":        (*Server).cmdStats,
	cmdKeepBoth:           (*Server).cmdKeepBoth,
	cmdReview:             (*Server).cmdReview,
	// HackLM's tool names, accepted so agents' habits work; not advertised.
	"storeMemory": (*Server).cmdStore,
	"queryMemory": (*Server).cmdQuery,
}

// executeCommandParams: arguments are kept raw and decoded per command.
type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

func (s *Server) executeCommand(ctx context.Context, p *executeCommandParams) (any, error) {
	fn, ok := commands[p.Command]
	if !ok {
		return nil, errorf(codeInvalidParams, "unknown command %q; the commands are %s", p.Command, strings.Join(commandIDs, ", "))
	}
	if len(p.Arguments) > 1 {
		return nil, errorf(codeInvalidParams, "%s: expects one JSON object as its argument, got %d arguments", p.Command, len(p.Arguments))
	}
	var arg json.RawMessage
	if len(p.Arguments) == 1 {
		arg = p.Arguments[0]
	}
	res, err := fn(s, ctx, p.Command, arg)
	if err != nil {
		return nil, commandError(p.Command, err)
	}
	return res, nil
}

// commandError names the command, and the bad field for refused input.
func commandError(name string, err error) error {
	var rpc *Error
	var in *memory.InputError
	switch {
	case errors.As(err, &rpc):
		return err
	case errors.As(err, &in):
		return errorf(codeInvalidParams, "%s: %s: %s", name, in.Field, in.Problem)
	case errors.Is(err, context.Canceled):
		return err
	}
	return errorf(codeRequestFailed, "%s: %v", name, err)
}

// rootArg is accepted by every command: which workspace to act on.
type rootArg struct {
	Root string `json:"root,omitempty"`
}

func (r *rootArg) rootArgument() string { return r.Root }

// argsAndRoot decodes a command's argument object into a (whose type embeds
// rootArg) and resolves the workspace it names.
func argsAndRoot[A interface{ rootArgument() string }](s *Server, raw json.RawMessage, a A) (string, error) {
	if err := memory.DecodeArgs(raw, a); err != nil {
		return "", err
	}
	return s.commandRoot(a.rootArgument())
}

func (s *Server) config() config.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

// --- store, query, list ---------------------------------------------------

func (s *Server) cmdStore(ctx context.Context, _ string, raw json.RawMessage) (any, error) {
	var a struct {
		memory.StoreRequest
		rootArg
	}
	root, err := argsAndRoot(s, raw, &a)
	if err != nil {
		return nil, err
	}
	cfg, err := memory.ProjectReview(s.config(), memory.Dir(root))
	if err != nil {
		return nil, err
	}
	sc, err := memory.Screen(a.StoreRequest, cfg)
	if err != nil {
		return nil, err
	}
	st := sc.Store
	var res memory.StoreResult
	plan := memory.StorePlan(memory.Dir(root), sc, s.writer(), &res)
	rep, err := s.writeReading(ctx, root, "Store memory", []string{st.Category.File(), memory.HeldQueue}, plan)
	if err != nil {
		return nil, err
	}
	if res.Held != nil {
		s.noteHeld(root, res.Held.ID) // the reply tells of it
	}
	res.Message += rep.problems()
	s.showInfo(res.Message)
	return storeReply{StoreResult: res, writeReport: rep}, nil
}

// storeReply is HackLM's store result and where the write landed.
type storeReply struct {
	memory.StoreResult
	*writeReport
}

func (s *Server) cmdQuery(_ context.Context, _ string, raw json.RawMessage) (any, error) {
	var a struct {
		memory.QueryRequest
		rootArg
	}
	root, err := argsAndRoot(s, raw, &a)
	if err != nil {
		return nil, err
	}
	files, cfg := s.readFiles(root)
	f := s.folderFor(memory.Dir(root))
	c := f.catalog.Catalog(files)
	c.JudgeWith(cfg, func() rules.Repo { return s.repoOf(f, cfg).repo })
	res, err := c.Query(a.QueryRequest)
	if err != nil {
		return nil, err
	}
	if res.Results == nil {
		res.Results = []memory.QueryHit{}
	}
	return res, nil
}

type listResult struct {
	Message string                `json:"message"`
	Entries []memory.CatalogEntry `json:"entries"`
}

func (s *Server) cmdList(_ context.Context, _ string, raw json.RawMessage) (any, error) {
	var a struct {
		Category string `json:"category,omitempty"`
		rootArg
	}
	if err := memory.DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	root, err := s.commandRoot(a.Root)
	if err != nil {
		return nil, err
	}
	files, _ := s.readFiles(root)
	entries, err := memory.List(files, a.Category)
	if err != nil {
		return nil, err
	}
	return listResult{Entries: entries, Message: memory.ListMessage(entries)}, nil
}

// --- delete ---------------------------------------------------------------

type deleteResult struct {
	Message string          `json:"message"`
	Deleted memory.EntryRef `json:"deleted"`
	*writeReport
}

func (s *Server) cmdDelete(ctx context.Context, _ string, raw json.RawMessage) (any, error) {
	var a struct {
		memory.DeleteRequest
		rootArg
	}
	if err := memory.DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	target, err := memory.ValidateDelete(a.DeleteRequest)
	if err != nil {
		return nil, err
	}
	root, err := s.commandRoot(a.Root)
	if err != nil {
		return nil, err
	}
	var res deleteResult
	rep, err := s.write(ctx, root, "Delete memory", func(v memory.View, _ config.Config) ([]memory.Change, error) {
		plan, err := memory.PlanDelete(v.Files, target)
		if err != nil {
			return nil, err
		}
		res.Deleted, res.Message = plan.Deleted, plan.Message
		return []memory.Change{{Path: plan.Path, Data: plan.After}}, nil
	})
	if err != nil {
		return nil, err
	}
	res.writeReport = rep
	res.Message += rep.problems()
	s.showInfo(res.Message)
	return res, nil
}

// --- assign slugs ---------------------------------------------------------

type assignResult struct {
	Message  string            `json:"message"`
	Assigned []memory.EntryRef `json:"assigned"`
	Files    []string          `json:"files"`
	*writeReport
}

func (s *Server) cmdAssignSlugs(ctx context.Context, _ string, raw json.RawMessage) (any, error) {
	var a struct {
		URI string `json:"uri,omitempty"`
		rootArg
	}
	if err := memory.DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	only := ""
	var root string
	var err error
	if a.URI != "" {
		if only, root, err = s.commandFile("uri", a.URI); err != nil {
			return nil, err
		}
	} else if root, err = s.commandRoot(a.Root); err != nil {
		return nil, err
	}
	var res assignResult
	rep, err := s.write(ctx, root, "Assign slugs", func(v memory.View, cfg config.Config) ([]memory.Change, error) {
		plan, err := memory.PlanAssignSlugs(v.Files, cfg, only)
		if err != nil {
			return nil, err
		}
		res = assignResult{Assigned: plan.Assigned, Files: plan.Files, Message: plan.Message}
		return memory.Rewrites(v.Files, plan.After), nil
	})
	if err != nil {
		return nil, err
	}
	if res.Assigned == nil {
		res.Assigned = []memory.EntryRef{}
	}
	if res.Files == nil {
		res.Files = []string{}
	}
	res.writeReport = rep
	res.Message += rep.problems()
	s.showInfo(res.Message)
	return res, nil
}

// --- cleanup --------------------------------------------------------------

type cleanupResult struct {
	Message       string               `json:"message"`
	Applied       bool                 `json:"applied"`
	Steps         []memory.CleanupStep `json:"steps"`
	Suggestions   []memory.Suggestion  `json:"suggestions"`
	Diff          string               `json:"diff"`
	EntriesBefore int                  `json:"entriesBefore"`
	EntriesAfter  int                  `json:"entriesAfter"`
	*writeReport
}

func (s *Server) cmdCleanup(ctx context.Context, _ string, raw json.RawMessage) (any, error) {
	var a struct {
		Apply  bool     `json:"apply,omitempty"`
		Accept []string `json:"accept,omitempty"`
		rootArg
	}
	root, err := argsAndRoot(s, raw, &a)
	if err != nil {
		return nil, err
	}
	opts := memory.CleanupOptions{Accept: map[string]bool{}}
	for _, k := range a.Accept {
		if !slices.Contains(memory.SuggestionKinds, k) {
			return nil, fmt.Errorf("accept: %q is no kind of pair; the kinds are %s", k, strings.Join(memory.SuggestionKinds, ", "))
		}
		opts.Accept[k] = true
	}
	// A cleanup analyses every entry afresh; the folder's checker keeps
	// another copy of those analyses between keystrokes. At tens of
	// thousands of entries the two do not fit the server's memory together,
	// so the cache is dropped (the next check rebuilds it once).
	s.dropChecker(s.folderFor(memory.Dir(root)))
	var plan *memory.CleanupPlan
	var files []rules.File
	var rep *writeReport
	if a.Apply {
		rep, err = s.write(ctx, root, "Clean up memory", func(v memory.View, cfg config.Config) ([]memory.Change, error) {
			fs := v.Files
			if err := memory.RefuseTooLarge("clean up", fs); err != nil {
				return nil, err
			}
			plan, files = memory.PlanCleanup(fs, cfg, opts), fs
			if err := memory.RefuseGrown("clean up", fs, plan.After); err != nil {
				return nil, err
			}
			return memory.Rewrites(fs, plan.After), nil
		})
		if err != nil {
			return nil, err
		}
	} else {
		fs, cfg := s.readFiles(root)
		if err := memory.RefuseTooLarge("clean up", fs); err != nil {
			return nil, err
		}
		files = fs
		plan = memory.PlanCleanup(files, cfg, opts)
		if err := memory.RefuseGrown("clean up", files, plan.After); err != nil {
			return nil, err
		}
	}
	res := cleanupResult{Applied: a.Apply && len(plan.After) > 0, Steps: plan.Steps, Suggestions: plan.Suggestions, Diff: plan.Diff(files),
		EntriesBefore: plan.EntriesBefore, EntriesAfter: plan.EntriesAfter, writeReport: rep}
	if res.Steps == nil {
		res.Steps = []memory.CleanupStep{}
	}
	if res.Suggestions == nil {
		res.Suggestions = []memory.Suggestion{}
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(plan.Summary(`{"accept": ["KIND"]}`, maxMessageSteps), "\n"))
	if o := plan.Outcome(a.Apply, `run memory.cleanup with {"apply": true} to apply it`); o != "" {
		b.WriteString("\n" + o)
	}
	if rep != nil {
		b.WriteString(rep.problems())
	}
	res.Message = b.String()
	s.showInfo(res.Message)
	return res, nil
}

// maxMessageSteps is how many cleanup steps the message (which editors show
// in a popup) lists; the result carries every one.
const maxMessageSteps = 20

// --- stats ----------------------------------------------------------------

type statsResult struct {
	Message    string                 `json:"message"`
	Categories []memory.CategoryStats `json:"categories"`
	Duplicates int                    `json:"duplicates"`
	Conflicts  int                    `json:"conflicts"`
	Siblings   int                    `json:"siblings"`
	Versions   int                    `json:"versions"`
	Stale      int                    `json:"stale"`
	Total      int                    `json:"total"`
	Budget     *memory.Budget         `json:"budget,omitempty"`
}

// cmdStats counts entries per category against its limit, and the
// duplicate (exact or near) and conflicting entries the rules find
// (memory.ComputeStats, as MCP's memoryStats), as counts.
func (s *Server) cmdStats(_ context.Context, _ string, raw json.RawMessage) (any, error) {
	var a rootArg
	root, err := argsAndRoot(s, raw, &a)
	if err != nil {
		return nil, err
	}
	files, cfg := s.readFiles(root)
	var repo rules.Repo
	if rules.ReadsRepo(cfg) {
		repo = s.repoOf(s.folderFor(memory.Dir(root)), cfg).repo
	}
	st := memory.ComputeStats(files, cfg, repo)
	st.AddBudget(cfg, files, root)
	res := statsResult{Budget: st.Budget, Categories: st.Categories, Duplicates: len(st.Duplicates), Conflicts: len(st.Conflicts), Siblings: len(st.Siblings),
		Versions: st.SlugsWithVersions(), Stale: len(st.Stale), Total: st.Total}
	res.Message = st.Message("", "")
	return res, nil
}
