package main

import (
	"fmt"
	"io"
	"strings"
)

// Help: `memory-lsp help`, `memory-lsp help CMD`, `memory-lsp CMD --help`
// and `CMD -h` all answer on stdout with exit 0; a command's page has its
// usage, what it does, its flags and the common ones, examples and the exit
// codes, so nobody needs the README to run it.

// exitCodesHelp is the contract every command keeps.
const exitCodesHelp = "exit codes: 0 success; 1 findings of severity error (check) or a refused store (a secret; with review off also an instruction to agents or hidden text); 2 a usage error (unknown flag, category or argument, limit out of range, bad slug) or an I/O error"

// flagSyntaxHelp says how flags are written, for every command.
const flagSyntaxHelp = "Flags go before or after the arguments, as --flag value or --flag=value; -- ends the flags, so content that starts with - is written after it: memory-lsp store --category Quirk -- \"-race slows the suite 10x\""

// wantsHelp reports whether a command line asks for help (-h or --help
// before any --).
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "-help":
			return true
		}
	}
	return false
}

// commandHelp writes one command's page.
func commandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: memory-lsp %s", c.name)
	if c.args != "" {
		fmt.Fprintf(w, " %s", c.args)
	}
	fmt.Fprintf(w, "\n\n%s\n", sentence(c.help))
	if c.notes != "" {
		fmt.Fprintf(w, "\n%s\n", c.notes)
	}
	if len(c.flags) > 0 {
		fmt.Fprintln(w, "\nflags:")
		writeFlags(w, c.flags)
	}
	fmt.Fprintln(w, "\nflags of every command:")
	writeFlags(w, commonFlags)
	if len(c.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, ex := range c.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
	fmt.Fprintf(w, "\n%s\n\n%s\n", flagSyntaxHelp, exitCodesHelp)
}

func writeFlags(w io.Writer, flags []flagSpec) {
	width := 0
	for _, f := range flags {
		width = max(width, len(flagLabel(f)))
	}
	for _, f := range flags {
		fmt.Fprintf(w, "  %-*s  %s\n", width, flagLabel(f), f.help)
	}
}

func flagLabel(f flagSpec) string {
	if f.boolean {
		return "--" + f.name
	}
	return "--" + f.name + " " + strings.ToUpper(f.valueName())
}

// valueName is how a flag's value is named in help: --limit N, --root DIR.
func (f flagSpec) valueName() string {
	if f.value != "" {
		return f.value
	}
	return "value"
}

// sentence capitalises a one-line help text and ends it with a period.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// usage is the general page: every command in a line, how to get a
// command's page, the common flags and the exit codes.
func usage(w io.Writer) {
	fmt.Fprintln(w, "memory-lsp: language server, CLI and MCP server for AI-agent memory files (.memory/*.md)")
	fmt.Fprintln(w, "\nusage: memory-lsp <command> [flags] [arguments]")
	fmt.Fprintln(w, "       memory-lsp help <command>    (or memory-lsp <command> --help) for a command's flags and examples")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.help)
	}
	fmt.Fprintln(w, "\nflags of every command:")
	writeFlags(w, commonFlags)
	fmt.Fprintf(w, "\n%s\n\n%s\n", flagSyntaxHelp, exitCodesHelp)
	fmt.Fprintln(w, "\nWith no command, or `serve`, memory-lsp is the language server on stdin/stdout, started by an editor.")
}

// runHelp is `memory-lsp help [COMMAND]`.
func runHelp(e *env, topic []string) int {
	if len(topic) == 0 {
		usage(e.stdout)
		return exitOK
	}
	if c := findCommand(topic[0]); c != nil {
		commandHelp(e.stdout, c)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "memory-lsp: no help for %q: it is not a command\n\n", topic[0])
	usage(e.stderr)
	return exitError
}

func findCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return &c
		}
	}
	return nil
}
