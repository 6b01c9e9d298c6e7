package refs

import (
	"slices"
	"sort"
	"strings"
)

// Extract returns the references to this repository that text cites, in
// order, without overlaps. See the package documentation for what counts.
func Extract(text string) []Ref {
	var x extraction
	x.text = text
	prev := 0
	codes := codeSpans(text)
	for k, c := range codes {
		x.prose(prev, c.outer.start)
		prev = c.outer.end
		if rejectedBefore().MatchString(text[max(0, c.outer.start-24):c.outer.start]) {
			// "Use `npm run fmt:fix` (NOT `npm run lint:fix`)", "…
			// instead of `make lint`": the code named as what not to run
			// need not exist (a real instruction file's, issue 27). After
			// ", not" a sentence may go on to say it does (a red team's).
			continue
		}
		if r, ok := backtickedVersion(text, c); ok {
			x.cands = append(x.cands, r)
		}
		x.code(c.inner.start, c.inner.end, codes[k+1:])
	}
	x.prose(prev, len(text))
	out := x.result()
	if hasPath(out) {
		out = dropBranchNames(text, out)
	}
	if hasPath(out) {
		words := proseWords(text, codes, out)
		lower := lowered(words)
		markGone(text, lower, out)
		markRoutes(words, lower, out)
		out = dropNamedWords(lower, out)
	}
	return out
}

// dropBranchNames drops, in a sentence about branches, the names
// without an extension that start as a branch does: "Branch names start
// with the target version segment … `v2/fix/oauth-scope-union`" (a real
// instruction file's, issue 27). A path cited so is no file of the
// repository. Tried and withdrawn: a path after "Example:" or "e.g." (red
// teams' "Example: run `scripts/bootstrap.sh` once after cloning" and the
// reference sets' "(e.g., `references/hello-world`)" cite real files).
func dropBranchNames(text string, found []Ref) []Ref {
	branches := branchWord().FindAllStringIndex(text, -1)
	if branches == nil {
		return found
	}
	return slices.DeleteFunc(found, func(r Ref) bool {
		if r.Kind != Path {
			return false
		}
		first, _, _ := strings.Cut(r.Path, "/")
		if !branchStart(first) || strings.Contains(r.Path[strings.LastIndexByte(r.Path, '/')+1:], ".") {
			return false
		}
		for _, b := range branches {
			if b[1] <= r.Start && !sentenceEnds(text[b[1]:r.Start]) || r.End <= b[0] && !sentenceEnds(text[r.End:b[0]]) {
				return true
			}
		}
		return false
	})
}

// branchStart reports whether w starts a branch's name: a version
// ("v2") or a kind of work. A folder of another name in a sentence about
// branches (`bin/setup`, `.github/settings`) is a path (a red team's).
func branchStart(w string) bool {
	if len(w) >= 2 && (w[0] == 'v' || w[0] == 'V') && strings.Trim(w[1:], "0123456789.") == "" {
		return true
	}
	return branchPrefixes[strings.ToLower(w)]
}

// sentenceEnds reports whether s holds the end of a sentence.
func sentenceEnds(s string) bool {
	return strings.Contains(s, ". ") || strings.Contains(s, "; ") || strings.ContainsAny(s, "。\n")
}

// branchWord speaks of branches.
var branchWord = lazyRegexp(`(?i)\bbranch(?:es)?\b|\bbranch-?names?\b|ブランチ|分支|\bramas?\b|\bZweig|ветк[аиуе]`)

// rejectedBefore ends in the words that name an alternative not to use,
// right before its code span.
var rejectedBefore = lazyRegexp(`(?i)(?:\(\s*not|instead\s+of|rather\s+than|en\s+lugar\s+de|en\s+vez\s+de|em\s+vez\s+de|au\s+lieu\s+de|statt|вместо)\s+$`)

// extraction collects candidates; result keeps the ones that do not overlap
// a stronger one.
type extraction struct {
	text  string
	cands []Ref
	// folders indexes the candidates that are a single folder (`docs/`),
	// dropped when the entry lists branch prefixes (`feat/`, `fix/`).
	folders []int
	branchy bool
}

func (x *extraction) prose(a, b int) {
	if a >= b {
		return
	}
	s := x.text
	for _, t := range tokens(s, a, b) {
		if k := strings.Index(s[t.start:t.end], "mdc:"); k >= 0 && t.start+k > 0 && s[t.start+k-1] == '(' {
			// Cursor's rule links, [auth](mdc:src/rules/auth.mdc): the target
			// is a path from the repository's top, as a code span's is
			t.start += k + len("mdc:")
			if e := strings.IndexByte(s[t.start:t.end], ')'); e >= 0 {
				t.end = t.start + e
			}
			x.path(t, inCode)
			continue
		}
		x.path(trimToken(s, t), inProse)
	}
	ws := words(s, a, b)
	for k, w := range ws {
		if t := tools[s[w.start:w.end]]; t == Npm || t == Pnpm || t == Yarn || t == Bun {
			x.cands = append(x.cands, parseCommand(s, ws[k:min(k+6, len(ws))], "", true)...)
		}
	}
	x.cands = append(x.cands, versions(s, a, b, false)...)
}

// code reads the content s[a:b] of a code span; later are the code spans
// after it, where "`npm test` in `web/`" finds its folder.
func (x *extraction) code(a, b int, later []codeSpan) {
	s := x.text
	ws := words(s, a, b)
	if len(ws) == 0 {
		return
	}
	mode := inProse
	if len(ws) == 1 {
		if ts := tokens(s, ws[0].start, ws[0].end); len(ts) == 1 && ts[0] == ws[0] {
			mode = inCode
		}
	}
	cmds := commandLine(s, a, b)
	if len(cmds) > 0 && cmds[0].In == "" && !strings.HasPrefix(strings.TrimSpace(s[a:b]), "cd ") {
		if dir, ok := x.folderAfter(b, later); ok {
			for i := range cmds {
				cmds[i].In = dir
			}
		}
	}
	x.cands = append(x.cands, cmds...)
	roles := wordRoles(s, ws)
	program := runsProgram(s, ws)
	for _, t := range tokens(s, a, b) {
		switch roles[t.start] {
		case cdTarget:
			x.cdFolder(t)
		case plainWord:
			at := len(x.cands)
			x.path(trimToken(s, t), mode)
			if (len(cmds) > 0 || program && t.start > ws[0].start) && len(x.cands) > at {
				x.cands[at].Arg = true
			}
		}
	}
	x.cands = append(x.cands, versions(s, a, b, true)...)
}

// runsProgram reports whether the code span of words ws is a command line
// that runs a program by name (`uv run pytest tests/test_name.py`, `go
// test ./pkg/...`): the paths after the program's name are its arguments,
// as often an example of a call as files that exist. A span that starts
// with a path (`./scripts/release.sh --dry-run`) runs that file, which
// must exist.
func runsProgram(s string, ws []span) bool {
	if len(ws) < 2 {
		return false
	}
	first := s[ws[0].start:ws[0].end]
	for i := 0; i < len(first); i++ {
		c := first[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' && i > 0) {
			return false
		}
	}
	// A name with a file's extension (`release.sh --dry-run`) is a file
	// run, which must exist; `python3.12` is a program.
	return first[0] >= 'a' && first[0] <= 'z' && !notPrograms[first] && !hasExtension(first)
}

// notPrograms are first words of a code span that is code or prose, not a
// call: `import x from lib/old.ts`, `see src/x.ts`, and the shell's
// `source scripts/env.sh`, which reads a file that must exist.
var notPrograms = set("import", "export", "from", "see", "use", "include", "require", "source", "read", "open", "edit")

// wordRole is what a word of a command line is, by the word before it.
type wordRole uint8

const (
	plainWord wordRole = iota
	// outputWord: a file the command writes to (`> out.ts`, `| tee
	// log.txt`, `-o dist/app.js`, `--out-dir build/`), which is not one the
	// entry says exists.
	outputWord
	// cdTarget: the folder a `cd` changes into.
	cdTarget
)

// wordRoles gives the words of ws that are not plain words their role, by
// where they start; nil for a span of one word.
func wordRoles(s string, ws []span) map[int]wordRole {
	var out map[int]wordRole
	for k := 1; k < len(ws); k++ {
		role := plainWord
		switch prev := s[ws[k-1].start:ws[k-1].end]; prev {
		case ">", ">>", "1>", "2>", "&>", "tee", "-o", "--output", "--out", "--outfile",
			"--out-file", "--outdir", "--out-dir", "--outDir", "-O":
			role = outputWord
		case "cd":
			if k == 1 || isSeparator(s[ws[k-2].start:ws[k-2].end]) {
				role = cdTarget
			}
		}
		if role != plainWord {
			if out == nil {
				out = map[int]wordRole{}
			}
			out[ws[k].start] = role
		}
	}
	return out
}

// cdFolder reads the folder a `cd` in a code span changes into: whatever
// its name, it is a folder of the repository the command expects. Where a
// command after it is judged in that folder, the command's reference covers
// it and this one is dropped.
func (x *extraction) cdFolder(t span) {
	w := x.text[t.start:t.end]
	d, ok := folder(w)
	if !ok || d == "" || !hasLetter(d) {
		return
	}
	x.cands = append(x.cands, Ref{Kind: Path, Start: t.start, End: t.end,
		ValueStart: t.start, ValueEnd: t.start + len(strings.TrimSuffix(w, "/")), Path: d, Dir: true})
}

// reFolderAfter is what joins a command to the folder it runs in.
var reFolderAfter = lazyRegexp(`^\x60*\s+(?:in|inside|from|under|within)\s+(?:the\s+)?`)

// folderAfter reads "in `web/`" or "in web/" after the code span that
// ends at b (before its closing backticks).
func (x *extraction) folderAfter(b int, later []codeSpan) (string, bool) {
	s := x.text
	m := reFolderAfter().FindStringIndex(s[b:])
	if m == nil {
		return "", false
	}
	at := b + m[1]
	if len(later) > 0 && later[0].outer.start == at {
		w := strings.TrimSpace(s[later[0].inner.start:later[0].inner.end])
		if d, ok := folder(w); ok && d != "" && hasLetter(d) {
			return d, true
		}
		return "", false
	}
	// The folder's token, read no further than a folder name can reach.
	ts := tokens(s, at, min(len(s), at+256))
	if len(ts) == 0 || ts[0].start != at {
		return "", false
	}
	t := trimToken(s, ts[0])
	if p, ok := parsePath(s[t.start:t.end], inProse); ok && p.dir && p.line == 0 {
		return p.path, true
	}
	return "", false
}

func (x *extraction) path(t span, mode pathMode) {
	if t.start >= t.end {
		return
	}
	lead := 0
	p, ok := parsePath(x.text[t.start:t.end], mode)
	if p.branch {
		x.branchy = true
	}
	soft := false
	if !ok {
		if p, lead, soft, ok = softPath(x.text, t, mode); !ok {
			if t, ok = globFolder(x.text, t); ok {
				x.path(t, mode)
			}
			return
		}
	}
	if p.dir && !strings.Contains(p.path, "/") {
		x.folders = append(x.folders, len(x.cands))
	}
	x.cands = append(x.cands, Ref{Kind: Path, Start: t.start, End: t.end,
		ValueStart: t.start, ValueEnd: t.start + lead + p.valueLen, Path: p.path, Line: int32(p.line), Dir: p.dir, Soft: soft})
}

// priority orders kinds when candidates overlap: a command's words and a
// version's name@1.2 are not paths.
var byPriority = [...]Kind{Command, Version, Path}

// result keeps, kind by kind in priority order, each candidate that
// overlaps nothing kept before it, and returns them in order.
func (x *extraction) result() []Ref {
	cands := x.cands
	if x.branchy {
		for _, i := range x.folders {
			cands[i].Kind = 0
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].Start != cands[j].Start {
			return cands[i].Start < cands[j].Start
		}
		return cands[i].End > cands[j].End
	})
	var out []Ref // sorted by Start, never overlapping
	for _, kind := range byPriority {
		var add []Ref
		j, end := 0, -1
		for _, c := range cands {
			if c.Kind != kind || c.Start >= c.End || c.Start < end {
				continue
			}
			for j < len(out) && out[j].End <= c.Start {
				j++
			}
			if j < len(out) && out[j].Start < c.End {
				continue
			}
			add = append(add, c)
			end = c.End
		}
		out = mergeByStart(out, add)
	}
	return out
}

// mergeByStart merges two lists sorted by Start.
func mergeByStart(a, b []Ref) []Ref {
	if len(b) == 0 {
		return a
	}
	out := make([]Ref, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Start < b[0].Start {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}
