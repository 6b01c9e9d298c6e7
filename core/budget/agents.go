// Package budget knows what each coding agent loads into its context from a
// project's instruction and memory files, and the limits past which it cuts
// them: which agents a workspace uses, what one session start costs each in
// bytes, lines and tokens, and the first line an agent would drop.
//
// What every agent loads and where it cuts is data, kept in one place
// (Agents), each limit with the source it was read from and the day it was
// checked; docs/budgets.md is that table for people, and a test keeps the
// two the same. The package reads no disk: a front end gives it a Reader.
package budget

// Unit is what a limit counts.
type Unit int

const (
	Bytes Unit = iota
	Lines
	// Chars are Unicode characters (code points), as the agents' docs
	// write "characters".
	Chars
	// Tokens are estimated (EstimateTokens): no limit in tokens is judged at the
	// token.
	Tokens
)

func (u Unit) String() string {
	return [...]string{"bytes", "lines", "characters", "tokens"}[u]
}

// Scope is what one limit is applied to.
type Scope int

const (
	// Chain: every file the agent loads at session start, together, in
	// load order (Codex's project_doc_max_bytes).
	Chain Scope = iota
	// EachFile: each file loaded at session start on its own.
	EachFile
	// Read: one file the agent reads with its file tool during a session,
	// as the pointer block tells it to read `.memory/` files.
	Read
)

// Beyond is what the agent does with what is over a limit.
type Beyond int

const (
	// Cut: the head is kept, the rest silently dropped.
	Cut Beyond = iota
	// Skip: the whole file is left out.
	Skip
	// Pages: the tool stops there and the agent must ask for the rest;
	// not silent, but a reader that does not page never sees it.
	Pages
	// Unstated: the source gives the limit, not what happens past it.
	Unstated
)

// Limit is one documented limit of an agent.
type Limit struct {
	Max   int
	Unit  Unit
	Scope Scope
	// Files narrows an EachFile limit to files whose path matches one of
	// these patterns (Match); empty: every file of the scope.
	Files  []string
	Beyond Beyond
	// What says what the agent does, after its name ("loads at most 32 KiB
	// of AGENTS.md files …"), for messages.
	What string
	// Part, when set, is the only part of the agent the limit applies to
	// ("code review"): its overrun is a warning, not an error.
	Part string
	// Source is where the number is stated; Checked the day it was read.
	Source  string
	Checked string
}

// Startup is a set of files an agent loads at the start of a session.
type Startup struct {
	// Pattern is a slash path relative to the workspace root; "*" in its
	// last element matches any name (Match).
	Pattern string
	// Always, when set, is what a file's front matter must say for the
	// agent to load it at start (rules that apply only to some files, or
	// on request, are not loaded at start).
	Always func(src []byte) bool
}

// Agent is one coding agent's loading rules.
type Agent struct {
	// ID is the name in the `agents` setting and in output.
	ID   string
	Name string
	// Detect are paths (relative, slash-separated) whose presence in a
	// workspace says it uses the agent.
	Detect []string
	// Startup lists, in load order, what the agent loads at session start
	// from a session opened at the workspace root.
	Startup []Startup
	// ImportDepth is how many hops of `@path` imports the agent follows
	// in the files it loads (0: it does not expand them).
	ImportDepth int
	// FirstOnly: of the Startup patterns, only the first file present is
	// loaded (Codex reads one AGENTS file per directory).
	FirstOnly bool
	Limits    []Limit
	// Source describes what is loaded (where the limits' own sources do
	// not).
	Source  string
	Checked string
}

// Agents are the agents whose loading is known, in the order output lists
// them. Every number has its source; an agent that documents no size limit
// has none here, and is measured but never cut.
var Agents = []*Agent{
	{
		ID: "claude", Name: "Claude Code",
		Detect: []string{"CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", ".claude/rules/"},
		Startup: []Startup{
			{Pattern: "CLAUDE.md"}, {Pattern: ".claude/CLAUDE.md"}, {Pattern: "CLAUDE.local.md"},
			{Pattern: ".claude/rules/*.md", Always: noFrontMatterKey("paths")},
		},
		ImportDepth: 4,
		Limits: []Limit{
			{Max: 4 << 20, Unit: Bytes, Scope: EachFile, Files: []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"}, Beyond: Skip, What: "skips a CLAUDE.md over 4 MiB",
				Source: "https://code.claude.com/docs/en/memory", Checked: "2026-10-08"},
			{Max: 2000, Unit: Lines, Scope: Read, Beyond: Pages, What: "reads the first 2,000 lines of a file unless asked for more (its Read tool)",
				Source: "https://github.com/anthropics/claude-code/issues/6910", Checked: "2026-11-29"},
			{Max: 25000, Unit: Tokens, Scope: Read, Beyond: Pages, What: "refuses to read a file over 25,000 tokens in one go (its Read tool)",
				Source: "https://github.com/anthropics/claude-code/issues/4002", Checked: "2026-11-29"},
		},
		Source: "https://code.claude.com/docs/en/memory", Checked: "2026-10-08",
	},
	{
		ID: "codex", Name: "Codex",
		Detect:    []string{"AGENTS.md", "AGENTS.override.md", ".codex/"},
		Startup:   []Startup{{Pattern: "AGENTS.override.md"}, {Pattern: "AGENTS.md"}},
		FirstOnly: true,
		Limits: []Limit{
			{Max: 32 << 10, Unit: Bytes, Scope: Chain, Beyond: Cut, What: "loads at most 32 KiB of AGENTS.md files, root first (project_doc_max_bytes)",
				Source: "https://github.com/openai/codex/blob/main/codex-rs/core/src/agents_md.rs", Checked: "2026-11-29"},
		},
		Source: "https://developers.openai.com/codex/guides/agents-md", Checked: "2026-11-29",
	},
	{
		ID: "copilot", Name: "GitHub Copilot",
		Detect: []string{".github/copilot-instructions.md", ".github/instructions/"},
		Startup: []Startup{
			{Pattern: ".github/copilot-instructions.md"},
			{Pattern: ".github/instructions/*.instructions.md", Always: frontMatterIs("applyTo", "**")},
			{Pattern: "AGENTS.md"},
		},
		Limits: []Limit{
			{Max: 4000, Unit: Chars, Scope: EachFile, Files: []string{".github/copilot-instructions.md", ".github/instructions/*.instructions.md"},
				Beyond: Cut, Part: "code review", What: "reads only the first 4,000 characters of an instructions file",
				Source: "https://github.com/github/docs/blob/main/data/reusables/copilot/code-review/custom-instructions-limit.md", Checked: "2026-11-29"},
		},
		Source: "https://code.visualstudio.com/docs/agent-customization/custom-instructions", Checked: "2026-11-29",
	},
	{
		ID: "cursor", Name: "Cursor",
		Detect: []string{".cursor/rules/", ".cursorrules"},
		Startup: []Startup{
			{Pattern: ".cursor/rules/*.mdc", Always: frontMatterTrue("alwaysApply")},
			{Pattern: ".cursorrules"},
			{Pattern: "AGENTS.md"},
		},
		Source: "https://cursor.com/docs/context/rules", Checked: "2026-11-29",
	},
	{
		ID: "windsurf", Name: "Windsurf",
		Detect: []string{".windsurf/rules/", ".windsurfrules", ".devin/rules/"},
		Startup: []Startup{
			{Pattern: ".windsurf/rules/*.md", Always: frontMatterIs("trigger", "always_on")},
			{Pattern: ".devin/rules/*.md", Always: frontMatterIs("trigger", "always_on")},
			{Pattern: ".windsurfrules"},
			{Pattern: "AGENTS.md"},
		},
		Limits: []Limit{
			{Max: 12000, Unit: Chars, Scope: EachFile, Files: []string{".windsurf/rules/*.md", ".devin/rules/*.md"}, Beyond: Unstated,
				What:   "limits a workspace rule file to 12,000 characters",
				Source: "https://docs.windsurf.com/windsurf/cascade/memories", Checked: "2026-11-29"},
			{Max: 6000, Unit: Chars, Scope: EachFile, Files: []string{".windsurfrules"}, Beyond: Cut,
				What:   "truncates .windsurfrules at 6,000 characters",
				Source: "https://docs.windsurf.com/windsurf/memories", Checked: "2026-11-29"},
		},
		Source: "https://docs.windsurf.com/windsurf/cascade/memories", Checked: "2026-11-29",
	},
	{
		ID: "gemini", Name: "Gemini CLI",
		Detect:      []string{"GEMINI.md", ".gemini/"},
		Startup:     []Startup{{Pattern: "GEMINI.md"}},
		ImportDepth: 5,
		Source:      "https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/gemini-md.md", Checked: "2026-11-29",
	},
	{
		ID: "kiro", Name: "Kiro",
		Detect: []string{".kiro/steering/"},
		Startup: []Startup{
			{Pattern: ".kiro/steering/*.md", Always: frontMatterIsOrAbsent("inclusion", "always")},
			{Pattern: "AGENTS.md"},
		},
		Source: "https://kiro.dev/docs/steering", Checked: "2026-11-29",
	},
}

// ByID is the agent with that ID, nil if none.
func ByID(id string) *Agent {
	for _, a := range Agents {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// IDs are the known agents' IDs, in Agents' order.
func IDs() []string {
	out := make([]string, len(Agents))
	for i, a := range Agents {
		out[i] = a.ID
	}
	return out
}
