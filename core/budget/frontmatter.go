package budget

import (
	"bytes"
	"strings"
)

// frontMatter returns the `key: value` pairs of a file's YAML front matter
// (the block between a first line `---` and the next `---`), keys as
// written, values unquoted; nil when the file has none. Only the flat
// scalars the agents' rule files use are read.
func frontMatter(src []byte) map[string]string {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	first, rest, ok := bytes.Cut(src, []byte("\n"))
	if !ok || strings.TrimSpace(string(first)) != "---" {
		return nil
	}
	out := map[string]string{}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		l := strings.TrimRight(string(line), "\r")
		if strings.TrimSpace(l) == "---" {
			return out
		}
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
			continue // nested values, comments and list items: not a flat key
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		out[strings.TrimSpace(k)] = strings.Trim(v, `"'`)
	}
	return nil // never closed: not front matter
}

// frontMatterTrue: loaded at start when key is true.
func frontMatterTrue(key string) func([]byte) bool {
	return func(src []byte) bool { return strings.EqualFold(frontMatter(src)[key], "true") }
}

// frontMatterIs: loaded at start when key has that value.
func frontMatterIs(key, value string) func([]byte) bool {
	return func(src []byte) bool { return frontMatter(src)[key] == value }
}

// frontMatterIsOrAbsent: as frontMatterIs, and also when key is not set
// (the agent's default is value).
func frontMatterIsOrAbsent(key, value string) func([]byte) bool {
	return func(src []byte) bool {
		v, ok := frontMatter(src)[key]
		return !ok || v == value
	}
}

// noFrontMatterKey: loaded at start unless the front matter sets key (a
// rule scoped to some paths loads when those are read), with a value or a
// list under it.
func noFrontMatterKey(key string) func([]byte) bool {
	return func(src []byte) bool {
		_, ok := frontMatter(src)[key]
		return !ok
	}
}
