package crossfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/similar"
)

// Kinds of contradiction.
const (
	PackageManager = "package-manager"
	Version        = "version"
	Reversal       = "always-never"
	Value          = "value"
)

// Contradiction is a memory entry and an instruction line that tell an
// agent incompatible things.
type Contradiction struct {
	Entry, Line int // indexes of the entries and lines given to Find
	Kind        string
	// Says and Other are what each side says where they differ ("pnpm",
	// "npm"; "Node 18", "Node 20"), empty for a reversal.
	Says, Other string
}

// Message says it from the entry's side, naming the other place.
func (c Contradiction) Message(where string) string {
	switch c.Kind {
	case PackageManager:
		return fmt.Sprintf("this entry says %s, %s uses %s: an agent reading both gets two package managers", c.Says, where, c.Other)
	case Version:
		return fmt.Sprintf("this entry says %s, %s says %s", c.Says, where, c.Other)
	case Value:
		return fmt.Sprintf("this entry gives %s where %s gives %s for the same thing", c.Says, where, c.Other)
	}
	return "this entry reverses " + where
}

// Find returns the contradictions between memory entry texts and the lines
// of instruction files, at most one per entry and line, ordered by entry.
func Find(entries []string, lines []Line, th similar.Thresholds) []Contradiction {
	var out []Contradiction
	seen := map[[2]int]bool{}
	add := func(c Contradiction) {
		if k := [2]int{c.Entry, c.Line}; !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	es := make([]side, len(entries))
	var cands []int // the entries that name a package manager or a version
	for i, e := range entries {
		es[i] = sideOf(e, "")
		if es[i].pm.prefers != "" || len(es[i].vers) > 0 {
			cands = append(cands, i)
		}
	}
	ls := make([]side, len(lines))
	for j, l := range lines {
		ls[j] = sideOf(l.Text, l.Heading)
		if l.Code {
			ls[j].vers = nil
		}
		if ls[j].pm.prefers == "" && len(ls[j].vers) == 0 {
			continue
		}
		for _, i := range cands {
			e, a, b := entries[i], &es[i], &ls[j]
			compareVersions := func() {
				for _, x := range a.vers {
					for _, y := range b.vers {
						if x.Subject == y.Subject && !refs.Overlap(x, y) {
							add(Contradiction{Entry: i, Line: j, Kind: Version, Says: e[x.Start:x.End], Other: lines[j].Text[y.Start:y.End]})
						}
					}
				}
			}
			if !sameSet(a.scope, b.scope) {
				// A label ("**Frontend**: React 18") names the part of a
				// stack a version is of, which its subject names too: for
				// versions only headings and "in X" phrases scope.
				if sameSet(a.scopeNoLabel, b.scopeNoLabel) {
					compareVersions()
				}
				continue
			}
			if p, q := a.pm, b.pm; p.prefers != "" && q.prefers != "" && p.prefers != q.prefers && !q.positive[p.prefers] && !p.positive[q.prefers] &&
				(p.explicit || q.explicit || sharesJob(p, q)) {
				add(Contradiction{Entry: i, Line: j, Kind: PackageManager, Says: p.prefers, Other: q.prefers})
				continue
			}
			compareVersions()
		}
	}
	// Rules and values: the pairs similar finds between an entry and a
	// prose line, as the conflict rule finds them between entries.
	texts := make([]*similar.Text, 0, len(entries)+len(lines))
	for _, e := range entries {
		texts = append(texts, similar.Analyze(e))
	}
	prose := []int{}
	for j, l := range lines {
		if !l.Code {
			texts = append(texts, similar.Analyze(l.Text))
			prose = append(prose, j)
		}
	}
	for _, p := range similar.Pairs(texts, nil, th) {
		i, k := p.I, p.J
		if i >= len(entries) || k < len(entries) {
			continue // both entries, or both lines
		}
		j := prose[k-len(entries)]
		if !sameSet(scopeOf(entries[i], "", true), scopeOf(lines[j].Text, lines[j].Heading, true)) || changeWords(entries[i]) || changeWords(lines[j].Text) {
			continue
		}
		switch p.Verdict.Kind {
		case similar.KindReversal:
			if samePolarityAside(entries[i], lines[j].Text) && !rejects(lines[j].Heading) && !negativeHeading(lines[j].Heading) {
				add(Contradiction{Entry: i, Line: j, Kind: Reversal})
			}
		case similar.KindValue:
			says, other := differing(entries[i], lines[j].Text)
			if says != "" && other != "" {
				add(Contradiction{Entry: i, Line: j, Kind: Value, Says: says, Other: other})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Contradiction) int { return a.Entry - b.Entry })
	return out
}

// versions are the stated versions of a text that can contradict another:
// one per subject (a text naming two versions of one thing compares them,
// "upgrade Node 18 to 20"), none in a text about a change.
func versions(s string) []refs.Ref {
	if changeWords(s) {
		return nil
	}
	var out []refs.Ref
	count := map[string]int{}
	for _, r := range refs.Extract(s) {
		if r.Kind == refs.Version && !inLinkText(s, r.Start) && !countAfterColon(s, r) && !listOrRange(s, r) &&
			!rejects(clauseOf(s, r.Start)) { // "Node 18 is not supported", "Python 3.13 breaks numba"
			out = append(out, r)
			count[r.Subject]++
		}
	}
	return slices.DeleteFunc(out, func(r refs.Ref) bool { return count[r.Subject] > 1 })
}

// listOrRange: the version starts a list or a range ("Node 18, 20 and
// 22", "18 or 20", "18-22", "18 at minimum"), which Extract reads as its
// first version only.
func listOrRange(s string, r refs.Ref) bool {
	rest := strings.TrimLeft(s[r.End:], " ")
	if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "||") {
		return true
	}
	next := words(rest)
	// Another version of it next: "18, 20", "18-22", "18/20", "18 or 20",
	// "18 through 22" (a comma before another subject, "Java 17,
	// PostgreSQL", is a list of things, each with its version).
	for k, w := range next {
		if k > 1 {
			break
		}
		if w[0] >= '0' && w[0] <= '9' || w[0] == 'v' && len(w) > 1 && w[1] >= '0' && w[1] <= '9' {
			return k == 0 && (strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "/")) ||
				k == 1 && (next[0] == "or" || next[0] == "and" || next[0] == "through" || next[0] == "to")
		}
	}
	if len(next) > 0 {
		switch next[0] {
		case "minimum", "at", "or-later", "onwards", "upward", "upwards", "plus":
			return true
		}
	}
	return false
}

// clauseOf is the clause of s holding offset i: up to a ";", a full stop
// or a dash between words on either side.
func clauseOf(s string, i int) string {
	start, end := 0, len(s)
	for _, sep := range []string{"; ", ". ", " — ", " - ", " – "} {
		if k := strings.LastIndex(s[:i], sep); k >= 0 && k+len(sep) > start {
			start = k + len(sep)
		}
		if k := strings.Index(s[i:], sep); k >= 0 && i+k < end {
			end = i + k
		}
	}
	return s[start:end]
}

// rejects: the text says a version or a tool is not to be used or does not
// work ("not supported", "avoid", "breaks"): the other file's version or
// tool then agrees with it rather than contradicts it.
func rejects(s string) bool {
	for _, w := range words(s) {
		switch w {
		case "not", "no", "never", "avoid", "deprecated", "unsupported", "breaks", "broken", "break", "incompatible",
			"fails", "fail", "won't", "don't", "doesn't", "isn't", "aren't", "can't", "cannot", "without":
			return true
		}
	}
	return false
}

// countAfterColon: a bare number after "Subject:" ("Flutter: 12 module
// pages") is a count more often than a version, which is then written
// with a dot or a "v" ("Node: v20", "Python: 3.12").
func countAfterColon(s string, r refs.Ref) bool {
	between := s[r.Start:r.ValueStart]
	return strings.Contains(between, ":") && !strings.ContainsAny(r.Version, ".") && !strings.Contains(strings.ToLower(between), "v")
}

// inLinkText reports whether offset i of s is inside a Markdown link's text
// ("[React 19 APIs](#react-19)"): a table of contents names a section, it
// states no version.
func inLinkText(s string, i int) bool {
	open := strings.LastIndexByte(s[:i], '[')
	if open < 0 || strings.IndexByte(s[open:i], ']') >= 0 {
		return false
	}
	close := strings.IndexByte(s[i:], ']')
	return close >= 0 && strings.HasPrefix(s[i+close:], "](")
}

// changeWords: the text speaks of a change or of the past ("migrate from",
// "no longer", "was"), so two values in it, or a value against another
// file's, are history rather than a rule.
func changeWords(s string) bool {
	ws := words(s)
	for k, w := range ws {
		switch {
		case strings.HasPrefix(w, "upgrad"), strings.HasPrefix(w, "migrat"), strings.HasPrefix(w, "downgrad"):
			return true
		case w == "dropped", w == "previously", w == "formerly", w == "legacy", w == "replaced", w == "was", w == "were",
			w == "moved", w == "switched", w == "removed", w == "stopped", w == "had", w == "gone":
			return true
		case k+1 < len(ws) && (w == "no" && ws[k+1] == "longer" || w == "used" && ws[k+1] == "to"):
			return true
		}
	}
	return false
}

// side is what Find reads of an entry or a line once.
type side struct {
	pm   pmUse
	vers []refs.Ref
	// scope and scopeNoLabel are the parts of the project it is about
	// (scopes), with and without its label: two texts under different
	// scopes may both be right.
	scope, scopeNoLabel map[string]bool
}

func sideOf(text, heading string) side {
	return side{pm: packageManager(text), vers: versions(text), scope: scopeOf(text, heading, true), scopeNoLabel: scopeOf(text, heading, false)}
}

// scopeOf is scopes(text), with every scope word of the heading above it.
func scopeOf(text, heading string, labels bool) map[string]bool {
	out := scopes(text, labels)
	for _, w := range words(heading) {
		if scopeWords[w] {
			out[w] = true
		}
	}
	return out
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// scopes are the parts of a project a text says it is about: a scope word
// that labels the line ("Frontend: …", "**CI**: …") or follows "in", "for",
// "on", "inside" or "under" (a "the" between allowed). A scope word
// elsewhere is a name ("the Context API", "server-side rendering").
func scopes(s string, labels bool) map[string]bool {
	out := map[string]bool{}
	ws := words(s)
	label := strings.Index(s, ":")
	for k, w := range ws {
		if !scopeWords[w] {
			continue
		}
		prev := ""
		if k > 0 {
			prev = ws[k-1]
		}
		if prev == "the" && k > 1 {
			prev = ws[k-2]
		}
		switch {
		case prev == "in" || prev == "for" || prev == "on" || prev == "inside" || prev == "under" || prev == "cd":
			out[w] = true
		case labels && k < 2 && label > 0 && strings.Contains(strings.ToLower(s[:label]), w):
			out[w] = true
		}
	}
	return out
}

// scopeWords name a part of a project or a place things run.
var scopeWords = map[string]bool{
	"frontend": true, "backend": true, "client": true, "server": true, "api": true, "web": true, "mobile": true,
	"ios": true, "android": true, "docs": true, "documentation": true, "website": true, "site": true, "ci": true,
	"e2e": true, "production": true, "prod": true, "staging": true, "docker": true, "container": true,
	"example": true, "examples": true, "demo": true, "legacy": true,
	"packages": true, "app": true, "apps": true, "service": true, "services": true,
	"windows": true, "macos": true, "linux": true, "sdk": true, "electron": true, "markdown": true,
	"plugin": true, "plugins": true, "extension": true, "worker": true, "lambda": true, "cli": true,
}

// words are the lower-case words of s (letters, digits, '-', '.' inside).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r > 127)
	})
}

// differing are the words where two texts differ, one run each: what each
// says of the value they disagree on.
func differing(a, b string) (string, string) {
	wa, wb := words(a), words(b)
	i := 0
	for i < len(wa) && i < len(wb) && wa[i] == wb[i] {
		i++
	}
	j := 0
	for j < len(wa)-i && j < len(wb)-i && wa[len(wa)-1-j] == wb[len(wb)-1-j] {
		j++
	}
	da, db := wa[i:len(wa)-j], wb[i:len(wb)-j]
	if len(da) == 0 || len(db) == 0 || len(da) > 3 || len(db) > 3 {
		return "", ""
	}
	return strings.Join(da, " "), strings.Join(db, " ")
}

// polarityWords say whether or how firmly to do a thing.
var polarityWords = map[string]bool{"always": true, "never": true, "not": true, "no": true, "don't": true, "dont": true,
	"do": true, "must": true, "should": true, "avoid": true, "only": true, "t": true, "don": true}

// samePolarityAside reports whether two texts say the same words once the
// words of polarity are set aside: "Always use tabs" / "Never use tabs"
// reverse each other; "Always use Minitest" / "Always use Minitest, never
// RSpec" do not, whatever the count of signs says.
func samePolarityAside(a, b string) bool {
	strip := func(s string) []string {
		var out []string
		for _, w := range words(s) {
			if !polarityWords[w] {
				out = append(out, w)
			}
		}
		return out
	}
	return slices.Equal(strip(a), strip(b))
}

// negativeHeading: a heading that makes every line under it a thing not to
// do ("Don'ts", "Anti-patterns", "Pitfalls"): a line there says the
// opposite of what it says alone.
func negativeHeading(h string) bool {
	h = strings.ToLower(strings.ReplaceAll(h, "’", "'"))
	for _, w := range []string{"don't", "dont", "anti-pattern", "antipattern", "pitfall", "mistake", "forbidden", "prohibited", "avoid", "never"} {
		if strings.Contains(h, w) {
			return true
		}
	}
	return false
}
