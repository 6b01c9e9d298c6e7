package refs

import "strings"

// tools maps how a command line starts to the tool.
var tools = map[string]Tool{
	"make": Make, "npm": Npm, "pnpm": Pnpm, "yarn": Yarn, "bun": Bun, "just": Just, "task": Task,
}

// A command line in a code span: `make e2e`, `cd web && npm run build`,
// `make -C web lint`, `pnpm --dir web test`, `task lint test`.
//
// Outside a code span only the forms that cannot be English are read: the
// package managers with "run" (npm run build), `npm test` and `npm start`.
// "make sure", "just run it" and "the task builds" are prose.

// commandLine reads the commands of one code span, s[a:b]. Commands are
// separated by "&&", "||", ";" and "|"; a `cd dir` before them sets the
// folder they run in.
func commandLine(s string, a, b int) []Ref {
	var out []Ref
	ws := shellWords(s, a, b)
	// A word that starts with # starts a comment: `make snapshots-fix  #
	// update existing snapshots` runs one target, not four.
	for k, w := range ws {
		if s[w.start] == '#' {
			ws = ws[:k]
			break
		}
	}
	dir, dirOK, cdStart := "", true, -1
	for len(ws) > 0 {
		n := 0
		for n < len(ws) && !isSeparator(s[ws[n].start:ws[n].end]) {
			n++
		}
		cmd := ws[:n]
		if n < len(ws) {
			ws = ws[n+1:]
		} else {
			ws = nil
		}
		if len(cmd) == 0 {
			continue
		}
		switch first := s[cmd[0].start:cmd[0].end]; {
		case first == "cd":
			dir, dirOK, cdStart = "", false, cmd[0].start
			if len(cmd) == 2 {
				dir, dirOK = folder(s[cmd[1].start:cmd[1].end])
			}
		case tools[first] != 0 && dirOK:
			refs := parseCommand(s, cmd, dir, false)
			if len(refs) > 0 && cdStart >= 0 {
				refs[0].Start, cdStart = cdStart, -1 // the cd is cited with the first command after it
			}
			out = append(out, refs...)
		}
	}
	return out
}

// shellWords splits s[a:b] into a command's arguments: at white space, but
// not inside quotes, so `make migrate-rev MSG="add foo column to runs"`
// names one target and a variable, not the words of the message (a real
// instruction file's, issue 27). An unclosed quote runs to the end.
func shellWords(s string, a, b int) []span {
	ws := words(s, a, b)
	out := ws[:0]
	var quote byte
	for _, w := range ws {
		if quote != 0 {
			out[len(out)-1].end = w.end
		} else {
			out = append(out, w)
		}
		for i := w.start; i < w.end; i++ {
			switch c := s[i]; {
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
			case c == quote:
				quote = 0
			}
		}
	}
	return out
}

func isSeparator(w string) bool {
	return w == "&&" || w == "||" || w == ";" || w == "|"
}

// folder reads the folder a `cd` or `-C` names: relative, inside the
// repository, no variables. "." is the root.
func folder(w string) (string, bool) {
	w = strings.TrimSuffix(strings.TrimPrefix(w, "./"), "/")
	if w == "." || w == "" {
		return "", true
	}
	if !pathChars(w) || strings.Contains(w, "..") || w[0] == '/' || w[0] == '-' || w[0] == '@' {
		return "", false
	}
	for _, seg := range strings.Split(w, "/") {
		if seg == "" || seg == "." {
			return "", false
		}
	}
	return w, true
}

// parseCommand reads one command (tool first) and returns a Ref per target
// it names; none when it names no target or runs something Judge cannot
// resolve (another Makefile, a workspace filter, a file). dir is the folder
// a preceding `cd` named. In prose only the forms that say "run a script"
// count.
func parseCommand(s string, cmd []span, dir string, prose bool) []Ref {
	tool := tools[s[cmd[0].start:cmd[0].end]]
	a := &argReader{s: s, args: cmd[1:], dir: dir}
	var targets []span
	implicit, ok := false, false
	switch {
	case prose && tool != Npm && tool != Pnpm && tool != Yarn && tool != Bun:
	case tool == Make:
		targets, ok = a.makeTargets()
	case tool == Npm:
		targets, ok = a.npmScript()
	case tool == Pnpm || tool == Yarn || tool == Bun:
		targets, implicit, ok = a.packageScript(tool, prose)
	case tool == Just:
		targets, ok = a.justRecipe()
	case tool == Task:
		targets, ok = a.tasks()
	}
	if !ok {
		return nil
	}
	var out []Ref
	for _, t := range targets {
		if prose {
			t = trimToken(s, t)
			for t.end > t.start && strings.IndexByte(",;)", s[t.end-1]) >= 0 {
				t.end--
			}
		}
		name := s[t.start:t.end]
		if !targetName(tool, name) {
			continue
		}
		r := Ref{Kind: Command, Start: t.start, End: t.end, ValueStart: t.start, ValueEnd: t.end,
			Tool: tool, Target: name, In: a.dir, Implicit: implicit}
		if len(out) == 0 {
			r.Start = cmd[0].start // the first target is cited with its command
		}
		out = append(out, r)
	}
	return out
}

// argReader walks the arguments of one command.
type argReader struct {
	s    string
	args []span
	i    int
	// dir is the folder the command runs in, from a `cd` or a flag.
	dir string
}

func (a *argReader) word(i int) string { return a.s[a.args[i].start:a.args[i].end] }

func (a *argReader) more() bool { return a.i < len(a.args) }

// flag reads, at the current argument, a flag that takes a value: "-C dir",
// "-Cdir" (short flags of two characters) or "--dir=dir".
func (a *argReader) flag(short, long string) (string, bool) {
	w := a.word(a.i)
	switch {
	case short != "" && w == short || long != "" && w == long:
		if a.i+1 < len(a.args) {
			a.i++
			return a.word(a.i), true
		}
	case short != "" && len(short) == 2 && strings.HasPrefix(w, short):
		return w[2:], true
	case long != "" && strings.HasPrefix(w, long+"="):
		return w[len(long)+1:], true
	}
	return "", false
}

// chdir applies a folder flag; false when the folder cannot be resolved.
func (a *argReader) chdir(v string) bool {
	d, ok := folder(v)
	switch {
	case !ok:
		return false
	case a.dir != "" && d != "":
		a.dir += "/" + d
	case d != "":
		a.dir = d
	}
	return true
}

// dirFlag applies the folder flag at the current argument, if it is one:
// handled says it was; ok is false when its folder cannot be resolved.
func (a *argReader) dirFlag(short, long string) (handled, ok bool) {
	v, is := a.flag(short, long)
	if !is {
		return false, true
	}
	return true, a.chdir(v)
}

// makeTargets: `make [-C dir] [-j N] [VAR=x] target…`.
func (a *argReader) makeTargets() ([]span, bool) {
	var out []span
	for ; a.more(); a.i++ {
		if handled, ok := a.dirFlag("-C", "--directory"); !ok {
			return nil, false
		} else if handled {
			continue
		}
		w := a.word(a.i)
		switch {
		case strings.HasPrefix(w, "-f") || w == "--file" || w == "--makefile" ||
			strings.HasPrefix(w, "--file=") || strings.HasPrefix(w, "--makefile="):
			return nil, false // another Makefile
		case w == "-j" || w == "--jobs" || w == "-l" || w == "--load-average":
			if a.i+1 < len(a.args) && isNumber(a.word(a.i+1)) {
				a.i++
			}
		case makeValueFlags[w]:
			a.i++ // `make -o build lint`: build is the flag's file, not a target (a red team's)
		case strings.HasPrefix(w, "-"), strings.Contains(w, "="):
			// a flag or a variable
		default:
			out = append(out, a.args[a.i])
		}
	}
	return out, true
}

// makeValueFlags are make's flags whose value is the next word.
var makeValueFlags = map[string]bool{"-o": true, "--old-file": true, "--assume-old": true, "-W": true, "--what-if": true,
	"--new-file": true, "--assume-new": true, "-I": true, "--include-dir": true}

// npmScript: `npm [--prefix dir] run|run-script script`, `npm test|start|stop|restart`.
func (a *argReader) npmScript() ([]span, bool) {
	for ; a.more(); a.i++ {
		if handled, ok := a.dirFlag("", "--prefix"); !ok {
			return nil, false
		} else if handled {
			continue
		}
		w := a.word(a.i)
		if w == "-w" || w == "--workspace" || strings.HasPrefix(w, "--workspace=") || w == "--workspaces" || w == "-ws" {
			return nil, false // runs in packages the command does not name
		}
		if !strings.HasPrefix(w, "-") {
			break
		}
	}
	if !a.more() {
		return nil, false
	}
	switch a.word(a.i) {
	case "run", "run-script", "rum", "urn":
		if a.i+1 < len(a.args) {
			return []span{a.args[a.i+1]}, true
		}
	case "test", "t", "tst", "start", "stop", "restart":
		return []span{a.args[a.i]}, true
	}
	return nil, false
}

// packageScript: `pnpm [-C dir] [run] script`, `yarn [--cwd dir] [run]
// script`, `bun run script`. implicit says the tool was not told to run a
// script and may run a binary of that name instead.
func (a *argReader) packageScript(tool Tool, prose bool) (_ []span, implicit, ok bool) {
	short, long, alt := "", "--cwd", ""
	if tool == Pnpm {
		short, long, alt = "-C", "--dir", "--prefix"
	}
	for ; a.more(); a.i++ {
		handled, ok := a.dirFlag(short, long)
		if !handled && ok && alt != "" {
			handled, ok = a.dirFlag("", alt)
		}
		if !ok {
			return nil, false, false
		} else if handled {
			continue
		}
		w := a.word(a.i)
		switch {
		case w == "-w" || w == "--workspace-root":
			a.dir = ""
			continue
		case w == "--filter" || w == "-F" || strings.HasPrefix(w, "--filter=") || w == "-r" || w == "--recursive" || w == "--workspace":
			return nil, false, false // runs in packages the command does not name
		case strings.HasPrefix(w, "-"):
			continue
		}
		break
	}
	if !a.more() {
		return nil, false, false
	}
	switch sub := a.word(a.i); {
	case sub == "run" || sub == "run-script":
		if a.i+1 >= len(a.args) || tool == Bun && strings.ContainsAny(a.word(a.i+1), "/.") {
			return nil, false, false // nothing to run, or bun run <file>
		}
		// pnpm run knows scripts only; yarn run and bun run fall back to binaries.
		return []span{a.args[a.i+1]}, tool != Pnpm, true
	case tool == Bun || prose:
		return nil, false, false // bun <x> may be a file or bun's own test runner; in prose only "run" is a command
	case sub == "test" || sub == "start" || tool == Pnpm && (sub == "t" || sub == "tst"):
		return []span{a.args[a.i]}, false, true
	case builtins(tool)[sub]:
		return nil, false, false
	}
	return []span{a.args[a.i]}, true, true
}

// justRecipe: `just [flags] [VAR=x] recipe [args]`.
func (a *argReader) justRecipe() ([]span, bool) {
	for ; a.more(); a.i++ {
		w := a.word(a.i)
		switch {
		case w == "-f" || w == "--justfile" || w == "-d" || w == "--working-directory" || w == "--list" || w == "-l":
			return nil, false // another justfile, or no recipe
		case strings.HasPrefix(w, "-"), strings.Contains(w, "="):
			continue
		}
		return []span{a.args[a.i]}, true
	}
	return nil, false
}

// tasks: `task [-d dir] [VAR=x] task… [-- args]`.
func (a *argReader) tasks() ([]span, bool) {
	var out []span
	for ; a.more(); a.i++ {
		if handled, ok := a.dirFlag("-d", "--dir"); !ok {
			return nil, false
		} else if handled {
			continue
		}
		w := a.word(a.i)
		switch {
		case w == "--":
			return out, true
		case w == "-t" || w == "--taskfile" || w == "-l" || w == "--list" || w == "-a" || w == "--list-all":
			return nil, false // another Taskfile, or no task
		case strings.HasPrefix(w, "-") && !strings.Contains(w, "=") && !taskSwitches[w]:
			// a flag of task's that takes a value, or one the task's
			// own command reads: the next word is its value, not a task
			// (`task test:coverage --module mcp_web.fetcher`: issue 27's
			// files sets)
			a.i++
			continue
		case strings.HasPrefix(w, "-"), strings.Contains(w, "="):
			continue
		}
		out = append(out, a.args[a.i])
	}
	return out, true
}

// taskSwitches are task's flags that take no value.
var taskSwitches = map[string]bool{
	"-p": true, "--parallel": true, "-f": true, "--force": true, "-s": true, "--silent": true,
	"-v": true, "--verbose": true, "-w": true, "--watch": true, "-n": true, "--dry": true,
	"-y": true, "--yes": true, "-x": true, "--exit-code": true, "-i": true, "--interactive": true,
	"--summary": true, "--status": true,
}

// targetName reports whether name can be a target, script, recipe or task
// as written in a command: no placeholder (a part that is one capital
// letter), no variable, no file (a Makefile
// target with a dot or slash may be built by an implicit rule).
func targetName(tool Tool, name string) bool {
	if name == "" || !hasLetter(name) {
		return false
	}
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == ':' || r == '.' }) {
		if len(part) == 1 && 'A' <= part[0] && part[0] <= 'Z' {
			return false // a place to fill in: `make validate_phase_N`
		}
	}
	for _, r := range name {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '-':
		case r == ':' && tool != Make && tool != Just:
		case r == '.' && tool == Task:
		default:
			return false
		}
	}
	return name[0] != '-'
}

func isNumber(w string) bool {
	_, n := digits(w)
	return n > 0 && n == len(w)
}

// builtins are the subcommands of pnpm and yarn that are not scripts.
func builtins(t Tool) map[string]bool {
	if t == Yarn {
		return yarnBuiltins
	}
	return pnpmBuiltins
}

var pnpmBuiltins = set(
	"add", "install", "i", "update", "up", "upgrade", "remove", "rm", "uninstall", "un",
	"link", "ln", "unlink", "import", "rebuild", "rb", "prune", "fetch", "audit",
	"outdated", "list", "ls", "ll", "la", "why", "exec", "dlx", "create", "init",
	"publish", "pack", "store", "root", "bin", "env", "setup", "server", "config",
	"c", "get", "set", "patch", "patch-commit", "patch-remove", "deploy", "licenses",
	"doctor", "self-update", "approve-builds", "help", "cat-file", "cat-index",
	"find-hash", "ignored-builds", "dedupe", "install-test", "it",
	"recursive", "multi", "m", "version", "node", "sbom", "login", "logout",
)

var yarnBuiltins = set(
	"add", "install", "remove", "upgrade", "upgrade-interactive", "up", "init", "info",
	"why", "workspace", "workspaces", "create", "dlx", "exec", "bin", "cache",
	"config", "global", "link", "unlink", "pack", "publish", "version", "versions",
	"audit", "outdated", "list", "licenses", "login", "logout", "tag", "team", "set",
	"plugin", "node", "constraints", "explain", "npm", "patch", "patch-commit",
	"rebuild", "search", "stage", "unplug", "dedupe", "check", "import", "policies",
	"autoclean", "owner", "help", "generate-lock-entry", "self-update",
)
