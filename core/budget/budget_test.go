package budget

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// mapReader is a workspace in memory: slash paths to contents.
type mapReader map[string]string

func (m mapReader) ReadFile(p string) ([]byte, bool) {
	s, ok := m[p]
	return []byte(s), ok
}

func (m mapReader) List(dir string) []string {
	var out []string
	for p := range m {
		rel, ok := p, dir == ""
		if !ok {
			rel, ok = strings.CutPrefix(p, dir+"/")
		}
		if name, _, _ := strings.Cut(rel, "/"); ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// lines makes n lines of width bytes each, line breaks included.
func lines(n, width int) string {
	return strings.Repeat(strings.Repeat("x", width-1)+"\n", n)
}

func TestCodexChainIsByteExact(t *testing.T) {
	const max = 32 << 10
	codex := ByID("codex")
	for _, tc := range []struct {
		name     string
		files    mapReader
		over     *Mark
		dropped  int
		near     bool
		loaded   []string
		severity int
	}{
		{name: "at the limit", files: mapReader{"AGENTS.md": lines(max/64, 64)}, near: true, loaded: []string{"AGENTS.md"}, severity: 1},
		{name: "one byte over", files: mapReader{"AGENTS.md": lines(max/64, 64) + "y"},
			over: &Mark{Path: "AGENTS.md", Offset: max, Line: max / 64}, dropped: 1, loaded: []string{"AGENTS.md"}, severity: 0},
		{name: "cut inside a line", files: mapReader{"AGENTS.md": lines(max/64+3, 64)},
			over: &Mark{Path: "AGENTS.md", Offset: max, Line: max / 64}, dropped: 3, loaded: []string{"AGENTS.md"}, severity: 0},
		{name: "mid-line byte", files: mapReader{"AGENTS.md": strings.Repeat("x", max-10) + "\n" + strings.Repeat("y", 20) + "\nz\n"},
			over: &Mark{Path: "AGENTS.md", Offset: max - 9, Line: 1}, dropped: 2, loaded: []string{"AGENTS.md"}, severity: 0},
		{name: "under 80 %", files: mapReader{"AGENTS.md": lines(10, 64)}, loaded: []string{"AGENTS.md"}, severity: -1},
		{name: "the override wins", files: mapReader{"AGENTS.override.md": "short\n", "AGENTS.md": lines(max/64+3, 64)}, loaded: []string{"AGENTS.override.md"}, severity: -1},
		{name: "a blank override loads nothing", files: mapReader{"AGENTS.override.md": " \n", "AGENTS.md": lines(max/64+3, 64)}, severity: -1},
		{name: "only the final line break past it", files: mapReader{"AGENTS.md": lines(max/64, 64) + "\n"}, near: true, loaded: []string{"AGENTS.md"}, severity: 1},
		{name: "only CRLF and spaces past it", files: mapReader{"AGENTS.md": lines(max/64, 64) + " \r\n"}, near: true, loaded: []string{"AGENTS.md"}, severity: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := LoadAt(codex, tc.files)
			var got []string
			for _, f := range l.Files {
				got = append(got, f.Path)
			}
			if !slices.Equal(got, tc.loaded) {
				t.Fatalf("loaded %v, want %v", got, tc.loaded)
			}
			if len(l.Uses) != 1 {
				t.Fatalf("%d uses, want the one chain limit", len(l.Uses))
			}
			u := l.Uses[0]
			if (u.Over == nil) != (tc.over == nil) || u.Over != nil && *u.Over != *tc.over {
				t.Errorf("over %+v, want %+v", u.Over, tc.over)
			}
			if u.Dropped != tc.dropped {
				t.Errorf("dropped %d, want %d", u.Dropped, tc.dropped)
			}
			if (u.Near != nil) != tc.near {
				t.Errorf("near %+v, want %v", u.Near, tc.near)
			}
			if u.Severity() != tc.severity {
				t.Errorf("severity %d, want %d (%s)", u.Severity(), tc.severity, u.Message())
			}
		})
	}
}

func TestChainDropsTheFilesAfterTheCut(t *testing.T) {
	// Two chained files under one budget: the second crosses it and the
	// third is dropped whole. Codex has one file per folder at the root,
	// so the chain is built by hand here.
	lim := &Limit{Max: 100, Unit: Bytes, Scope: Chain, Beyond: Cut}
	a := &Agent{Name: "A", Limits: []Limit{*lim}}
	files := []File{{Path: "a", Src: []byte(lines(5, 10))}, {Path: "b", Src: []byte(lines(6, 10))}, {Path: "c", Src: []byte(lines(4, 10))}}
	u := chainUse(a, lim, files)
	want := Mark{Path: "b", Offset: 50, Line: 5}
	if u.Over == nil || *u.Over != want || u.Dropped != 1+4 || u.Used != 150 {
		t.Fatalf("got over %+v dropped %d used %d, want %+v, 5, 150", u.Over, u.Dropped, u.Used, want)
	}
	// Exactly spent by the first two: the third is cut at its first line.
	files[1].Src = []byte(lines(5, 10))
	u = chainUse(a, lim, files)
	if want := (Mark{Path: "c"}); u.Over == nil || *u.Over != want || u.Dropped != 4 {
		t.Fatalf("got over %+v dropped %d, want %+v, 4", u.Over, u.Dropped, want)
	}
}

func TestReadLimitsOfAMemoryFile(t *testing.T) {
	claude := ByID("claude")
	for _, tc := range []struct {
		name    string
		src     string
		overAt  map[Unit]int // line of the first line not read, by unit
		dropped map[Unit]int
	}{
		{name: "2,000 lines", src: lines(2000, 8), overAt: map[Unit]int{}},
		{name: "2,001 lines", src: lines(2001, 8), overAt: map[Unit]int{Lines: 2000}, dropped: map[Unit]int{Lines: 1}},
		{name: "no final line break", src: lines(2000, 8) + "last", overAt: map[Unit]int{Lines: 2000}, dropped: map[Unit]int{Lines: 1}},
		{name: "many tokens in few lines", src: strings.Repeat("- [slug] "+strings.Repeat("word ", 200)+"\n", 150),
			overAt: map[Unit]int{Tokens: 102}, dropped: map[Unit]int{Tokens: 48}}, // 243.5 tokens a line
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, u := range ReadUses(claude, ".memory/security.md", []byte(tc.src)) {
				want, over := tc.overAt[u.Limit.Unit]
				if (u.Over != nil) != over {
					t.Fatalf("%s: over %+v, want over %v (used %d)", u.Limit.Unit, u.Over, over, u.Used)
				}
				if over && (u.Over.Line != want || u.Dropped != tc.dropped[u.Limit.Unit]) {
					t.Errorf("%s: over at line %d dropping %d, want %d dropping %d", u.Limit.Unit, u.Over.Line, u.Dropped, want, tc.dropped[u.Limit.Unit])
				}
				if over && u.Severity() != 1 {
					t.Errorf("%s: a read the agent can page is a warning, got severity %d", u.Limit.Unit, u.Severity())
				}
			}
		})
	}
}

func TestStartupFilesAndImports(t *testing.T) {
	ws := mapReader{
		"CLAUDE.md": "# Team\n\nSee @.memory/security.md and @docs/style.md.\n" +
			"Mail a@b.com, not `@.memory/quirks.md`.\n```\n@.memory/decisions.md\n```\n",
		".memory/security.md":             "- Never log tokens. @../outside.md @CLAUDE.md\n",
		"docs/style.md":                   "Tabs. @deep1.md\n",
		"docs/deep1.md":                   "@deep2.md\n",
		"docs/deep2.md":                   "@deep3.md\n",
		"docs/deep3.md":                   "@deep4.md\n",
		"docs/deep4.md":                   "too deep\n",
		".memory/quirks.md":               "- q\n",
		".claude/rules/go.md":             "---\npaths:\n  - \"**/*.go\"\n---\nGo only.\n",
		".claude/rules/all.md":            "Everywhere.\n",
		".cursor/rules/a.mdc":             "---\ndescription: x\nalwaysApply: true\n---\nA\n",
		".cursor/rules/b.mdc":             "---\nalwaysApply: false\nglobs: \"*.ts\"\n---\nB\n",
		".kiro/steering/tech.md":          "no front matter\n",
		".kiro/steering/manual.md":        "---\ninclusion: manual\n---\nM\n",
		".windsurf/rules/on.md":           "---\ntrigger: always_on\n---\nOn\n",
		".windsurf/rules/glob.md":         "---\ntrigger: glob\n---\nG\n",
		"AGENTS.md":                       "agents\n",
		".github/copilot-instructions.md": "copilot\n",
	}
	want := map[string][]string{
		"claude":   {"CLAUDE.md", ".memory/security.md", "docs/style.md", "docs/deep1.md", "docs/deep2.md", "docs/deep3.md", ".claude/rules/all.md"},
		"codex":    {"AGENTS.md"},
		"copilot":  {".github/copilot-instructions.md", "AGENTS.md"},
		"cursor":   {".cursor/rules/a.mdc", "AGENTS.md"},
		"windsurf": {".windsurf/rules/on.md", "AGENTS.md"},
		"kiro":     {".kiro/steering/tech.md", "AGENTS.md"},
		"gemini":   nil,
	}
	var detected []string
	for _, a := range Detect(ws) {
		detected = append(detected, a.ID)
	}
	if wantIDs := []string{"claude", "codex", "copilot", "cursor", "windsurf", "kiro"}; !slices.Equal(detected, wantIDs) {
		t.Errorf("detected %v, want %v", detected, wantIDs)
	}
	for id, files := range want {
		var got []string
		for _, f := range LoadAt(ByID(id), ws).Files {
			got = append(got, f.Path)
		}
		if !slices.Equal(got, files) {
			t.Errorf("%s loads %v, want %v", id, got, files)
		}
	}
}

func TestImports(t *testing.T) {
	for src, want := range map[string][]string{
		"@README.md":                           {"README.md"},
		"see @docs/a.md, then @b/c.md.":        {"docs/a.md", "b/c.md"},
		"(@x.md)":                              {"x.md"},
		"user@example.com @~/home.md @/abs.md": nil,
		"`@code.md` @mention":                  {"mention"}, // no such file: LoadAt drops it
		"    @indented-code.md\n\t@tab.md":     nil,
		"\ufeff@after-bom.md":                  {"after-bom.md"},
		"See @README for setup.":               {"README"},
		"```\n@fenced.md\n```\n@after.md":      {"after.md"},
	} {
		if got := Imports([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("Imports(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		src      string
		min, max int
	}{
		{"", 0, 0},
		{"hello world", 2, 3},
		{"- [use-pnpm] Use pnpm, never npm, in this repository.\n", 12, 18},
		{"タイムアウトは30秒です", 8, 14},
		{"1234567", 3, 6},
	} {
		if got := EstimateTokens([]byte(tc.src)); got < tc.min || got > tc.max {
			t.Errorf("EstimateTokens(%q) = %d, want %d–%d", tc.src, got, tc.min, tc.max)
		}
	}
	// Fed in pieces at line ends, as a limit in tokens is placed, the
	// estimate is the whole text's.
	src := "a b c\n\n\nd 12345\nタイム\n"
	var tk tokenizer
	for _, l := range strings.SplitAfter(src, "\n") {
		tk.add([]byte(l))
	}
	if tk.count() != EstimateTokens([]byte(src)) {
		t.Errorf("pieces give %d, the whole %d", tk.count(), EstimateTokens([]byte(src)))
	}
}

func TestMatch(t *testing.T) {
	if !Match(".cursor/rules/*.mdc", ".cursor/rules/a.mdc") || Match(".cursor/rules/*.mdc", ".cursor/rules/x/a.mdc") || Match("AGENTS.md", path.Join("sub", "AGENTS.md")) {
		t.Error("Match")
	}
}
