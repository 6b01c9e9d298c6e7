// Command memory-lsp is the language server, CLI and agent tool server for
// AI-agent memory files (`.memory/*.md`), byte-compatible with HackLM Memory.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/tliron/kutil/util"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// the module version from the build info is used.
var version = ""

// Exit codes of the contract: findings of severity error or a refused store
// are 1, usage and I/O errors 2.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// cliMemoryLimit is the soft heap limit of every command but serve (which
// sets its own, lsp.MemoryLimit), unless GOMEMLIMIT is set: without it the
// collector lets the heap grow to twice what is live, so a cleanup of
// 60,000 entries peaked near 250 MB. It is soft: a larger workspace still
// works, with more frequent collection.
const cliMemoryLimit = 128 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cliMemoryLimit)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var class atomic.Int32 // commandClass, once run has parsed the arguments
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first signal cancels the command's context. A command that
		// writes nothing (a check in CI, a query) has nothing to finish,
		// and much of its work does not look at the context: it ends at
		// once, as a process killed by the signal would (a CI job's
		// cancel must not wait for a check of 10,000 entries). One that
		// writes ends at its next safe point; a second signal ends it
		// wherever it is. A server is never ended here: an editor's
		// Ctrl-C reaches the server in its process group too (issue 28),
		// and serve and mcp end by their own protocol and handling.
		for n := 0; ; n++ {
			sig := <-signals
			cancel()
			switch c := class.Load(); {
			case c == classServes:
			case c == classReadOnly || n > 0:
				os.Exit(128 + signalNumber(sig))
			}
		}
	}()
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, classify: class.Store})
	signal.Stop(signals)
	cancel()
	// commonlog's backend writes through a buffer that kutil's exit hooks
	// flush; os.Exit would drop the last log lines of a server session.
	util.Exit(code)
}

// signalNumber is sig's number, for the exit status 128+n of a process
// ended by a signal.
func signalNumber(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return int(n)
	}
	return int(syscall.SIGINT)
}

// env is what a command may touch besides the file system: tests pass buffers.
type env struct {
	// classify, when set, is told what the command is (commandClass),
	// which says how a signal ends the process (main).
	classify       func(int32)
	stdin          io.Reader
	stdout, stderr io.Writer
	json           bool
	root           string
	cfg            config.Config
	source         string // --source or MEMORY_LSP_SOURCE: who writes
}

type command struct {
	name  string
	args  string
	help  string
	flags []flagSpec
	run   func(ctx context.Context, e *env, a *parsedArgs) (int, error)
	// positional: the command reads positional arguments (paths, content,
	// a query); any other command refuses them rather than ignore them
	// (`list quirks` must not list everything).
	positional bool
	// notes and examples complete the command's help page.
	notes    string
	examples []string
}

// commonFlags are accepted by every command.
// sourceFlag names the writer in the provenance log.
var sourceFlag = flagSpec{name: "source", value: "NAME", help: "who writes, for the provenance log (default: $MEMORY_LSP_SOURCE, else the CLI)"}

var commonFlags = []flagSpec{
	{name: "root", value: "DIR", help: "the project (default: the nearest folder above the current one holding .memory/, else the git top level)"},
	{name: "json", boolean: true, help: "print one JSON document on stdout"},
	{name: "config", value: "FILE", help: "settings file (JSON: categoryLimit, skipThreshold, updateThreshold, mergeThreshold, longEntry, maxContent, rules, historyDepth, review, agents)"},
}

const categoryHelp = "Instruction, Quirk, Preference, Decision or Security; any case, plural or file name (decisions.md)"

func commands() []command {
	return []command{
		{name: "check", positional: true, args: "[--fix] [--format text|json|sarif|summary] [--since REF] [PATH…]",
			help:  "report problems in .memory folders or files, each with its fix; --fix applies the safe fixes",
			notes: "PATH is a project, a .memory folder or memory files (as pre-commit passes them); none means the current project. Each finding is path:line:column: severity: message [code], the column in UTF-16 units as editors count, followed by the fixes an editor offers for it.",
			flags: []flagSpec{
				{name: "fix", boolean: true, help: "apply the safe fixes first (only files directly inside a .memory folder are written)"},
				{name: "format", value: "F", help: "text (default), json (as --json), sarif (SARIF 2.1.0 for code scanning) or summary (counts for CI; Markdown for a pull request comment with --since)"},
				{name: "since", value: "REF", help: "also list every memory line added or changed since the git commit REF, with who wrote it (git blame; not committed yet)"}},
			examples: []string{"memory-lsp check", "memory-lsp check --fix", "memory-lsp check --format sarif > memory.sarif", "memory-lsp check --root examples/demo", "memory-lsp check --since origin/main --format summary"},
			run:      runCheck},
		{name: "list", args: "[--category C]", help: "list every entry with its place, category, pruning score, slug and content",
			flags:    []flagSpec{{name: "category", value: "C", help: "only this category: " + categoryHelp}},
			examples: []string{"memory-lsp list", "memory-lsp list --category quirks", "memory-lsp list --json"},
			run:      runList},
		{name: "store", positional: true, args: "--category C [--slug S] [--dry-run] CONTENT|-",
			help:  "store a memory as HackLM's storeMemory does (- reads stdin)",
			notes: "CONTENT is one sentence; the words may be given unquoted. A store skips what is already stored, updates an entry when the new text is the same fact with a changed value or wording (or reverses it), and otherwise appends; with --slug it updates the entry with that slug. A secret is refused (exit 1); an instruction to agents, text a reader cannot see (hidden-text), a link no entry cites yet or a pipe into a shell is held for review (exit 0; memory-lsp review), or refused with the review setting off. The first store of a project creates .memory at its top and says where.",
			flags: []flagSpec{{name: "category", value: "C", help: categoryHelp}, {name: "slug", value: "S", help: "kebab-case key; the same slug updates the entry"}, {name: "dry-run", boolean: true, help: "say what would happen, write nothing"}, sourceFlag},
			examples: []string{`memory-lsp store --category Decision "Use Postgres for the ledger."`, `memory-lsp store --category quirks --slug gradle-leak "The Gradle daemon leaks memory after 20 builds."`,
				`echo "Run migrations before deploying." | memory-lsp store --category Instruction -`, `memory-lsp store --category Quirk -- "-race slows the suite 10x."`},
			run: runStore},
		{name: "query", positional: true, args: "[--category C] [--limit N] QUERY",
			help: "search memories as HackLM's queryMemory does, best match first",
			notes: "QUERY is words, quoted or not. Whole words match, and a word of four letters or more also finds the longer words it begins (postgres finds PostgreSQL). " +
				"Each query reads the memory files as they are (at 10,000 entries in a few tens of milliseconds; BENCHMARKS.md).",
			flags: []flagSpec{{name: "category", value: "C", help: "only this category: " + categoryHelp}, {name: "limit", value: "N", help: "at most N results, 1 to 20 (default 10)"},
				{name: "no-cache", boolean: true, help: "accepted for older scripts: no index is kept between runs any more"}},
			examples: []string{"memory-lsp query postgres", `memory-lsp query --category quirks "gradle daemon"`, "memory-lsp query --json --limit 3 deploy"},
			run:      runQuery},
		{name: "cleanup", args: "[--apply] [--accept KIND,…]", help: "show the cleanup plan (normalise, merge true duplicates, prune, assign slugs), the pairs left to decide and the lines left to you, then the diff; --apply writes it",
			notes: "Nothing is written without --apply. Lines with a likely secret or an instruction to agents are never changed, and of a line with hidden text only that text is removed (as check --fix does): the plan lists them for you to delete.",
			flags: []flagSpec{
				{name: "apply", boolean: true, help: "write the plan"},
				{name: "accept", value: "KINDS", help: "also apply the suggested choice for these kinds of pairs: reversal, value, reworded, qualification, sibling, or all"}},
			examples: []string{"memory-lsp cleanup", "memory-lsp cleanup --apply", "memory-lsp cleanup --apply --accept reversal,value"},
			run:      runCleanup},
		{name: "init", args: "[--git] [--agents-md] [--claude-md]", help: "create the missing category files, a pointer block in .github/copilot-instructions.md and, in git, a .gitignore line for .memory/.lock; --agents-md, --claude-md: also in AGENTS.md, CLAUDE.md; --git: register the merge driver",
			flags:    initFlags(),
			examples: []string{"memory-lsp init", "memory-lsp init --git --agents-md"},
			run:      runInit},
		{name: "review", args: "[--approve ID,…|all] [--reject ID,…|all]", help: "list the writes held for review, with who wrote them and why they were held; approve them into their category files or reject them",
			notes: "A write is held instead of stored when the review setting asks for it: flagged (the default) holds one with an instruction to agents, hidden text, a link no entry cites yet or a pipe into a shell; agents holds every write that does not come from a person in an editor. Held writes wait in .memory/.held, which no agent and no query reads. An approved write is stored exactly as a direct store would store it.",
			flags: []flagSpec{
				{name: "approve", value: "IDS", help: "store these held writes (IDs separated by commas, or all)"},
				{name: "reject", value: "IDS", help: "drop these held writes (IDs separated by commas, or all)"},
				sourceFlag},
			examples: []string{"memory-lsp review", "memory-lsp review --approve h1a2b3c4", "memory-lsp review --reject all", "memory-lsp review --json"},
			run:      runReview},
		budgetCommand(),
		{name: "version", help: "print the version", examples: []string{"memory-lsp version"}, run: runVersion},
		mcpCommand(),
		mergeDriverCommand(),
		{name: "serve", args: "[--stdio] [--log-file F] [--log-level L]", help: "run the language server on stdio (the default command; editors start it)",
			notes: "stdout carries JSON-RPC only; logs go to stderr or --log-file. For troubleshooting, --log-level debug logs every message with its outcome and time.",
			flags: append([]flagSpec{
				{name: "stdio", boolean: true, help: "use stdio (the only transport; accepted because clients add it)"}}, logFlags("notice")...),
			examples: []string{"memory-lsp serve --stdio --log-level debug --log-file memory-lsp.log"},
			run:      runServe},
	}
}

func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 {
		args = []string{"serve"}
	}
	name := args[0]
	switch name {
	case "help":
		return runHelp(e, args[1:])
	case "-h", "--help", "-help":
		usage(e.stdout)
		return exitOK
	case "--version":
		name = "version"
	}
	cmd := findCommand(name)
	if cmd == nil {
		fmt.Fprintf(e.stderr, "memory-lsp: unknown command %q\n\n", name)
		usage(e.stderr)
		return exitError
	}
	if wantsHelp(args[1:]) {
		commandHelp(e.stdout, cmd)
		return exitOK
	}
	a, err := parseArgs(args[1:], append(append([]flagSpec{}, commonFlags...), cmd.flags...))
	if err != nil {
		return fail(e, cmd, err)
	}
	e.json = a.set["json"]
	e.source = a.str("source")
	if e.source == "" {
		e.source = strings.TrimSpace(os.Getenv("MEMORY_LSP_SOURCE"))
	}
	if !cmd.positional && len(a.pos) > 0 {
		hint := ""
		if cmd.name == "list" {
			hint = " (a category is --category " + a.pos[0] + ")"
		}
		return fail(e, cmd, usagef("%s takes no arguments, got %q%s", cmd.name, a.pos[0], hint))
	}
	if err := setup(e, a); err != nil {
		return fail(e, cmd, err)
	}
	if e.classify != nil {
		e.classify(commandClass(cmd.name, a))
	}
	code, err := cmd.run(ctx, e, a)
	if err != nil {
		return fail(e, cmd, err)
	}
	return code
}

// How a signal ends a command (main).
const (
	classMayWrite int32 = iota
	classReadOnly
	classServes
)

// commandClass says how a signal ends command name with arguments a: a
// server ends by its own protocol and signal handling (serve, mcp), a
// command that may write a memory file at its next safe point, any other
// at once. A cache a command refreshes as it reads (check's history) is
// written atomically: losing it loses nothing.
func commandClass(name string, a *parsedArgs) int32 {
	writes := true
	switch name {
	case "serve", "mcp":
		return classServes
	case "list", "query", "budget", "version":
		writes = false
	case "check":
		writes = a.set["fix"]
	case "store":
		writes = !a.set["dry-run"]
	case "cleanup":
		writes = a.set["apply"]
	case "review":
		writes = a.str("approve") != "" || a.str("reject") != ""
	}
	if writes {
		return classMayWrite
	}
	return classReadOnly
}

// setup resolves the root and the configuration shared by all commands.
func setup(e *env, a *parsedArgs) error {
	e.cfg = config.Default()
	if p := a.str("config"); p != "" {
		data, err := config.ReadSettingsFile(p)
		if err != nil {
			return err
		}
		s, err := rules.ParseSettings(data)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if e.cfg, err = e.cfg.Merge(s); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	start := a.str("root")
	explicit := start != ""
	if !explicit {
		start = "."
	}
	if explicit {
		e.root = start
		return nil
	}
	root, err := store.FindRoot(start)
	if err != nil {
		return err
	}
	e.root = root
	return nil
}

func (e *env) service() (*memory.Service, error) {
	svc, err := memory.OpenService(e.root, e.cfg, memory.Writer{By: memory.ByCLI, Name: e.source})
	if err != nil {
		return nil, err
	}
	// The agents whose budgets are judged are the workspace's own.
	e.cfg = svc.Cfg
	svc.CacheDir = cacheFolder(false)
	return svc, nil
}

// fail reports err on stderr (and as JSON on stdout with --json) and picks
// the exit code, as docs/commands.md says: a refused request — content
// that may not be stored — is 1; a usage error (an unknown category, a
// limit out of range, a bad slug or flag) and an I/O error are 2.
func fail(e *env, cmd *command, err error) int {
	code := exitError
	var in *memory.InputError
	var ue *usageError
	switch {
	case errors.As(err, &in):
		if in.Field == "content" {
			code = exitFindings
		}
	case errors.As(err, &ue) && cmd != nil:
		err = fmt.Errorf("%s\nusage: memory-lsp %s %s (memory-lsp %s --help for more)", ue.msg, cmd.name, cmd.args, cmd.name)
	}
	fmt.Fprintf(e.stderr, "memory-lsp: %v\n", err)
	if e.json {
		out := map[string]any{"error": err.Error()}
		if in != nil {
			out["field"] = in.Field
		}
		writeJSON(e.stdout, out)
	}
	return code
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func runVersion(_ context.Context, e *env, _ *parsedArgs) (int, error) {
	if e.json {
		writeJSON(e.stdout, map[string]string{"version": versionString()})
	} else {
		fmt.Fprintln(e.stdout, "memory-lsp", versionString())
	}
	return exitOK, nil
}

// joinArgs glues positional words into one string, so that unquoted
// `memory-lsp query redis timeout` works.
func joinArgs(a []string) string { return strings.Join(a, " ") }
