package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// maxStdin bounds content read from standard input: far above any sensible
// entry, low enough that a mistaken pipe cannot exhaust memory.
const maxStdin = 1 << 20

// readService is the service of a command that reads memory (list, query,
// cleanup): every one of them says the same when the project has no
// .memory folder yet, as check does.
func (e *env) readService() (*memory.Service, error) {
	svc, err := e.service()
	if err != nil {
		return nil, err
	}
	if !store.IsDir(svc.WS.Dir) {
		return nil, noMemoryError(svc.WS.Root)
	}
	return svc, nil
}

// noMemoryError is the one message for a project without .memory.
func noMemoryError(root string) error {
	return fmt.Errorf("no %s folder in %s or any folder above it (run `memory-lsp init` to create one, or `memory-lsp store` to store a first memory)", store.DirName, display(root))
}

func runStore(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	if !a.set["category"] {
		return exitError, usagef("--category is required (Instruction, Quirk, Preference, Decision or Security)")
	}
	if len(a.pos) == 0 {
		return exitError, usagef("CONTENT is missing (use - to read it from standard input)")
	}
	content := joinArgs(a.pos)
	if len(a.pos) == 1 && a.pos[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, maxStdin+1))
		if err != nil {
			return exitError, fmt.Errorf("reading content from standard input: %w", err)
		}
		if len(b) > maxStdin {
			return exitFindings, &memory.InputError{Field: "content", Problem: "standard input is over 1 MiB; a memory entry is one concise sentence"}
		}
		// One trailing newline is how shells and editors end text; any other
		// line break is refused by validation.
		content = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	svc, err := e.service()
	if err != nil {
		return exitError, err
	}
	_, statErr := store.Stat(svc.WS.Dir)
	res, err := svc.Store(ctx, memory.StoreRequest{Category: a.str("category"), Content: content, Slug: a.str("slug")}, a.set["dry-run"])
	if err != nil {
		return exitError, err
	}
	if errors.Is(statErr, fs.ErrNotExist) && store.Exists(svc.WS.Dir) {
		// The first memory of this project: say where it went, on stderr,
		// so that stdout stays HackLM's sentence.
		fmt.Fprintf(e.stderr, "memory-lsp: created %s (the first memory of this project)\n", display(svc.WS.Dir))
	}
	if e.json {
		writeJSON(e.stdout, struct {
			memory.StoreResult
			DryRun bool `json:"dryRun"`
		}{res, a.set["dry-run"]})
		return exitOK, nil
	}
	msg := res.Message
	if a.set["dry-run"] {
		msg = "Dry run, nothing written. " + msg
	}
	fmt.Fprintln(e.stdout, msg)
	return exitOK, nil
}

func runQuery(_ context.Context, e *env, a *parsedArgs) (int, error) {
	if len(a.pos) == 0 {
		return exitError, usagef("QUERY is missing")
	}
	limit, err := a.int("limit")
	if err != nil {
		return exitError, err
	}
	svc, err := e.readService()
	if err != nil {
		return exitError, err
	}
	queryGC()
	res, err := svc.Query(memory.QueryRequest{Query: joinArgs(a.pos), Category: a.str("category"), Limit: limit})
	if err != nil {
		return exitError, err
	}
	if e.json {
		res.Results = nonNil(res.Results)
		writeJSON(e.stdout, res)
		return exitOK, nil
	}
	fmt.Fprintln(e.stdout, res.Message)
	return exitOK, nil
}

func runList(_ context.Context, e *env, a *parsedArgs) (int, error) {
	svc, err := e.readService()
	if err != nil {
		return exitError, err
	}
	files, err := svc.Load()
	if err != nil {
		return exitError, err
	}
	entries, err := memory.List(files, a.str("category"))
	if err != nil {
		return exitError, err
	}
	if e.json {
		// Who wrote each entry's text, where the provenance log knows.
		prov, err := memory.ReadProvenance(svc.WS.Dir)
		if err != nil {
			return exitError, err
		}
		type listed struct {
			memory.CatalogEntry
			WrittenBy *memory.Provenance `json:"writtenBy,omitempty"`
		}
		out := make([]listed, len(entries))
		for i, ce := range entries {
			out[i].CatalogEntry = ce
			if p, ok := prov[[2]string{ce.File, ce.Content}]; ok {
				out[i].WrittenBy = &p
			}
		}
		writeJSON(e.stdout, map[string]any{"entries": out})
		return exitOK, nil
	}
	// Aligned columns under a header; the score is HackLM's pruning score
	// (the lowest go first when a category is over its limit).
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	if len(entries) > 0 {
		fmt.Fprintln(tw, "place\tcategory\tprune score\tentry")
	}
	for _, ce := range entries {
		slug := ""
		if ce.Slug != "" {
			slug = "[" + ce.Slug + "] "
		}
		// Printable: a hand edit may hold terminal escapes, which would
		// hide or rewrite what the reader sees.
		fmt.Fprintf(tw, "%s:%d\t%s\t%d\t%s%s\n", display(ce.Path), ce.Line, ce.Category, ce.Score, memory.Printable(slug), memory.Printable(ce.Content))
	}
	if err := tw.Flush(); err != nil {
		return exitError, err
	}
	fmt.Fprintln(e.stderr, memory.Plural(len(entries), "entry", "entries"))
	return exitOK, nil
}

func runCleanup(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	opts, err := cleanupOptions(a)
	if err != nil {
		return exitError, err
	}
	svc, err := e.readService()
	if err != nil {
		return exitError, err
	}
	apply := a.set["apply"]
	// The plan is printed before anything is written (Service.Cleanup).
	var show func(*memory.CleanupPlan, []rules.File) error
	if !e.json {
		show = func(plan *memory.CleanupPlan, files []rules.File) error {
			_, err := io.WriteString(e.stdout, plan.Report(files, "--accept KIND"))
			return err
		}
	}
	plan, files, err := svc.Cleanup(ctx, opts, apply, show)
	if err != nil {
		return exitError, err
	}
	if e.json {
		writeJSON(e.stdout, map[string]any{"applied": apply && len(plan.After) > 0, "steps": nonNil(plan.Steps),
			"suggestions": nonNil(plan.Suggestions), "diff": plan.Diff(files),
			"entriesBefore": plan.EntriesBefore, "entriesAfter": plan.EntriesAfter})
		return exitOK, nil
	}
	if o := plan.Outcome(apply, "run `"+applyCommand(a)+"` to apply this plan"); o != "" {
		fmt.Fprintln(e.stdout, "\n"+o)
	}
	return exitOK, nil
}

// applyCommand is the cleanup command that applies the plan just shown:
// the same root, settings and accepted kinds, with --apply (a plan made
// under --config with another limit is not the default settings' plan).
func applyCommand(a *parsedArgs) string {
	cmd := "memory-lsp cleanup --apply"
	for _, f := range []string{"root", "config", "accept"} {
		if v, ok := a.values[f]; ok && a.set[f] {
			cmd += " --" + f + " " + shellQuote(v)
		}
	}
	return cmd
}

// cleanupOptions reads --accept: a comma-separated list of suggestion
// kinds, or "all" (every kind whose suggestion changes something).
func cleanupOptions(a *parsedArgs) (memory.CleanupOptions, error) {
	opts := memory.CleanupOptions{Accept: map[string]bool{}}
	if !a.set["accept"] {
		return opts, nil
	}
	for _, k := range strings.Split(a.str("accept"), ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "all":
			for _, kind := range memory.SuggestionKinds {
				opts.Accept[kind] = true
			}
		case slices.Contains(memory.SuggestionKinds, k):
			opts.Accept[k] = true
		default:
			return opts, usagef("--accept takes %s or all, got %q", strings.Join(memory.SuggestionKinds, ", "), k)
		}
	}
	return opts, nil
}

// initFlags are init's options, all off by default: the pointer files
// beyond the copilot one, and the git merge driver (merge.go).
func initFlags() []flagSpec {
	return []flagSpec{
		{name: "git", boolean: true, help: "register the merge driver for .memory/*.md: .gitattributes and the local git config"},
		{name: "agents-md", boolean: true, help: "keep a pointer block in AGENTS.md"},
		{name: "claude-md", boolean: true, help: "keep a pointer block in CLAUDE.md"},
	}
}

func runInit(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	svc, err := e.service()
	if err != nil {
		return exitError, err
	}
	var repo *gitRepo
	if a.set["git"] {
		// before anything is written, so that a refusal writes nothing
		if repo, err = findGit(ctx, svc.WS.Root); err != nil {
			return exitError, err
		}
	}
	created, err := svc.Init(ctx, memory.InitOptions{AgentsMD: a.set["agents-md"], ClaudeMD: a.set["claude-md"]})
	if err != nil {
		return exitError, err
	}
	var git *gitSetup
	if repo != nil {
		if git, err = repo.register(ctx); err != nil {
			return exitError, err
		}
	}
	if e.json {
		out := map[string]any{"created": nonNil(created)}
		if git != nil {
			out["git"] = git
		}
		writeJSON(e.stdout, out)
		return exitOK, nil
	}
	if len(created) == 0 && (git == nil || !git.changed()) {
		fmt.Fprintln(e.stdout, "Nothing to do: every category file and an agent pointer block already exist.")
	}
	for _, p := range created {
		verb := "wrote" // a pointer file: created, or a block added or refreshed
		switch {
		case filepath.Dir(p) == svc.WS.Dir:
			verb = "created" // category files are only ever created
		case filepath.Base(p) == ".gitignore":
			fmt.Fprintf(e.stdout, "added .memory/.lock to %s (HackLM's lock file is never committed)\n", display(p))
			continue
		}
		fmt.Fprintf(e.stdout, "%s %s\n", verb, display(p))
	}
	if git != nil {
		git.print(e)
	}
	return exitOK, nil
}
