package rules

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// plainPairs is the pair computation as Check did it before the Checker:
// every entry analysed, one similar.Pairs over all of them, grouped by file.
func plainPairs(files []File, cfg config.Config) []similar.Pair {
	var contents []string
	var group []int
	for fi := range files {
		f := &files[fi]
		if !f.IsCategory || f.Doc == nil {
			continue
		}
		for i := range f.Doc.Entries {
			if c := f.Doc.Entries[i].Content; c != "" {
				contents = append(contents, c)
				group = append(group, fi)
			}
		}
	}
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	return similar.Pairs(similar.AnalyzeAll(contents), group, th)
}

// checkerPairs is what the Checker holds after its last pair computation, in
// the global numbering.
func checkerPairs(c *Checker) []similar.Pair {
	var out []similar.Pair
	off := 0
	for _, g := range c.groups {
		for _, p := range g.pairs.Pairs {
			out = append(out, similar.Pair{I: p.I + off, J: p.J + off, Verdict: p.Verdict})
		}
		off += len(g.texts)
	}
	return out
}

// editWorkspace is a small .memory folder as lines per file, edited at
// random the way a user and an agent would.
type editWorkspace struct {
	r       *rand.Rand
	paths   []string
	lines   [][]string // lines per file, without the header
	head    []string
	inBurst bool
}

var (
	propVocab = []string{"database", "seeds", "deploy", "staging", "cache", "worker", "queue", "schema",
		"migration", "release", "branch", "config", "token", "runner", "index", "billing"}
	propFixed = []string{
		"Always run database seeds in CI", "Never run database seeds in CI", "Run database seeds in CI",
		"Use YAML for the deploy config", "Use JSON for the deploy config",
		"Prefer Postgres over MySQL for the billing schema", "Prefer MySQL over Postgres for the billing schema",
		"Pin Go to 1.26 on the runner", "Pin Go to 1.25 on the runner", "Keep timeout > 1000 ms", "Keep timeout < 1000 ms",
		"发布前更新变更日志", "不要提交生成的代码", "要提交生成的代码", "我不吃", "我吃", "数据库迁移必须可以回滚",
		"Включайте сжатие логов", "Не включайте сжатие логов", "Do it", "Don't do it", "🙂", "🙃",
		"Enable the cache for the worker queue", "Disable the cache for the worker queue",
		"Auth lives in `src/auth/session.ts`", "Run `make e2e` before merging", "We are on Node 18",
	}
)

func (ws *editWorkspace) sentence() string {
	r := ws.r
	switch r.IntN(10) {
	case 0, 1, 2:
		return propFixed[r.IntN(len(propFixed))]
	case 3, 4, 5:
		if s := ws.existing(); s != "" {
			return ws.variant(s)
		}
	}
	var w []string
	w = append(w, []string{"Deploy", "Run", "Keep", "Pin", "Use", "Rotate"}[r.IntN(6)])
	for range 2 + r.IntN(5) {
		if r.IntN(6) == 0 {
			w = append(w, fmt.Sprintf("v%d.%d", r.IntN(3), r.IntN(4)))
		} else {
			w = append(w, propVocab[r.IntN(len(propVocab))])
		}
	}
	return strings.Join(w, " ")
}

// existing returns the text of a random entry, or "".
func (ws *editWorkspace) existing() string {
	f := ws.r.IntN(len(ws.lines))
	if len(ws.lines[f]) == 0 {
		return ""
	}
	l := ws.lines[f][ws.r.IntN(len(ws.lines[f]))]
	l = strings.TrimPrefix(l, "- ")
	if strings.HasPrefix(l, "[") {
		if i := strings.Index(l, "] "); i > 0 {
			l = l[i+2:]
		}
	}
	return strings.TrimSpace(l)
}

// variant derives a related text: a copy, a reversal, a changed number, a
// word more or less, a different case.
func (ws *editWorkspace) variant(s string) string {
	r := ws.r
	switch r.IntN(7) {
	case 0:
		return s
	case 1:
		if rest, ok := strings.CutPrefix(s, "Always "); ok {
			return "Never " + rest
		}
		if rest, ok := strings.CutPrefix(s, "Never "); ok {
			return "Always " + rest
		}
		return "Never " + s
	case 2:
		return strings.Map(func(c rune) rune {
			if '0' <= c && c <= '8' {
				return c + 1
			}
			return c
		}, s) + " 7"
	case 3:
		return s + " " + propVocab[r.IntN(len(propVocab))]
	case 4:
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			return s[:i]
		}
	case 5:
		return strings.ToUpper(s[:1]) + strings.ToLower(s[1:]) + "."
	}
	return s + " too"
}

func (ws *editWorkspace) line() string {
	s := ws.sentence()
	switch ws.r.IntN(8) {
	case 0:
		return fmt.Sprintf("- [entry-%d] %s", ws.r.IntN(50), s)
	case 1:
		return "- " // an empty entry: no content, in no pair
	case 2:
		return "  - " + s // not an entry to HackLM
	}
	return "- " + s
}

func (ws *editWorkspace) files() []File {
	out := make([]File, len(ws.paths))
	for i, p := range ws.paths {
		out[i] = newFile(p, []byte(ws.head[i]+strings.Join(ws.lines[i], "\n")+"\n"))
	}
	return out
}

// edit applies one random edit and says what it was.
func (ws *editWorkspace) edit() string {
	r := ws.r
	f := r.IntN(len(ws.lines))
	ls := ws.lines[f]
	at := r.IntN(len(ls) + 1)
	switch op := r.IntN(12); {
	case op < 3 && len(ls) > 0: // change one entry
		at = min(at, len(ls)-1)
		ls[at] = ws.line()
		return "change"
	case op < 5:
		ws.lines[f] = slices.Insert(ls, at, ws.line())
		return "insert"
	case op < 7 && len(ls) > 0:
		ws.lines[f] = slices.Delete(ls, min(at, len(ls)-1), min(at, len(ls)-1)+1)
		return "delete"
	case op < 8 && len(ls) > 0: // move an entry to the other category file
		at = min(at, len(ls)-1)
		l := ls[at]
		ws.lines[f] = slices.Delete(ls, at, at+1)
		g := 1 - min(f, 1)
		ws.lines[g] = slices.Insert(ws.lines[g], r.IntN(len(ws.lines[g])+1), l)
		return "move"
	case op < 9 && len(ls) > 1: // swap two entries
		i, j := r.IntN(len(ls)), r.IntN(len(ls))
		ls[i], ls[j] = ls[j], ls[i]
		return "swap"
	case op < 10 && !ws.inBurst: // many edits at once (a fix-all, a cleanup, a paste)
		ws.inBurst = true
		for range 5 + r.IntN(30) {
			ws.edit()
		}
		ws.inBurst = false
		return "burst"
	case op < 11 && len(ls) > 0: // copy an entry elsewhere: an exact duplicate
		ws.lines[f] = slices.Insert(ls, at, ls[r.IntN(len(ls))])
		return "duplicate"
	}
	// reverse the files' order: group identity is by path, not position
	slices.Reverse(ws.paths)
	slices.Reverse(ws.lines)
	slices.Reverse(ws.head)
	return "reorder"
}

// TestCheckerMatchesCheck applies random edit sequences to a small
// workspace and, after every step, holds a warm Checker to a fresh Check:
// the same findings in the same order, with the same messages and fixes,
// and the same pairs as one similar.Pairs over everything.
func TestCheckerMatchesCheck(t *testing.T) {
	longtest.Skip(t)
	ths := [][2]float64{{0.8, 0.6}, {0.7, 0.5}, {0.9, 0.9}, {1, 1}, {0.3, 0.3}, {0.5, 0.2}}
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 99))
		ws := &editWorkspace{r: r,
			paths: []string{".memory/decisions.md", ".memory/quirks.md", ".memory/scratch.md"},
			head:  []string{"# Decisions\n\n", "# Quirks\n\n", "notes\n"},
			lines: make([][]string, 3)}
		for f := range ws.lines {
			for range 10 + r.IntN(40) {
				ws.lines[f] = append(ws.lines[f], ws.line())
			}
		}
		cfg := config.Default()
		cfg.Limits[category.Decision], cfg.Limits[category.Quirk] = 30, 30
		repo := testRepo()
		c := &Checker{Repo: repo}
		for step := range steps {
			what := "start"
			if step > 0 {
				what = ws.edit()
			}
			switch r.IntN(25) {
			case 0:
				th := ths[r.IntN(len(ths))]
				cfg.SkipThreshold, cfg.UpdateThreshold = th[0], th[1]
				what += ", thresholds " + fmt.Sprint(th)
			case 1:
				cfg.Disabled = maps.Clone(cfg.Disabled)
				if cfg.Disabled == nil {
					cfg.Disabled = map[string]bool{}
				}
				code := []string{"duplicate", "near-duplicate", "conflict", "stale-path", "version-drift"}[r.IntN(5)]
				cfg.Disabled[code] = !cfg.Disabled[code]
				what += ", toggle " + code
			}
			files := ws.files()
			got, want := c.Check(files, cfg), CheckWithRepo(files, cfg, repo)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%s): Checker found %d, Check %d\n%s\n---\n%s", seed, step, what, len(got), len(want),
					render(files, got, nil), render(files, want, nil))
			}
			if cfg.Enabled("duplicate") || cfg.Enabled("near-duplicate") || cfg.Enabled("conflict") {
				if gp, wp := checkerPairs(c), plainPairs(files, cfg); !slices.Equal(gp, wp) {
					t.Fatalf("seed %d step %d (%s): Checker holds %d pairs, similar.Pairs finds %d", seed, step, what, len(gp), len(wp))
				}
			}
			if c.cache != nil {
				assertCache(t, c)
			}
			if c.References() != nil {
				assertReadings(t, c, files)
			}
		}
	}
}

// assertReadings: the Checker keeps the references of exactly the entry
// contents of its last call.
func assertReadings(t *testing.T, c *Checker, files []File) {
	t.Helper()
	want := map[string]bool{}
	for _, f := range files {
		if f.IsCategory && f.parsed() {
			for _, e := range f.Doc.Entries {
				want[e.Content] = true
			}
		}
	}
	if c.References().Len() != len(want) {
		t.Fatalf("the Checker keeps %d readings for %d contents", c.References().Len(), len(want))
	}
	for ct, rs := range c.References().All() {
		if !want[ct] || !reflect.DeepEqual(rs, refs.Extract(ct)) {
			t.Fatalf("reading of %q: %v, want %v", ct, rs, refs.Extract(ct))
		}
	}
}

// assertCache: the analysis cache holds exactly the contents of the last
// call, each counted once per entry.
func assertCache(t *testing.T, c *Checker) {
	t.Helper()
	want := map[string]int{}
	for _, g := range c.groups {
		for _, ct := range g.contents() {
			want[ct]++
		}
	}
	if len(want) != len(c.cache) {
		t.Fatalf("cache holds %d contents, the last call %d", len(c.cache), len(want))
	}
	for ct, n := range want {
		if e := c.cache[ct]; e == nil || e.n != n || e.text.Raw != ct {
			t.Fatalf("cache entry for %q: %+v, want count %d", ct, e, n)
		}
	}
}

// TestMatchContents holds the diff to a longest common subsequence.
func TestMatchContents(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for range 2000 {
		a := make([]string, r.IntN(30))
		for i := range a {
			a[i] = string(rune('a' + r.IntN(5)))
		}
		b := slices.Clone(a)
		for range r.IntN(8) {
			switch k := r.IntN(3); {
			case k == 0 && len(b) > 0: // change
				b[r.IntN(len(b))] = string(rune('a' + r.IntN(6)))
			case k == 1 || len(b) == 0: // insert
				b = slices.Insert(b, r.IntN(len(b)+1), string(rune('a'+r.IntN(6))))
			default: // delete
				i := r.IntN(len(b))
				b = slices.Delete(b, i, i+1)
			}
		}
		m := matchContents(a, b, 1000)
		if m == nil {
			t.Fatalf("%v → %v: no match", a, b)
		}
		last, n := -1, 0
		for j, i := range m {
			if i < 0 {
				continue
			}
			if i <= last || a[i] != b[j] {
				t.Fatalf("%v → %v: bad match %v", a, b, m)
			}
			last = i
			n++
		}
		want := lcs(a, b)
		if n != want {
			t.Fatalf("%v → %v: %d matched, LCS %d", a, b, n, want)
		}
		// the diff alone, without the common prefix and suffix cut off
		n = 0
		if !text.MatchLines(a, b, len(a)+len(b), func(i, j int) {
			if a[i] != b[j] {
				t.Fatalf("%v → %v: Match matched %d with %d", a, b, i, j)
			}
			n++
		}) || n != want {
			t.Fatalf("%v → %v: Match matched %d, LCS %d", a, b, n, want)
		}
		ins, del := len(b)-n, len(a)-n
		if limit := max(ins, del) - 1; limit >= 0 && matchContents(a, b, limit) != nil {
			t.Fatalf("%v → %v: matched with %d changes allowed, needs %d/%d", a, b, limit, ins, del)
		}
	}
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// decisions10k is one decisions.md of 10,000 entries from the templates of
// workspace10k, as the language server's benchmark holds open. change
// rewrites one word of entry k.
func decisions10k(change int) File {
	subjects := []string{"the API", "the web app", "the worker", "the CLI", "the importer", "the billing job", "the search index", "the cache", "the auth service", "the scheduler"}
	verbs := []string{"Deploy", "Restart", "Test", "Profile", "Pin", "Document", "Lint", "Benchmark", "Monitor", "Rebuild"}
	tails := []string{"before the release branch is cut", "with the staging config", "after every schema migration", "using make check", "on the shared runner", "only from the main branch", "when the queue is drained", "behind the feature flag", "during the weekly window"}
	syl := []string{"ka", "lo", "mi", "ren", "tos", "vel", "dra", "quin", "sar", "bex", "nor", "pim", "ul", "zet", "gor"}
	r := rand.New(rand.NewPCG(7, 10000))
	name := func() string { return syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))] }
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range 10000 {
		word := "ticket"
		if i == change {
			word = "issue"
		}
		s := fmt.Sprintf("%s %s for %s and %s %s, %s DEC-%d.", verbs[r.IntN(len(verbs))], subjects[r.IntN(len(subjects))], name(), name(), tails[r.IntN(len(tails))], word, i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "- %s\n", s)
		} else {
			fmt.Fprintf(&b, "- [decision-%d] %s\n", i, s)
		}
	}
	return newFile(".memory/decisions.md", []byte(b.String()))
}

func raisedLimits() config.Config {
	cfg := config.Default()
	for _, c := range category.All {
		cfg.Limits[c] = 10001
	}
	cfg.Disabled["missing-slug"] = false // a finding on most entries: work for the warm path
	return cfg
}

// TestCheckerWarm10k: a warm Checker on 10,000 entries, after one entry
// changed, after an entry went and after one came back, finds what a fresh
// Check finds.
func TestCheckerWarm10k(t *testing.T) {
	longtest.Skip(t)
	if testing.Short() {
		t.Skip("10,000 entries")
	}
	cfg := raisedLimits()
	c := new(Checker)
	base := decisions10k(-1)
	c.Check([]File{base}, cfg)
	changed := decisions10k(5000)
	src := string(base.Doc.Src)
	cut := strings.Index(src, "- [decision-4000]")
	end := cut + strings.IndexByte(src[cut:], '\n') + 1
	removed := newFile(base.Path, []byte(src[:cut]+src[end:]))
	for _, step := range []struct {
		name string
		f    File
	}{{"one entry changed", changed}, {"changed back", base}, {"one entry removed", removed}, {"back again", base}} {
		files := []File{step.f}
		got, want := c.Check(files, cfg), Check(files, cfg)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Checker found %d, Check %d", step.name, len(got), len(want))
		}
		if gp, wp := checkerPairs(c), plainPairs(files, cfg); !slices.Equal(gp, wp) {
			t.Fatalf("%s: Checker holds %d pairs, similar.Pairs finds %d", step.name, len(gp), len(wp))
		}
		if len(want) < 1000 {
			t.Fatalf("%s: only %d findings: the workspace is too tame", step.name, len(want))
		}
	}
}

// TestCheckerPanicResets: a panic in a rule reaches the caller, and the
// Checker, which waited for its pair computation, starts afresh next time.
func TestCheckerPanicResets(t *testing.T) {
	c := new(Checker)
	good := []File{newFile(".memory/decisions.md", []byte("\ufeff- Always run seeds\n- Never run seeds\n- Run seeds\n"))}
	c.Check(good, config.Default())
	// A document without its lines: the byte-order-mark rule reads the
	// first line, and the pair rules (which read none now, their choices'
	// edits being made when asked for) have run beside it.
	broken := *good[0].Doc
	broken.Lines = nil
	panicked := func() (p any) {
		defer func() { p = recover() }()
		c.Check([]File{{Path: good[0].Path, Name: good[0].Name, IsCategory: true, Doc: &broken}}, config.Default())
		return nil
	}()
	if panicked == nil {
		t.Fatal("no panic on a broken document")
	}
	if c.groups != nil {
		t.Error("the Checker kept its state after a panic")
	}
	if got, want := c.Check(good, config.Default()), Check(good, config.Default()); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a panic: %v, want %v", got, want)
	}
}

// BenchmarkCheckerOneChange10k is the language server's re-check: a warm
// Checker, one entry changed per call (a word of the middle entry,
// alternately). "1-file" is the language server's benchmark workspace (one
// decisions.md of 10,000 entries), "5-files" is workspace10k; both with
// limits raised, as BenchmarkCheck10k/raised-limits.
func BenchmarkCheckerOneChange10k(b *testing.B) {
	ws := workspace10k()
	mid := string(ws[2].Doc.Src)
	k := strings.Index(mid, "ticket")
	ws2 := slices.Clone(ws)
	ws2[2] = newFile(ws[2].Path, []byte(mid[:k]+"issue "+mid[k+6:]))
	for _, v := range []struct {
		name string
		a, b []File
		repo Repo
	}{
		{"1-file", []File{decisions10k(-1)}, []File{decisions10k(5000)}, nil},
		{"5-files", ws, ws2, nil},
		{"5-files-repo", ws, ws2, benchRepo()},
	} {
		b.Run(v.name, func(b *testing.B) {
			cfg := raisedLimits()
			c := &Checker{Repo: v.repo}
			c.Check(v.a, cfg)
			n, i := 0, 0
			for b.Loop() {
				files := v.b
				if i%2 == 1 {
					files = v.a
				}
				n = len(c.Check(files, cfg))
				i++
			}
			b.ReportMetric(float64(n), "findings")
		})
	}
}
