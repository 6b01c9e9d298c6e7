package refs

import (
	"path"
	"strings"
)

// A CI workflow is where some versions are pinned and nowhere else: the
// linter a project runs (golangci-lint's action and its `version: v2.9`),
// the runtimes of a test matrix (`node-version: [20, 22]`). A project whose
// manifests pin a subject has said what it runs; the workflows are read for
// the subjects nothing else pins (Repo.Pins).

// WorkflowFile reports whether the file at p (slash-separated, from the
// repository's top) is a GitHub Actions workflow.
func WorkflowFile(p string) bool {
	dir, name := path.Split(p)
	return dir == ".github/workflows/" && (strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml"))
}

// setupKeys are the inputs of the setup actions that name a runtime's
// version, by the subject they pin.
var setupKeys = map[string]string{
	"node-version": "node", "go-version": "go", "python-version": "python",
	"java-version": "java", "ruby-version": "ruby", "bun-version": "bun",
	"deno-version": "deno", "dotnet-version": "dotnet", "pnpm-version": "pnpm",
}

// versionOfAction names what an action's plain `version` input pins, by the
// action (owner/name, lower case).
var versionOfAction = map[string]string{
	"golangci/golangci-lint-action": "golangci-lint",
	"pnpm/action-setup":             "pnpm",
	"astral-sh/setup-uv":            "uv",
	"oven-sh/setup-bun":             "bun",
	"denoland/setup-deno":           "deno",
	"goreleaser/goreleaser-action":  "goreleaser",
}

var (
	reUses     = lazyRegexp(`^\s*(?:-\s+)?uses:\s*['"]?([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)[^@'"\s]*@`)
	reStepItem = lazyRegexp(`^\s*-\s`)
	reKeyValue = lazyRegexp(`^\s*(?:-\s+)?([A-Za-z][A-Za-z0-9_-]*):\s*(.*?)\s*$`)
	reListItem = lazyRegexp(`^\s*-\s+(.*?)\s*$`)
)

// ParseWorkflowPins reads the versions a workflow at file pins: the setup
// actions' version inputs (also as a matrix list, inline or one item a
// line) and the plain `version` input of the actions versionOfAction
// knows. Expressions (`${{ matrix.node }}`), files (`go-version-file`) and
// words (`lts/*`, `stable`) pin nothing.
func ParseWorkflowPins(file string, src []byte) []Pinned {
	var out []Pinned
	action := ""
	listOf, listIndent := "", -1 // a key whose value is a list of the next lines
	for num, line := range lines(src) {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if listOf != "" {
			if m := reListItem().FindStringSubmatch(line); m != nil && indent >= listIndent {
				out = appendWorkflowPin(out, listOf, m[1], file, num)
				continue
			}
			listOf = ""
		}
		if m := reUses().FindStringSubmatch(line); m != nil {
			action = strings.ToLower(m[1])
		} else if reStepItem().MatchString(line) {
			action = ""
		}
		m := reKeyValue().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		subject := setupKeys[m[1]]
		if m[1] == "version" {
			subject = versionOfAction[action]
		}
		if subject == "" {
			continue
		}
		value := m[2]
		switch {
		case value == "":
			listOf, listIndent = subject, indent
		case strings.HasPrefix(value, "[") && strings.HasSuffix(value, "]"):
			for _, v := range strings.Split(value[1:len(value)-1], ",") {
				out = appendWorkflowPin(out, subject, v, file, num)
			}
		default:
			out = appendWorkflowPin(out, subject, value, file, num)
		}
	}
	return out
}

// appendWorkflowPin adds the pin a workflow value states, unquoted, when it
// is a version: it starts with a digit, or "v" and a digit.
func appendWorkflowPin(out []Pinned, subject, value, file string, line int) []Pinned {
	v := strings.Trim(strings.TrimSpace(value), `'"`)
	bare := strings.TrimPrefix(v, "v")
	if bare == "" || !isDigit(bare[0]) || strings.Contains(v, "${{") {
		return out
	}
	return append(out, Pinned{subject, Pin{Value: v, File: file, Line: line}})
}
