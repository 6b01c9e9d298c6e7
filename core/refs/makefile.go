package refs

import (
	"iter"
	"strings"
)

// parseMakefile reads a Makefile's targets: the names before the colon of
// each rule line, and the names a .PHONY line declares. A pattern rule
// (`%.o: %.c`), a target built from a variable (`$(BIN):`), an include, a
// line that is an expansion, a suffix rule (`.c.o:`) or a .DEFAULT rule let
// make build names the file does not spell out: the manifest is then Open.
func parseMakefile(src []byte) Manifest {
	var n names
	depth := 0 // inside define … endef
	for num, line := range makeLines(src) {
		if strings.HasPrefix(line, "\t") {
			continue // a recipe
		}
		line = strings.TrimSpace(cutMakeComment(line))
		word, rest := cutWord(line)
		for (word == "override" || word == "export" || word == "private") && rest != "" && rest[0] != ':' {
			word, rest = cutWord(rest)
		}
		if depth > 0 {
			switch word {
			case "define":
				depth++
			case "endef":
				depth--
			}
			continue
		}
		if expansionLine(line) {
			// a line that is an expansion may expand to rules:
			// "$(if $(MAKECMDGOALS),$(MAKECMDGOALS): %: _run)" hands every
			// goal to other makefiles, "$(eval $(call …))" writes rules
			n.m.Open = true
			continue
		}
		switch word {
		case "define":
			depth++
			continue
		case "include", "-include", "sinclude":
			n.m.Open = true
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "vpath", "undefine", "unexport":
			continue
		}
		targets, prereqs, ok := makeRule(line)
		if !ok {
			continue
		}
		for _, t := range strings.Fields(targets) {
			switch {
			case strings.ContainsAny(t, "%$"):
				n.m.Open = true
			case t == ".PHONY":
				for _, p := range strings.Fields(prereqs) {
					if !strings.ContainsAny(p, "%$") {
						n.add(p, num, true)
					}
				}
			case t == ".DEFAULT":
				n.m.Open = true // every name without a rule runs its recipe
			case specialTargets[t]:
			case suffixRule(t):
				n.m.Open = true
			default:
				n.add(t, num, false)
			}
		}
	}
	return n.m
}

// expansionLine reports whether a Makefile line is a whole expansion that
// may expand to rules: not one of the functions that only print or stop
// (`$(info …)`, `$(warning …)`, `$(error …)`).
func expansionLine(line string) bool {
	if !(strings.HasPrefix(line, "$(") && strings.HasSuffix(line, ")") || strings.HasPrefix(line, "${") && strings.HasSuffix(line, "}")) {
		return false
	}
	fn, _ := cutWord(line[2:])
	return fn != "info" && fn != "warning" && fn != "error"
}

// specialTargets are GNU make's built-in target names: they are settings,
// not targets a user runs.
var specialTargets = set(
	".PHONY", ".SUFFIXES", ".DEFAULT", ".PRECIOUS", ".INTERMEDIATE", ".NOTINTERMEDIATE",
	".SECONDARY", ".SECONDEXPANSION", ".DELETE_ON_ERROR", ".IGNORE", ".LOW_RESOLUTION_TIME",
	".SILENT", ".EXPORT_ALL_VARIABLES", ".NOTPARALLEL", ".ONESHELL", ".POSIX", ".WAIT",
	".MAKE", ".DEFAULT_GOAL", ".FEATURES", ".INCLUDE_DIRS", ".VARIABLES", ".EXTRA_PREREQS",
)

// suffixRule reports whether t is an old-fashioned suffix rule's target
// (`.c.o`, `.c`): short dotted suffixes, which make builds any file from.
func suffixRule(t string) bool {
	if !strings.HasPrefix(t, ".") {
		return false
	}
	parts := strings.Split(t[1:], ".")
	if len(parts) > 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 4 || strings.ToLower(p) != p {
			return false
		}
	}
	return len(parts) == 2
}

// makeLines yields the logical lines of a Makefile: a line ending in a
// backslash goes on on the next, and the number is the first line's.
func makeLines(src []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		var b strings.Builder
		first := 0
		for num, line := range lines(src) {
			if b.Len() == 0 && first == 0 {
				first = num
			}
			if cont, ok := strings.CutSuffix(line, `\`); ok && !strings.HasSuffix(cont, `\`) {
				b.WriteString(cont)
				b.WriteByte(' ')
				continue
			}
			b.WriteString(line)
			if !yield(first, b.String()) {
				return
			}
			b.Reset()
			first = 0
		}
		if first != 0 {
			yield(first, b.String())
		}
	}
}

// cutMakeComment drops a comment: from a "#" not escaped by a backslash.
func cutMakeComment(line string) string {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '#':
			return line[:i]
		}
	}
	return line
}

// cutWord splits off the first whitespace-separated word.
func cutWord(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t")
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

// makeRule splits a rule line at its colon into the targets and the
// prerequisites (up to a ";" recipe or a "|" order-only list). ok is false
// for a line that is no rule: an assignment (=, :=, ::=, ?=, +=, !=) or text
// without a colon. A colon or "=" inside $(…) or ${…} is not the rule's.
func makeRule(line string) (targets, prereqs string, ok bool) {
	depth := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '$' && i+1 < len(line) && (line[i+1] == '(' || line[i+1] == '{'):
			depth++
			i++
		case depth > 0 && (c == ')' || c == '}'):
			depth--
		case depth > 0:
		case c == '=':
			return "", "", false
		case c == ':':
			rest := line[i+1:]
			if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":=") || strings.HasPrefix(rest, "::=") {
				return "", "", false
			}
			rest = strings.TrimPrefix(rest, ":") // a double-colon rule
			targets = strings.TrimSuffix(strings.TrimSpace(line[:i]), "&")
			if targets == "" {
				return "", "", false
			}
			if j := strings.IndexAny(rest, ";|"); j >= 0 {
				rest = rest[:j]
			}
			// A target-specific variable (`t: VAR = x`) names t as a
			// target; its prerequisites are no names.
			if strings.Contains(rest, "=") {
				rest = ""
			}
			return targets, rest, true
		}
	}
	return "", "", false
}
