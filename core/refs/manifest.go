package refs

import (
	"bytes"
	"iter"
	"slices"
	"strings"
	"unicode"
)

// The manifests that list what a tool runs, read from their bytes. Each
// reader is a line reader, not a full parser of its language: it finds the
// names defined at the top level and, when the file may define names it does
// not spell out (a pattern rule, an include, an import), says so with Open,
// so that a name missing from the list is no proof of a stale command. A
// reader never fails: text it cannot read gives fewer names, never an error.

// ManifestNames are the file names tool's manifest goes by in a folder, in
// the order the tool looks for them.
func ManifestNames(tool Tool) []string {
	switch tool {
	case Make:
		return []string{"GNUmakefile", "makefile", "Makefile"}
	case Npm, Pnpm, Yarn, Bun:
		return []string{"package.json"}
	case Just:
		return []string{"justfile", "Justfile", "JUSTFILE", ".justfile"}
	case Task:
		return []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
			"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"}
	}
	return nil
}

// IsManifest reports whether a file of that base name is some tool's
// manifest (ManifestNames).
func IsManifest(base string) bool {
	for t := Make; t <= Task; t++ {
		if slices.Contains(ManifestNames(t), base) {
			return true
		}
	}
	return false
}

// ParseManifest reads the names tool's manifest src defines, with the line
// of each. File is left for the caller. ok is false when src cannot be read
// as such a manifest at all (a package.json that is not a JSON object).
func ParseManifest(tool Tool, src []byte) (m Manifest, ok bool) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	switch tool {
	case Make:
		return parseMakefile(src), true
	case Npm, Pnpm, Yarn, Bun:
		return parsePackageScripts(src)
	case Just:
		return parseJustfile(src), true
	case Task:
		return parseTaskfile(src), true
	}
	return Manifest{}, false
}

// names collects a manifest's names in order of first definition.
type names struct {
	m  Manifest
	at map[string]int // name → index in m.Names
	// declaredOnly are the names only declared so far (a .PHONY list),
	// whose line a definition that follows replaces.
	declaredOnly map[int]bool
}

// add records name defined (or, with declared, only declared) on line.
func (n *names) add(name string, line int, declared bool) {
	if strings.ContainsFunc(name, unicode.IsControl) {
		return // no name a person runs; printed, it would reach the terminal raw (a red team's)
	}
	if n.at == nil {
		n.at, n.declaredOnly = map[string]int{}, map[int]bool{}
	}
	if i, ok := n.at[name]; ok {
		if !declared && n.declaredOnly[i] {
			n.m.Lines[i] = line
			delete(n.declaredOnly, i)
		}
		return
	}
	i := len(n.m.Names)
	n.at[name] = i
	n.m.Names = append(n.m.Names, name)
	n.m.Lines = append(n.m.Lines, line)
	if declared {
		n.declaredOnly[i] = true
	}
}

// lines yields src's lines, 1-based, without their line ending.
func lines(src []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		n := 0
		for len(src) > 0 {
			n++
			line := src
			if i := bytes.IndexByte(src, '\n'); i >= 0 {
				line, src = src[:i], src[i+1:]
			} else {
				src = nil
			}
			if !yield(n, strings.TrimSuffix(string(line), "\r")) {
				return
			}
		}
	}
}

// indentOf is the number of leading spaces and tabs of line.
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}
