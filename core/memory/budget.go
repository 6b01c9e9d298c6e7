package memory

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/budget"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// WithAgents is cfg with the agents whose load budgets are judged: those
// the `agents` setting names or, when it is not set, those whose files the
// workspace at root holds (budget.Detect). Every front end calls it where it
// builds a workspace's configuration, so that check, the editor and the MCP
// server judge the same agents.
func WithAgents(cfg config.Config, root string) config.Config {
	if cfg.Agents != nil {
		return cfg
	}
	ids := []string{}
	for _, a := range budget.Detect(store.Tree{Root: root}) {
		ids = append(ids, a.ID)
	}
	cfg.Agents = ids
	return cfg
}

// AgentLoads are what each agent in cfg.Agents loads at the start of a
// session opened at root.
func AgentLoads(cfg config.Config, root string) []budget.Load {
	return agentLoads(cfg, budget.Once(store.Tree{Root: root}))
}

func agentLoads(cfg config.Config, r budget.Reader) []budget.Load {
	var out []budget.Load
	for _, id := range cfg.Agents {
		if a := budget.ByID(id); a != nil {
			out = append(out, budget.LoadAt(a, r))
		}
	}
	return out
}

// AgentFiles are the agents' instruction files a front end holds beside a
// check of the memory files: Named, by path on disk, whose bullets the
// reference rules judge against Repo (check's PATH arguments, the editor's
// open buffers), read through Read, which also stands in for the disk where
// the budgets read them (an editor's buffer as it is typed).
type AgentFiles struct {
	Named []string
	// Read is a named file's text; its error is the front end's own
	// wording of why not.
	Read func(path string) ([]byte, error)
	Repo rules.Repo
}

// AgentFileFindings are the findings that read the agents' own files
// beside `.memory/`, each read once: load-budget on what agents load at
// session start — on a memory file an agent imports, otherwise on
// the agent's file —, cross-file on the entries that contradict a line
// of the team's instruction files, and the reference rules on the bullets
// of the named agents' files. The agents' files a finding names, and the
// named ones, come back in extra; a finding's File indexes files followed
// by extra.
func AgentFileFindings(root string, cfg config.Config, files []rules.File, named AgentFiles) (extra []rules.File, findings []rules.Finding, err error) {
	texts := make([][]byte, len(named.Named))
	var reader budget.Reader = store.Tree{Root: root}
	if len(named.Named) > 0 {
		o := &overlay{Reader: reader, files: map[string][]byte{}}
		for i, p := range named.Named {
			if texts[i], err = named.Read(p); err != nil {
				return nil, nil, err
			}
			if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
				o.files[filepath.ToSlash(rel)] = texts[i]
			}
		}
		reader = o
	}
	extra, findings = agentFileFindings(root, cfg, files, budget.Once(reader))
	// The named files: the reference rules on their bullets, as they are
	// in hand (the same bytes the budgets read).
	for i, p := range named.Named {
		k := slices.IndexFunc(extra, func(f rules.File) bool { return f.Path == p })
		if k < 0 {
			k = len(extra)
			extra = append(extra, rules.NewFile(p, texts[i]))
		}
		for _, fd := range rules.ReferencesIn(extra[k], named.Repo, cfg) {
			fd.File = len(files) + k
			findings = append(findings, fd)
		}
	}
	return extra, rules.Sorted(findings), nil
}

// overlay is a workspace's files with some read from elsewhere (the
// editor's buffers), by slash path from the root.
type overlay struct {
	budget.Reader
	files map[string][]byte
}

func (o *overlay) ReadFile(p string) ([]byte, bool) {
	if b, ok := o.files[p]; ok {
		return b, true
	}
	return o.Reader.ReadFile(p)
}

// List adds the files held that the disk lacks: a buffer not saved yet.
func (o *overlay) List(dir string) []string {
	names := o.Reader.List(dir)
	for p := range o.files {
		if d, name := path.Split(p); strings.TrimSuffix(d, "/") == dir && !slices.Contains(names, name) {
			names = append(slices.Clip(names), name)
		}
	}
	slices.Sort(names)
	return names
}

func agentFileFindings(root string, cfg config.Config, files []rules.File, tree budget.Reader) (extra []rules.File, findings []rules.Finding) {
	loads := agentLoads(cfg, tree)
	// The rules name the agents' files by their path from root; check
	// shows them by their path on disk.
	index := map[string]int{}
	var rel []rules.File
	for i, f := range files {
		if r, err := filepath.Rel(root, f.Path); err == nil {
			index[filepath.ToSlash(r)] = i
		}
	}
	add := func(p string, src []byte) int {
		if i, ok := index[p]; ok {
			return i
		}
		i := len(files) + len(extra)
		index[p] = i
		extra = append(extra, rules.NewFile(filepath.Join(root, filepath.FromSlash(p)), src))
		rel = append(rel, rules.NewFile(p, src))
		return i
	}
	var uses []budget.Use
	for _, l := range loads {
		for _, u := range l.Uses {
			m := u.Over
			if m == nil {
				m = u.Near
			}
			if m == nil || u.Severity() < 0 {
				continue
			}
			for _, f := range l.Files {
				if f.Path == m.Path {
					add(f.Path, f.Src)
					uses = append(uses, u)
					break
				}
			}
		}
	}
	var instr []budget.File
	if rules.CrossFileOn(cfg) {
		instr = budget.InstructionFiles(tree)
	}
	for _, f := range instr {
		add(f.Path, f.Src)
	}
	byRel := make([]rules.File, len(files), len(files)+len(rel))
	for i, f := range files {
		byRel[i] = f
		if r, err := filepath.Rel(root, f.Path); err == nil {
			byRel[i].Path = filepath.ToSlash(r)
		}
	}
	byRel = append(byRel, rel...)
	findings = rules.LoadBudget(uses, byRel, cfg)
	// cross-file: the memory files against the instruction files.
	var others []rules.File
	for _, f := range instr {
		others = append(others, byRel[index[f.Path]])
	}
	cross := rules.CrossFile(files, others, cfg)
	for k := range cross {
		// CrossFile numbers the others after files, in instr's order.
		for r := range cross[k].Related {
			if o := cross[k].Related[r].File - len(files); o >= 0 && o < len(instr) {
				cross[k].Related[r].File = index[instr[o].Path]
			}
		}
	}
	findings = append(findings, cross...)
	// Only the agents' files a finding names come back.
	keep := map[int]int{}
	var kept []rules.File
	for _, fd := range findings {
		for _, fi := range append([]int{fd.File}, relatedFiles(fd)...) {
			if k := fi - len(files); k >= 0 {
				if _, ok := keep[fi]; !ok {
					keep[fi] = len(files) + len(kept)
					kept = append(kept, extra[k])
				}
			}
		}
	}
	for i := range findings {
		if to, ok := keep[findings[i].File]; ok {
			findings[i].File = to
		}
		for r := range findings[i].Related {
			if to, ok := keep[findings[i].Related[r].File]; ok {
				findings[i].Related[r].File = to
			}
		}
	}
	return kept, rules.Sorted(findings)
}

func relatedFiles(fd rules.Finding) []int {
	out := make([]int, len(fd.Related))
	for i, r := range fd.Related {
		out[i] = r.File
	}
	return out
}

// Budget is what each agent the workspace uses pays for its memory: what
// it loads at session start, against its limits, and each category file
// against the file tool an agent reads it with.
type Budget struct {
	Agents []AgentBudget `json:"agents"`
	Memory []FileBudget  `json:"memory"`
}

// AgentBudget is one agent's session start.
type AgentBudget struct {
	Agent  string       `json:"agent"`
	Name   string       `json:"name"`
	Files  []FileSize   `json:"files"`
	Total  budget.Size  `json:"total"`
	Limits []LimitStand `json:"limits"`
	Source string       `json:"source"`
}

// FileSize is one file's size, by its path from the workspace root.
type FileSize struct {
	Path string      `json:"path"`
	Size budget.Size `json:"size"`
	// ImportedBy is the file whose `@path` import loads it.
	ImportedBy string `json:"importedBy,omitempty"`
}

// FileBudget is a category file against the agents' file tools.
type FileBudget struct {
	FileSize
	Limits []LimitStand `json:"limits"`
}

// LimitStand is one limit against what it measures.
type LimitStand struct {
	Agent string `json:"agent"`
	What  string `json:"what"`
	Max   int    `json:"max"`
	Unit  string `json:"unit"`
	unit  budget.Unit
	Used  int `json:"used"`
	// Percent is Used against Max, rounded down.
	Percent int `json:"percent"`
	// Path is the file judged ("" for every file the agent loads at
	// start, judged together).
	Path string `json:"path,omitempty"`
	// Cut is where the agent stops: the 1-based line and how many lines
	// it drops from there; nil within the limit.
	Cut     *CutLine `json:"cut,omitempty"`
	Message string   `json:"message,omitempty"`
	Source  string   `json:"source"`
	Checked string   `json:"checked"`
}

// CutLine is where an agent stops reading.
type CutLine struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Dropped int    `json:"dropped"`
}

// ComputeBudget is the budget of the memory files and of loads (AgentLoads)
// for the agents in cfg.Agents.
func ComputeBudget(cfg config.Config, files []rules.File, loads []budget.Load) Budget {
	b := Budget{Agents: []AgentBudget{}, Memory: []FileBudget{}}
	for _, l := range loads {
		ab := AgentBudget{Agent: l.Agent.ID, Name: l.Agent.Name, Files: []FileSize{}, Total: l.Size, Limits: []LimitStand{}, Source: l.Agent.Source}
		for _, f := range l.Files {
			ab.Files = append(ab.Files, FileSize{Path: f.Path, Size: budget.Measure(f.Src), ImportedBy: f.From})
		}
		for _, u := range l.Uses {
			ab.Limits = append(ab.Limits, stand(u))
		}
		b.Agents = append(b.Agents, ab)
	}
	for _, f := range files {
		if !f.IsCategory || f.Doc == nil {
			continue
		}
		rel := ".memory/" + f.Name
		fb := FileBudget{FileSize: FileSize{Path: rel, Size: budget.Measure(f.Doc.Src)}, Limits: []LimitStand{}}
		for _, id := range cfg.Agents {
			if a := budget.ByID(id); a != nil {
				for _, u := range budget.ReadUses(a, rel, f.Doc.Src) {
					fb.Limits = append(fb.Limits, stand(u))
				}
			}
		}
		b.Memory = append(b.Memory, fb)
	}
	return b
}

func stand(u budget.Use) LimitStand {
	ls := LimitStand{Agent: u.Agent.ID, What: u.Limit.What, Max: u.Limit.Max, Unit: u.Limit.Unit.String(), unit: u.Limit.Unit, Used: u.Used,
		Percent: u.Used * 100 / max(u.Limit.Max, 1), Path: u.Path, Source: u.Limit.Source, Checked: u.Limit.Checked}
	if u.Over != nil {
		ls.Cut = &CutLine{Path: u.Over.Path, Line: u.Over.Line + 1, Dropped: u.Dropped}
	}
	if u.Severity() >= 0 {
		ls.Message = u.Message()
	}
	return ls
}

// Text is the budget as a person reads it, the same from the CLI, the
// editor and MCP: per agent what it loads at session start and each limit,
// then each category file against the agents' file tools.
func (b Budget) Text() string {
	var w strings.Builder
	if len(b.Agents) == 0 {
		fmt.Fprintf(&w, "No agent is judged: the workspace holds none of their files (%s), or the `agents` setting names none.\n", strings.Join(budget.Markers(), ", "))
	}
	for _, a := range b.Agents {
		fmt.Fprintf(&w, "%s loads at session start %s\n", a.Name, sizeWords(a.Total))
		for _, f := range a.Files {
			fmt.Fprintf(&w, "  %s: %s", f.Path, sizeWords(f.Size))
			if f.ImportedBy != "" {
				fmt.Fprintf(&w, " (imported by %s)", f.ImportedBy)
			}
			w.WriteString("\n")
		}
		writeStands(&w, a.Limits)
	}
	if len(b.Memory) > 0 {
		w.WriteString("Memory files, which the pointer blocks send agents to read:\n")
	}
	for _, f := range b.Memory {
		fmt.Fprintf(&w, "  %s: %s\n", f.Path, sizeWords(f.Size))
		writeStands(&w, f.Limits)
	}
	if len(b.Agents) > 0 {
		w.WriteString("Every limit's source: docs/budgets.md (or --json).\n")
	}
	return w.String()
}

// FileSummary is one category file's size and how it stands against the
// file tools of the agents in cfg.Agents, on one line: what an editor shows
// at the top of the file.
func FileSummary(cfg config.Config, f rules.File) string {
	b := ComputeBudget(cfg, []rules.File{f}, nil)
	if len(b.Memory) == 0 {
		return ""
	}
	fb := b.Memory[0]
	var w strings.Builder
	w.WriteString(sizeWords(fb.Size))
	writeStands(&w, fb.Limits)
	// One line: the stands' own lines joined.
	return strings.TrimSuffix(strings.Join(strings.Fields(strings.ReplaceAll(w.String(), "\n", " · ")), " "), " ·")
}

// warnings are the limits that say something, each with the place.
func (b Budget) warnings() []string {
	var out []string
	add := func(stands []LimitStand) {
		for _, s := range stands {
			if s.Message == "" {
				continue
			}
			if s.Cut != nil {
				out = append(out, fmt.Sprintf("%s:%d: %s", s.Cut.Path, s.Cut.Line, s.Message))
			} else {
				out = append(out, s.Message)
			}
		}
	}
	for _, a := range b.Agents {
		add(a.Limits)
	}
	for _, f := range b.Memory {
		add(f.Limits)
	}
	return out
}

// writeStands writes the limits that say something on a line each, and
// the others together on one line per agent.
func writeStands(w *strings.Builder, stands []LimitStand) {
	var quiet []string
	agent := ""
	flush := func() {
		if len(quiet) > 0 {
			fmt.Fprintf(w, "    %s: %s\n", budget.ByID(agent).Name, strings.Join(quiet, ", "))
		}
		quiet = nil
	}
	for _, s := range stands {
		if s.Agent != agent {
			flush()
			agent = s.Agent
		}
		if s.Message != "" {
			fmt.Fprintf(w, "  ! %s", s.Message)
			if s.Cut != nil {
				fmt.Fprintf(w, " (%s:%d)", s.Cut.Path, s.Cut.Line)
			}
			w.WriteString("\n")
			continue
		}
		q := fmt.Sprintf("%d %% of %s", s.Percent, budget.Amount(s.Max, s.unit))
		if s.Path != "" && !strings.HasPrefix(s.Path, ".memory/") {
			q += " on " + s.Path
		}
		quiet = append(quiet, q)
	}
	flush()
}

// sizeWords: "12,345 bytes, 210 lines, about 3,100 tokens".
func sizeWords(s budget.Size) string {
	n := func(v int, one, many string) string {
		if v == 1 {
			return "1 " + one
		}
		return text.Thousands(v) + " " + many
	}
	return fmt.Sprintf("%s, %s, about %s", n(s.Bytes, "byte", "bytes"), n(s.Lines, "line", "lines"), n(s.Tokens, "token", "tokens"))
}
