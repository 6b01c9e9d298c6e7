package budget

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Reader gives a workspace's files by slash path relative to its root.
type Reader interface {
	// ReadFile is a regular file's bytes; false when there is none.
	ReadFile(path string) ([]byte, bool)
	// List names what dir holds, sorted; nil when it is no folder.
	List(dir string) []string
}

// File is one file an agent loads.
type File struct {
	Path string // slash path relative to the workspace root
	Src  []byte
	// From is the file whose `@path` import brought it in; "" for a file
	// loaded by its name.
	From string
}

// Size is how much a text is.
type Size struct {
	Bytes  int `json:"bytes"`
	Lines  int `json:"lines"`
	Chars  int `json:"chars"`
	Tokens int `json:"tokens"`
}

// Measure is src's size in every unit.
func Measure(src []byte) Size {
	return Size{Bytes: len(src), Lines: lineCount(src), Chars: utf8.RuneCount(src), Tokens: EstimateTokens(src)}
}

func (s *Size) add(o Size) {
	s.Bytes += o.Bytes
	s.Lines += o.Lines
	s.Chars += o.Chars
	s.Tokens += o.Tokens
}

// lineCount counts lines as an editor numbers them: a final line without a
// line break counts, an empty one after the last break does not.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// Mark is a line in a file: where a limit is crossed.
type Mark struct {
	Path   string
	Offset int // the byte offset of the line's start
	Line   int // 0-based
}

// Use is one limit against what it applies to.
type Use struct {
	Agent *Agent
	Limit *Limit
	// Path is the file judged; for a Chain limit, every file loaded.
	Path string
	Used int // in Limit.Unit
	// Over is the first line the agent does not get in full; nil within
	// the limit. Dropped counts the lines from there on (in later files
	// too, for a chain).
	Over    *Mark
	Dropped int
	// Near is the line where 80 % of the limit is passed, set only while
	// the limit holds.
	Near *Mark
}

// nearShare is the share of a limit past which a use is reported before
// anything is cut.
const nearShare = 0.8

// Load is what one agent loads at the start of a session opened at the
// workspace root, and how it stands against the agent's limits.
type Load struct {
	Agent *Agent
	Files []File
	Size  Size
	Uses  []Use
}

// Detect lists the agents whose files the workspace holds, in Agents' order.
func Detect(r Reader) []*Agent {
	r = Once(r)
	var out []*Agent
	for _, a := range Agents {
		if slices.ContainsFunc(a.Detect, func(p string) bool { return present(r, p) }) {
			out = append(out, a)
		}
	}
	return out
}

// Once is r reading each file and listing each folder once: detection,
// the agents' loads and the instruction files of one check share folders
// and files (the root's AGENTS.md above all), which one call then reads
// from disk once.
func Once(r Reader) Reader {
	if _, ok := r.(*once); ok {
		return r
	}
	return &once{r: r, lists: map[string][]string{}, files: map[string]onceFile{}}
}

type once struct {
	r     Reader
	lists map[string][]string
	files map[string]onceFile
}

type onceFile struct {
	src []byte
	ok  bool
}

func (o *once) List(dir string) []string {
	names, ok := o.lists[dir]
	if !ok {
		names = o.r.List(dir)
		o.lists[dir] = names
	}
	return names
}

func (o *once) ReadFile(p string) ([]byte, bool) {
	f, ok := o.files[p]
	if !ok {
		f.src, f.ok = o.r.ReadFile(p)
		o.files[p] = f
	}
	return f.src, f.ok
}

// Markers are the first file or folder that detects each agent, for
// messages that list what memory-lsp looks for.
func Markers() []string {
	out := make([]string, len(Agents))
	for i, a := range Agents {
		out[i] = a.Detect[0]
	}
	return out
}

// present: p names a file the reader has, or with a trailing slash a
// folder holding something.
func present(r Reader, p string) bool {
	if dir, ok := strings.CutSuffix(p, "/"); ok {
		return len(r.List(dir)) > 0
	}
	dir, name := path.Split(p)
	return slices.Contains(r.List(strings.TrimSuffix(dir, "/")), name)
}

// LoadAt is what agent a loads at session start, measured and judged.
func LoadAt(a *Agent, r Reader) Load {
	l := Load{Agent: a}
	seen := map[string]bool{}
	chosen := false
	for _, s := range a.Startup {
		if a.FirstOnly && chosen {
			break
		}
		for _, p := range expand(r, s.Pattern) {
			src, ok := r.ReadFile(p)
			if !ok || seen[p] || (s.Always != nil && !s.Always(src)) {
				continue
			}
			chosen = true
			if a.FirstOnly && len(bytes.TrimSpace(src)) == 0 {
				// Codex takes the first AGENTS file present and drops it
				// when blank: nothing of that folder is loaded.
				continue
			}
			seen[p] = true
			l.Files = append(l.Files, File{Path: p, Src: src})
			l.Files = importsOf(r, l.Files, seen, p, src, a.ImportDepth)
		}
	}
	for _, f := range l.Files {
		l.Size.add(Measure(f.Src))
	}
	for i := range a.Limits {
		lim := &a.Limits[i]
		switch lim.Scope {
		case Chain:
			l.Uses = append(l.Uses, chainUse(a, lim, l.Files))
		case EachFile:
			for _, f := range l.Files {
				if lim.applies(f.Path) {
					l.Uses = append(l.Uses, fileUse(a, lim, f.Path, f.Src))
				}
			}
		}
	}
	return l
}

// instructionExtras are instruction files no agent's start loads but a
// team writes for agents: Copilot's path-specific instructions.
var instructionExtras = []string{".github/instructions/*.instructions.md"}

// InstructionPatterns are the patterns (Match's) of every agent's
// instruction files, by slash path from a workspace's root, each once, in
// Agents' order then the extras': what the editors' clients attach the
// language server to.
func InstructionPatterns() []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, a := range Agents {
		for _, s := range a.Startup {
			add(s.Pattern)
		}
	}
	for _, p := range instructionExtras {
		add(p)
	}
	return out
}

// IsInstructionFile reports whether rel, a slash path from a workspace's
// root, names one of an agent's instruction files (InstructionFiles' kind).
func IsInstructionFile(rel string) bool {
	return slices.ContainsFunc(InstructionPatterns(), func(p string) bool { return Match(p, rel) })
}

// InstructionFiles are the instruction files of every known agent that
// apply to the whole project — what the team tells every session besides
// `.memory/` — each once, in Agents' order: rules scoped to some paths
// (a Cursor rule with globs, a Copilot file applying to `*.ts`) and a
// person's own CLAUDE.local.md are left out.
func InstructionFiles(r Reader) []File {
	var out []File
	seen := map[string]bool{"CLAUDE.local.md": true}
	for _, a := range Agents {
		for _, s := range a.Startup {
			for _, p := range expand(r, s.Pattern) {
				if seen[p] {
					continue
				}
				src, ok := r.ReadFile(p)
				if !ok || s.Always != nil && !s.Always(src) {
					continue
				}
				seen[p] = true
				out = append(out, File{Path: p, Src: src})
			}
		}
	}
	return out
}

// ReadUses are the limits of a's file tool against one file it reads on
// demand (a `.memory/` file the pointer block sends it to).
func ReadUses(a *Agent, p string, src []byte) []Use {
	var out []Use
	for i := range a.Limits {
		if lim := &a.Limits[i]; lim.Scope == Read {
			out = append(out, fileUse(a, lim, p, src))
		}
	}
	return out
}

func (l *Limit) applies(p string) bool {
	return len(l.Files) == 0 || slices.ContainsFunc(l.Files, func(pat string) bool { return Match(pat, p) })
}

// Match reports whether slash path p matches pattern, in which "*" in the
// last element stands for any run of characters other than "/".
func Match(pattern, p string) bool {
	ok, err := path.Match(pattern, p)
	return err == nil && ok
}

// expand lists the files a Startup pattern names, sorted.
func expand(r Reader, pattern string) []string {
	dir, name := path.Split(pattern)
	if !strings.Contains(name, "*") {
		return []string{pattern}
	}
	dir = strings.TrimSuffix(dir, "/")
	var out []string
	for _, n := range r.List(dir) {
		if ok, _ := path.Match(name, n); ok {
			out = append(out, path.Join(dir, n))
		}
	}
	return out
}

// fileUse judges one file against a limit of its own.
func fileUse(a *Agent, lim *Limit, p string, src []byte) Use {
	u := Use{Agent: a, Limit: lim, Path: p, Used: measureIn(src, lim.Unit)}
	off := 0
	if u.Used > lim.Max && lim.Beyond != Skip {
		off = offsetPast(src, lim.Unit, lim.Max)
	}
	if u.Used > lim.Max && (lim.Beyond == Skip || !blank(src[off:])) {
		u.Over = markAt(p, src, off)
		u.Dropped = lineCount(src) - u.Over.Line
	} else if float64(u.Used) >= nearShare*float64(lim.Max) {
		u.Near = markAt(p, src, offsetPast(src, lim.Unit, int(nearShare*float64(lim.Max))))
	}
	return u
}

// chainUse judges the files loaded together against one budget, spent in
// load order as Codex spends project_doc_max_bytes: the file that crosses
// it keeps its head, every later one is dropped.
func chainUse(a *Agent, lim *Limit, files []File) Use {
	u := Use{Agent: a, Limit: lim}
	left, nearLeft := lim.Max, lim.Max-int(nearShare*float64(lim.Max))
	for _, f := range files {
		n := measureIn(f.Src, lim.Unit)
		u.Used += n
		switch {
		case u.Over != nil:
			u.Dropped += lineCount(f.Src)
		case left == 0 && blank(f.Src):
		case left == 0 || n > left && !blank(f.Src[offsetPast(f.Src, lim.Unit, left):]):
			u.Over = markAt(f.Path, f.Src, offsetPast(f.Src, lim.Unit, left))
			u.Dropped = lineCount(f.Src) - u.Over.Line
		default:
			// Within the budget, or past it by line breaks and spaces only:
			// nothing the agent reads is lost in this file.
			if u.Near == nil && n > left-nearLeft && left > nearLeft {
				u.Near = markAt(f.Path, f.Src, offsetPast(f.Src, lim.Unit, left-nearLeft))
			}
			left = max(left-n, 0)
		}
	}
	if u.Over != nil {
		u.Near = nil
	}
	return u
}

// blank: nothing but spaces and line breaks.
func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

func measureIn(src []byte, u Unit) int {
	switch u {
	case Bytes:
		return len(src)
	case Lines:
		return lineCount(src)
	case Chars:
		return utf8.RuneCount(src)
	}
	return EstimateTokens(src)
}

// offsetPast is the offset in src just past its first n units: where a
// limit of n cuts. For lines and tokens it is a line start.
func offsetPast(src []byte, u Unit, n int) int {
	switch u {
	case Bytes:
		return min(n, len(src))
	case Chars:
		off := 0
		for i := 0; i < n && off < len(src); i++ {
			_, size := utf8.DecodeRune(src[off:])
			off += size
		}
		return off
	case Lines:
		off := 0
		for i := 0; i < n && off < len(src); i++ {
			j := bytes.IndexByte(src[off:], '\n')
			if j < 0 {
				return len(src)
			}
			off += j + 1
		}
		return off
	}
	var t tokenizer
	off := 0
	for off < len(src) {
		end := len(src)
		if j := bytes.IndexByte(src[off:], '\n'); j >= 0 {
			end = off + j + 1
		}
		t.add(src[off:end])
		if t.count() > n {
			return off
		}
		off = end
	}
	return off
}

func markAt(p string, src []byte, off int) *Mark {
	ix := text.NewIndex(src)
	line := ix.Line(off)
	return &Mark{Path: p, Offset: ix.LineStart(line), Line: line}
}

// importsOf appends, after the file at p, the files its `@path` imports
// bring in (depth hops deep), each once.
func importsOf(r Reader, files []File, seen map[string]bool, p string, src []byte, depth int) []File {
	if depth <= 0 {
		return files
	}
	for _, target := range Imports(src) {
		q := path.Clean(path.Join(path.Dir(p), target))
		if strings.HasPrefix(q, "../") || q == ".." || seen[q] {
			continue
		}
		isrc, ok := r.ReadFile(q)
		if !ok {
			continue
		}
		seen[q] = true
		files = append(files, File{Path: q, Src: isrc, From: p})
		files = importsOf(r, files, seen, q, isrc, depth-1)
	}
	return files
}

// Imports are the `@path` imports of a Markdown file as Claude Code and
// Gemini CLI read them: an "@" at the start of a word followed by a
// relative path (`@README`, `@docs/style.md`), outside code spans and
// code blocks. Paths from the home folder or absolute ones are not the
// workspace's and are left out; a word that names no file ("@mention") is
// dropped by the caller, which finds nothing to read.
func Imports(src []byte) []string {
	var out []string
	fenced := false
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	for _, line := range bytes.Split(src, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("    ")) || bytes.HasPrefix(line, []byte("\t")) {
			continue // an indented code block (or a deep list item: no import there)
		}
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		inCode := false
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c == '`' {
				inCode = !inCode
				continue
			}
			if c != '@' || inCode || (i > 0 && !isSpace(line[i-1]) && line[i-1] != '(') {
				continue
			}
			j := i + 1
			for j < len(line) && !isSpace(line[j]) && !strings.ContainsRune("`)\"'<>,;", rune(line[j])) {
				j++
			}
			target := strings.TrimRight(string(line[i+1:j]), ".:")
			i = j
			if target == "" || strings.HasPrefix(target, "~") || strings.HasPrefix(target, "/") {
				continue
			}
			out = append(out, target)
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// Severity is how serious a use is, in the rules' order: 0 an error (the
// agent silently loses lines), 1 a warning, -1 nothing to report.
func (u Use) Severity() int {
	switch {
	case u.Over != nil && u.Limit.Part == "" && (u.Limit.Beyond == Cut || u.Limit.Beyond == Skip):
		return 0
	case u.Over != nil:
		return 1
	case u.Near != nil && u.Limit.Part == "" && (u.Limit.Beyond == Cut || u.Limit.Beyond == Skip):
		return 1
	}
	return -1
}

// Message says, for the line a finding is put on, what the agent does.
func (u Use) Message() string {
	lim, name := u.Limit, u.Agent.Name
	if lim.Part != "" {
		name += " " + lim.Part
	}
	used := Amount(u.Used, lim.Unit)
	if lim.Unit == Tokens {
		used = "about " + used // an estimate (EstimateTokens)
	}
	switch {
	case u.Over != nil && lim.Beyond == Skip:
		return fmt.Sprintf("%s %s: this file has %s, so it is not loaded at all", name, lim.What, used)
	case u.Over != nil && lim.Beyond == Pages && lim.Unit == Tokens:
		return fmt.Sprintf("%s %s: this file has %s, so an agent must read it in parts, and a first part from the top ends before this line", name, lim.What, used)
	case u.Over != nil && lim.Beyond == Pages:
		return fmt.Sprintf("%s %s: this file has %s, so an agent told to read it does not get %s in one read", name, lim.What, used, thisLine(u.Dropped))
	case u.Over != nil && lim.Beyond == Unstated:
		return fmt.Sprintf("%s %s: this file has %s, so from this line on it may not reach the agent", name, lim.What, used)
	case u.Over != nil:
		return fmt.Sprintf("%s %s: %s, so it drops %s without a word", name, lim.What, u.judged(used), thisLine(u.Dropped))
	case u.Near != nil:
		return fmt.Sprintf("%s %s: %s (%d %% of it), and what goes past the limit is dropped without a word", name, lim.What, u.judged(used), u.Used*100/lim.Max)
	}
	return fmt.Sprintf("%s %s: %s", name, lim.What, used)
}

// judged says how much a use measured, for messages.
func (u Use) judged(used string) string {
	if u.Limit.Scope == Chain {
		return "the files it loads come to " + used
	}
	return "this file has " + used
}

// Amount writes n of unit u as messages do ("32 KiB", "2,000 lines",
// "25,000 tokens").
func Amount(n int, u Unit) string {
	switch {
	case u == Bytes && n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case u == Bytes && n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return text.Thousands(n) + " " + u.String()
}

// thisLine names the line a finding is on and the dropped lines after it
// (dropped counts it too).
func thisLine(dropped int) string {
	if dropped <= 1 {
		return "this line"
	}
	return "this line and the " + plural(dropped-1, "line") + " after it"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return text.Thousands(n) + " " + word + "s"
}
