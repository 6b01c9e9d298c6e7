package refs

import (
	"slices"
	"strings"
)

// Paths the text alone cannot tell from something else, which the
// repository decides (Ref.Soft), and the folder a glob names.

// softPath reads the token t as a path that parsePath refuses: one written
// from the root with a leading "/" (`/web/src/app.ts`), or two or more
// names with a slash and no extension that lack a usual first folder
// (`internal-packages/zodworker`, `references/hello-world`): both are Soft,
// for the root to decide. One written with "@/" (`@/openspec/AGENTS.md`)
// is this project's, from its root or from a source folder an alias
// names, and is judged as a path a file's last folders cite. A path after
// "/" or "@/" must name a file or a folder: `/api/users` is a route. lead
// is how many bytes of the token come before the path. In prose, where
// slashes join words ("client/server", "read/write"), the bare shape
// counts only in emphasis or when its first name is written as folders
// are (`internal-packages/`, `web_ui/`).
func softPath(s string, t span, mode pathMode) (p pathToken, lead int, soft, ok bool) {
	tok := s[t.start:t.end]
	switch {
	case strings.HasPrefix(tok, "@/"):
		lead = 2
	case strings.HasPrefix(tok, "/") && !strings.HasPrefix(tok, "//"):
		lead = 1
	}
	rest := tok[lead:]
	first, _, slashed := strings.Cut(rest, "/")
	if !slashed && lead == 0 && mode == inCode && folderName(rest) {
		// A code span of one bare word (`parser`): a crate, a command or
		// any identifier, unless the root had a folder of that name.
		return pathToken{path: rest, valueLen: len(rest)}, 0, true, true
	}
	if !slashed || lead == 1 && systemFolders[first] {
		return p, 0, false, false
	}
	if lead > 0 {
		p, ok = parsePath(rest, loose)
		last := p.path[strings.LastIndexByte(p.path, '/')+1:]
		return p, lead, lead == 1, ok && (p.dir || hasExtension(last) || knownFiles[last] || isDotfile(last))
	}
	if mode == inProse && !emphasised(s, t) && !strings.ContainsAny(first, "-_") {
		return p, 0, false, false
	}
	p, ok = parsePath(rest, loose)
	return p, 0, true, ok
}

// nameNouns are the words of an entry that make its bare words in code
// spans the names of something other than a folder: "the `simulator` and
// `whopper` tools" are still the tools' names after their folders moved.
var nameNouns = set(
	"tool", "tools", "command", "commands", "binary", "binaries", "executable", "cli",
	"function", "functions", "method", "methods", "class", "classes", "type", "types",
	"flag", "flags", "option", "options", "variable", "variables", "field", "fields",
	"table", "tables", "column", "columns", "branch", "branches", "tag", "tags",
	"feature", "features", "target", "targets", "script", "scripts", "task", "tasks",
	"job", "jobs", "step", "steps", "env", "key", "keys", "setting", "settings",
)

// dropNamedWords drops the Soft bare words of an entry whose prose says
// what its names are (nameNouns), and found's other references stay.
func dropNamedWords(lower []string, found []Ref) []Ref {
	loneWord := func(r Ref) bool { return r.Soft && !strings.Contains(r.Path, "/") }
	if !slices.ContainsFunc(found, loneWord) || !holdsPhrase(lower, nameNouns) {
		return found
	}
	return slices.DeleteFunc(found, loneWord)
}

// folderName reports whether w is written as a folder's name: letters,
// digits, "-" and "_", at least two of them, a letter among them.
func folderName(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return len(w) >= 2 && hasLetter(w)
}

// emphasised reports whether prose wraps t in Markdown emphasis (which
// trimToken took off): a name set apart, as a path often is.
func emphasised(s string, t span) bool {
	return t.start > 0 && t.end < len(s) && (s[t.start-1] == '*' || s[t.start-1] == '_') && s[t.end] == s[t.start-1]
}

// systemFolders are the machine's top folders: "/usr/local/bin" and
// "/etc/hosts" are never this repository's, whatever its root holds.
var systemFolders = set("usr", "etc", "var", "tmp", "opt", "home", "root", "dev", "proc", "sys",
	"mnt", "media", "srv", "run", "boot", "bin", "sbin", "lib", "lib64", "Users", "Applications",
	"Library", "System", "Volumes", "private", "nix", "snap", "workspace", "workspaces", "app", "data", "code")

// globFolder is the folder a glob's literal start names (`references/` of
// `references/*`, `apps/web/app/presenters/` of
// `apps/web/app/presenters/**/*.server.ts`): the files it matches may be
// any, but they live there. ok is false when the glob names no folder
// (`*.tmp`, `**/*.ts`, `v*.*.*`), and when it also holds a placeholder
// (`src/routes/{id}/*.ts`, `$DIR/*`): that names no one folder.
func globFolder(s string, t span) (span, bool) {
	tok := s[t.start:t.end]
	w := strings.IndexByte(tok, '*') // nearly every token has none: the cheap test first
	if q := strings.IndexByte(tok, '?'); q >= 0 && (w < 0 || q < w) {
		w = q
	}
	if w < 0 || strings.ContainsAny(tok, "<>{}[]$%…") {
		return t, false
	}
	// The wildcard starts a name: in `HTML/sécu**` the stars close an
	// emphasis.
	slash := strings.LastIndexByte(tok[:w], '/')
	if slash <= 0 || slash != w-1 {
		return t, false
	}
	return span{t.start, t.start + slash + 1}, true
}
