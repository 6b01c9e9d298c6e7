package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// target is one workspace to check and, when the user named files, the only
// files whose findings are reported (the rest are still read: duplicate slugs
// and near-duplicates cross files).
type target struct {
	root  string
	files map[string]bool
	// agents are the agents' instruction files named (AGENTS.md, …), by
	// path on disk: their bullets are judged by the reference rules.
	agents []string
}

func resolveTargets(e *env, paths []string) ([]*target, error) {
	if len(paths) == 0 {
		return []*target{{root: e.root}}, nil
	}
	byRoot := map[string]*target{}
	var out []*target
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fi, err := store.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("checking %s: %w", p, err)
		}
		var root, file string
		switch {
		case !fi.IsDir():
			if r, ok := memory.AgentFileRoot(abs); ok {
				root, file = r, abs
				break
			}
			if root, file, err = memoryFileTarget(p, abs); err != nil {
				return nil, err
			}
		case filepath.Base(abs) == store.DirName:
			root = filepath.Dir(abs)
		default:
			if !store.IsDir(filepath.Join(abs, store.DirName)) {
				return nil, fmt.Errorf("checking %s: no %s folder there", p, store.DirName)
			}
			root = abs
		}
		t := byRoot[root]
		if t == nil {
			t = &target{root: root}
			byRoot[root] = t
			out = append(out, t)
		}
		if file != "" {
			if t.files == nil {
				t.files = map[string]bool{}
			}
			t.files[file] = true
			if filepath.Base(filepath.Dir(file)) != store.DirName && !slices.Contains(t.agents, file) {
				t.agents = append(t.agents, file)
			}
		} else {
			t.files = nil // the whole workspace was asked for
		}
	}
	return out, nil
}

// memoryFileTarget finds the workspace root of a file PATH given to check.
// check reads, and --fix writes, only memory files, so PATH must be a file
// directly inside a `.memory` folder once symlinks are resolved: ".." and
// links are followed, never trusted by name. A PATH in a `.memory` folder
// that is a symlink leading out of that folder is refused (the store would
// not read or write through it either); a PATH elsewhere that is a symlink
// to a memory file stands for that file. A directory PATH, like --root, may
// be a symlink: it names that workspace, whose .memory is the only place
// written.
func memoryFileTarget(p, abs string) (root, file string, err error) {
	if filepath.Base(filepath.Dir(abs)) == store.DirName {
		r, err := store.ResolveIn(filepath.Dir(abs), abs)
		switch {
		case err != nil && store.FailedStep(err) == store.LookingAtPath:
			// the read that follows reports it
		case err != nil:
			return "", "", fmt.Errorf("checking %s: %w", p, err)
		case !r.Inside:
			return "", "", fmt.Errorf("refusing %s: it is a symlink to %s, outside its %s folder, so it is neither checked nor fixed", p, r.Link, store.DirName)
		}
		return filepath.Dir(filepath.Dir(abs)), abs, nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", fmt.Errorf("checking %s: %w", p, err)
	}
	if filepath.Base(filepath.Dir(real)) != store.DirName {
		return "", "", usagef("%s is not a file directly inside a %s folder nor an agent's instruction file (AGENTS.md, CLAUDE.md, .cursor/rules/*.mdc …): check reads, and --fix writes, only memory files", p, store.DirName)
	}
	return filepath.Dir(filepath.Dir(real)), real, nil
}

type jsonPos struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type jsonFinding struct {
	jsonPos
	File      string        `json:"file"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Severity  string        `json:"severity"`
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related,omitempty"`
	Fixes     []jsonFix     `json:"fixes,omitempty"`
}

type jsonRelated struct {
	jsonPos
	Message string `json:"message"`
}

type jsonFix struct {
	Title string `json:"title"`
	Safe  bool   `json:"safe"`
}

type checkSummary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Hints    int `json:"hints"`
	// Held counts the writes waiting for review (memory-lsp review).
	Held int `json:"held,omitempty"`
}

// checkFormats are the values of check --format; text is the default.
var checkFormats = []string{"text", "json", "sarif", "summary"}

// checkFormat reads --format, with --json as the older spelling of
// --format json; asking for JSON and something else at once is a mistake.
func checkFormat(e *env, a *parsedArgs) (string, error) {
	if !a.set["format"] {
		if e.json {
			return "json", nil
		}
		return "text", nil
	}
	f := a.str("format")
	if !slices.Contains(checkFormats, f) {
		return "", usagef("--format must be text, json, sarif or summary, got %q", f)
	}
	if e.json && f != "json" {
		return "", usagef("--json and --format %s contradict each other", f)
	}
	// Errors from here on are reported as JSON too, as --json does.
	e.json = f == "json"
	return f, nil
}

// checked is one workspace's result: every file (rules read them all) and
// the findings to report, already narrowed to the files the user named.
type checked struct {
	root  string
	files []rules.File
	only  map[string]bool // nil: every file is reported
	// mem is how many of files are memory files; the agents' files a
	// finding names (AGENTS.md, …) follow them.
	mem      int
	findings []rules.Finding
	idx      []*text.Index
	shownAs  []string // display of each file's path, made on first use
	// artifacts are the files' SARIF locations, filled by sarifArtifact.
	artifacts []sarifArtifactLocation
	// noCode: the root holds nothing but .memory/, so the reference rules
	// had nothing to judge entries against.
	noCode bool
	// held are the writes waiting for review in the folder.
	held []memory.Held
	// written are the lines written since --since's ref (since.go).
	written []memory.Written
}

func (c *checked) reported(f rules.File) bool { return c.only == nil || c.only[f.Path] }

// index builds a file's position index on first use: most files of a
// clean workspace never need one.
func (c *checked) index(i int) *text.Index {
	if c.idx == nil {
		c.idx = make([]*text.Index, len(c.files))
	}
	if c.idx[i] == nil {
		c.idx[i] = text.NewIndex(c.files[i].Doc.Src)
	}
	return c.idx[i]
}

// shown is display(files[i].Path), made once a file: a finding's path is
// its file's, and a getcwd per finding was 14 % of a check with 10,000.
func (c *checked) shown(i int) string {
	if c.shownAs == nil {
		c.shownAs = make([]string, len(c.files))
	}
	if c.shownAs[i] == "" {
		c.shownAs[i] = display(c.files[i].Path)
	}
	return c.shownAs[i]
}

// pos is the 1-based line and 1-based UTF-16 column of a byte offset, the
// numbering of the text, JSON and SARIF outputs alike (0, 0 if the offset is
// not a position, which a rule never produces).
func (c *checked) pos(file, off int) (int, int) {
	p, err := c.index(file).Position(off)
	if err != nil {
		return 0, 0
	}
	return p.Line + 1, p.Col + 1
}

func (c *checked) count(s *checkSummary) {
	for _, f := range c.files {
		if c.reported(f) {
			s.Files++
		}
	}
	for _, f := range c.findings {
		switch f.Severity {
		case rules.Error:
			s.Errors++
		case rules.Warning:
			s.Warnings++
		case rules.Information:
			s.Infos++
		default:
			s.Hints++
		}
	}
}

func runCheck(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	format, err := checkFormat(e, a)
	if err != nil {
		return exitError, err
	}
	targets, err := resolveTargets(e, a.pos)
	if err != nil {
		return exitError, err
	}
	var (
		results []*checked
		fixed   []string
		summary checkSummary
		since   = sinceOf(a)
	)
	for _, t := range targets {
		e.root = t.root
		svc, err := e.service()
		if err != nil {
			return exitError, err
		}
		repo := openRepo(ctx, e, svc, len(t.agents) > 0)
		if a.set["fix"] {
			names, err := svc.Fix(ctx, repo)
			if err != nil {
				return exitError, err
			}
			for _, n := range names {
				fixed = append(fixed, display(filepath.Join(svc.WS.Dir, n)))
			}
			if len(names) > 0 && repo != nil {
				// The fixes moved lines of committed memory files: the
				// times they were written are read again.
				repo = openRepo(ctx, e, svc, len(t.agents) > 0)
			}
		}
		files, findings, err := svc.Check(repo)
		if err != nil {
			return exitError, err
		}
		if len(files) == 0 && len(a.pos) == 0 {
			return exitError, noMemoryError(t.root)
		}
		mem := len(files)
		// What the workspace's agents load at session start, judged on
		// their own files (AGENTS.md, CLAUDE.md …), and the reference
		// rules on the bullets of the agents' files named, which follow
		// the memory files.
		extra, agentFindings, err := memory.AgentFileFindings(svc.WS.Root, svc.Cfg, files, memory.AgentFiles{
			Named: t.agents, Repo: repo,
			Read: func(p string) ([]byte, error) {
				// Read as the budgets read it: a regular file inside the
				// root (never a pipe someone named AGENTS.md), its head
				// when huge.
				rel, _ := filepath.Rel(svc.WS.Root, p)
				data, ok := store.Tree{Root: svc.WS.Root}.ReadFile(filepath.ToSlash(rel))
				if !ok {
					return nil, fmt.Errorf("checking %s: not a regular file inside %s, or not readable", display(p), display(svc.WS.Root))
				}
				return data, nil
			},
		})
		if err != nil {
			return exitError, err
		}
		files = append(files, extra...)
		findings = append(findings, agentFindings...)
		findings = rules.Sorted(findings)
		c := &checked{root: svc.WS.Root, files: files, mem: mem, only: t.files, noCode: repo != nil && !repo.HasCode()}
		for _, f := range findings {
			if c.reported(files[f.File]) {
				c.findings = append(c.findings, f)
			}
		}
		if since.ref != "" {
			if err := since.read(ctx, svc, c); err != nil {
				return exitError, err
			}
		}
		if c.held, _, err = svc.Held(); err != nil {
			return exitError, err
		}
		summary.Held += len(c.held)
		c.count(&summary)
		results = append(results, c)
	}
	if format != "json" {
		// Text-like outputs keep stdout for findings; what --fix rewrote is
		// a side note (JSON carries it in the document instead).
		for _, f := range fixed {
			fmt.Fprintf(e.stderr, "fixed %s\n", f)
		}
	}
	switch format {
	case "json":
		var out []jsonFinding
		for _, c := range results {
			for _, f := range c.findings {
				out = append(out, toJSON(c, f))
			}
		}
		doc := map[string]any{"findings": nonNil(out), "fixed": nonNil(fixed), "summary": summary}
		if since.ref != "" {
			doc["since"] = since.json(results)
		}
		writeJSON(e.stdout, doc)
	case "sarif":
		if err := writeSARIF(e.stdout, results, since); err != nil {
			return exitError, err
		}
	case "summary":
		if err := writeSummary(e.stdout, results, e.cfg, since); err != nil {
			return exitError, err
		}
	default:
		for _, c := range results {
			for _, f := range c.findings {
				fmt.Fprintln(e.stdout, rules.FormatText(c.shown(f.File), c.index(f.File), f))
				writeFixes(e.stdout, f)
			}
		}
		since.writeText(e.stdout, results)
		// The same closing sentence as --format summary.
		fmt.Fprintln(e.stderr, summarize(results, e.cfg).line())
		if since.ref != "" {
			fmt.Fprintln(e.stderr, since.line(results))
		}
		for _, n := range noCodeNotes(results) {
			fmt.Fprintln(e.stderr, n)
		}
		for _, n := range heldNotes(results) {
			fmt.Fprintln(e.stderr, n)
		}
	}
	if summary.Errors > 0 {
		return exitFindings, nil
	}
	return exitOK, nil
}

// openRepo opens the code beside the workspace, which the reference rules
// judge entries against. With those rules switched off, or without a
// .memory folder, there is nothing to judge, and nothing to say about the
// code (nil: no note follows); a project that cannot be listed leaves those
// rules silent, and check goes on and says why.
func openRepo(ctx context.Context, e *env, svc *memory.Service, agentFiles bool) rules.Repo {
	if !rules.ReadsRepo(svc.Cfg) || !store.IsDir(svc.WS.Dir) && !agentFiles {
		return nil
	}
	repo, err := svc.Repo(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "memory-lsp: references to code (paths, commands, versions) were not checked: %v\n", err)
		return nil
	}
	return repo
}

// heldNotes say, per workspace that has writes waiting for review, how
// many and how to see them: a held write is not memory yet, and not a
// finding, but someone has to decide it.
func heldNotes(results []*checked) []string {
	var out []string
	for _, c := range results {
		if len(c.held) == 0 {
			continue
		}
		where := ""
		if len(results) > 1 {
			where = " in " + display(c.root)
		}
		out = append(out, fmt.Sprintf("memory: %s held for review%s (memory-lsp review lists %s)", memory.Plural(len(c.held), "write", "writes"), where, map[bool]string{true: "it", false: "them"}[len(c.held) == 1]))
	}
	return out
}

// noCodeNotes say, once per workspace whose root holds nothing but
// .memory/, that the references entries make to code were not checked: a
// clean result there does not mean they hold.
func noCodeNotes(results []*checked) []string {
	var out []string
	for _, c := range results {
		if !c.noCode {
			continue
		}
		where := "the workspace holds nothing but .memory/"
		if len(results) > 1 {
			where = display(c.root) + " holds nothing but .memory/"
		}
		out = append(out, "memory: references to code (paths, commands, versions) were not checked: "+where)
	}
	return out
}

// writeFixes lists under a finding the fixes an editor offers for it,
// indented so that tools reading path:line:col: lines skip them; the safe
// ones are those check --fix applies.
func writeFixes(w io.Writer, f rules.Finding) {
	for _, fx := range f.Fixes {
		switch {
		case fx.KeepBoth:
			fmt.Fprintf(w, "    fix: %s (in an editor: stops reporting the pair)\n", fx.Title)
		case fx.Safe:
			fmt.Fprintf(w, "    fix: %s (check --fix applies it)\n", fx.Title)
		default:
			fmt.Fprintf(w, "    fix: %s\n", fx.Title)
		}
	}
}

func toJSON(c *checked, f rules.Finding) jsonFinding {
	file := c.files[f.File]
	l, col := c.pos(f.File, f.Span.Start)
	el, ec := c.pos(f.File, f.Span.End)
	jf := jsonFinding{jsonPos: jsonPos{Path: c.shown(f.File), Line: l, Column: col}, File: file.Name, EndLine: el, EndColumn: ec,
		Severity: f.Severity.String(), Code: f.Code, Message: f.Message}
	for _, r := range f.Related {
		rl, rc := c.pos(r.File, r.Span.Start)
		jf.Related = append(jf.Related, jsonRelated{jsonPos: jsonPos{Path: c.shown(r.File), Line: rl, Column: rc}, Message: r.Message})
	}
	for _, fx := range f.Fixes {
		jf.Fixes = append(jf.Fixes, jsonFix{Title: fx.Title, Safe: fx.Safe})
	}
	return jf
}

// display shows a path relative to the current directory when it is below it.
func display(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, ok := store.RelativePath(wd, p); ok {
		return rel
	}
	return p
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// nonNil makes empty lists print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
