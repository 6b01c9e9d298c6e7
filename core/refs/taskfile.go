package refs

import "strings"

// parseTaskfile reads a Taskfile's tasks: the keys of the top-level
// `tasks:` mapping, read line by line by their indentation, and each task's
// `aliases`. Includes (`includes:`), wildcard tasks (`start:*`), a merge
// key or a mapping written inline let task run names the lines do not
// show: the manifest is then Open.
func parseTaskfile(src []byte) Manifest {
	var n names
	inTasks := false
	taskIndent, fieldIndent := -1, -1 // indent of the task names, of a task's fields
	inAliases, aliasIndent := false, -1
	for num, raw := range lines(src) {
		line := cutYAMLComment(raw)
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...") {
			continue
		}
		indent := indentOf(line)
		body := strings.TrimSpace(line)
		if indent == 0 {
			key, value, ok := yamlKey(body)
			inTasks = ok && key == "tasks"
			taskIndent, fieldIndent, inAliases = -1, -1, false
			switch {
			case ok && key == "includes" && value != "{}" && value != "[]":
				n.m.Open = true
			case inTasks && value != "":
				inTasks = false
				n.m.Open = value != "{}" // a flow mapping this reader does not read
			}
			continue
		}
		if !inTasks {
			continue
		}
		if taskIndent < 0 {
			taskIndent = indent
		}
		switch {
		case indent < taskIndent:
			inTasks = false // a malformed outdent: stop rather than guess
		case indent == taskIndent:
			fieldIndent, inAliases = -1, false
			key, _, ok := yamlKey(body)
			switch {
			case !ok:
			case key == "<<" || strings.Contains(key, "*"):
				n.m.Open = true
			default:
				n.add(key, num, false)
			}
		default:
			if fieldIndent < 0 {
				fieldIndent = indent
			}
			if inAliases && indent > fieldIndent {
				if aliasIndent < 0 {
					aliasIndent = indent
				}
				if item, ok := strings.CutPrefix(body, "- "); ok && indent == aliasIndent {
					addAlias(&n, item, num)
				}
				continue
			}
			inAliases = false
			if indent != fieldIndent {
				continue
			}
			key, value, ok := yamlKey(body)
			if !ok || key != "aliases" {
				continue
			}
			if list, ok := strings.CutPrefix(value, "["); ok {
				for item := range strings.SplitSeq(strings.TrimSuffix(list, "]"), ",") {
					addAlias(&n, item, num)
				}
			} else if value == "" {
				inAliases, aliasIndent = true, -1
			}
		}
	}
	return n.m
}

func addAlias(n *names, item string, line int) {
	if a := unquoteYAML(strings.TrimSpace(item)); a != "" {
		n.add(a, line, false)
	}
}

// yamlKey reads `key: value` (the key plain or quoted); ok is false for a
// line that is no mapping key (a list item, a bare scalar).
func yamlKey(body string) (key, value string, ok bool) {
	if body == "" || body[0] == '-' && (len(body) == 1 || body[1] == ' ') {
		return "", "", false
	}
	if q := body[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(body[1:], q)
		if end < 0 {
			return "", "", false
		}
		rest := body[end+2:]
		if !strings.HasPrefix(rest, ":") || len(rest) > 1 && rest[1] != ' ' && rest[1] != '\t' {
			return "", "", false
		}
		return body[1 : end+1], strings.TrimSpace(rest[1:]), true
	}
	// A plain key ends at the first ": " or at a ":" closing the line;
	// `build:web:` is the key "build:web".
	for i := 0; i < len(body); i++ {
		if body[i] == ':' && (i+1 == len(body) || body[i+1] == ' ' || body[i+1] == '\t') {
			if i == 0 {
				return "", "", false
			}
			return strings.TrimSpace(body[:i]), strings.TrimSpace(body[i+1:]), true
		}
	}
	return "", "", false
}

// unquoteYAML strips a scalar's quotes.
func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// cutYAMLComment drops a comment: a "#" at the start or after a space,
// outside quotes.
func cutYAMLComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ':' || line[i-1] == '[' || line[i-1] == ',' || line[i-1] == '-' {
				quote = c
			}
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}
