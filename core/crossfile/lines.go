// Package crossfile finds where a memory entry and a line of the team's
// other agent instruction files (CLAUDE.md, AGENTS.md, Cursor, Copilot,
// Windsurf, Kiro, Gemini files) tell an agent incompatible things: another
// package manager, a version neither admits, a rule reversed or a value
// changed. Precision first: a pair it cannot read as the same subject and
// scope is not reported. It reads no disk.
package crossfile

import (
	"bytes"
	"strings"
)

// Line is one line of an instruction file that a contradiction can be read
// from.
type Line struct {
	// Path is the file's path from the workspace root, slash-separated.
	Path string
	// Line is the 0-based line number; Start and End its text's bytes in
	// the file (list markers and quotes left out).
	Line       int
	Start, End int
	Text       string
	// Code: the line is inside a fenced code block (a command, not prose).
	Code bool
	// Heading is the text of the nearest heading above it.
	Heading string
}

// managedBlocks are the blocks tools keep in instruction files to point
// agents at memory: what they say is the tool's, not the team's.
var managedBlocks = []string{"hacklm-memory", "memory-lsp"}

// Lines are the lines of an instruction file that say something: front
// matter, headings, comments, blank lines and the blocks memory tools manage
// are left out.
func Lines(path string, src []byte) []Line {
	var out []Line
	heading := ""
	fenced, managed, comment := false, false, false
	off := 0
	n := 0
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines) > 0 && strings.TrimSpace(string(lines[0])) == "---" {
		// front matter: up to the closing ---
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(string(lines[i])) == "---" {
				for _, l := range lines[:i+1] {
					off += len(l)
				}
				lines, n = lines[i+1:], i+1
				break
			}
		}
	}
	for i, raw := range lines {
		start := off
		off += len(raw)
		t := strings.TrimRight(string(raw), "\r\n")
		trimmed := strings.TrimSpace(t)
		switch {
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fenced = !fenced
			continue
		case managedMarker(trimmed, "start"):
			managed = true
			continue
		case managedMarker(trimmed, "end"):
			managed = false
			continue
		case managed, trimmed == "":
			continue
		case comment || strings.HasPrefix(trimmed, "<!--"):
			comment = !strings.Contains(trimmed, "-->")
			continue
		case !fenced && strings.HasPrefix(trimmed, "#"):
			heading = strings.TrimSpace(strings.TrimLeft(trimmed, "#"))
			continue
		case !fenced && strings.Trim(trimmed, "|-: ") == "":
			continue // a table's rule or a thematic break
		}
		body := t
		lead := len(t) - len(strings.TrimLeft(t, " \t"))
		body = body[lead:]
		if !fenced {
			for _, p := range []string{"- [ ] ", "- [x] ", "- ", "* ", "+ ", "> "} {
				if strings.HasPrefix(body, p) {
					body, lead = body[len(p):], lead+len(p)
					break
				}
			}
			if k := orderedMarker(body); k > 0 {
				body, lead = body[k:], lead+k
			}
		}
		lead += len(body) - len(strings.TrimLeft(body, " \t"))
		body = strings.TrimSpace(body)
		if body == "" {
			continue
		}
		s := start + lead
		out = append(out, Line{Path: path, Line: n + i, Start: s, End: s + len(body), Text: body, Code: fenced, Heading: heading})
	}
	return out
}

// managedMarker reports whether t is `<!-- NAME:start -->` (or :end) of a
// block a memory tool manages.
func managedMarker(t, which string) bool {
	for _, name := range managedBlocks {
		if t == "<!-- "+name+":"+which+" -->" {
			return true
		}
	}
	return false
}

// orderedMarker is the length of a "1. " or "1) " list marker at the start
// of s, 0 if none.
func orderedMarker(s string) int {
	i := 0
	for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return i + 2
	}
	return 0
}
