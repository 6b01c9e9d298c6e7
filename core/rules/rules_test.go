package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/text"

	"github.com/memory-lsp/memory-lsp/internal/cputime"
)

// check runs Check on one decisions.md and returns the findings of code.
func check(t *testing.T, src, code string) []Finding {
	t.Helper()
	files := []File{newFile(".memory/decisions.md", []byte(src))}
	var out []Finding
	for _, f := range Check(files, config.Default()) {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func TestRegistryMatchesReadme(t *testing.T) {
	// The product contract's list of codes (§4 of ../shared/spec/README.md),
	// in order, then the codes it does not name: agent-directive and
	// hidden-text beside secret (all about what text may be stored), the rules that judge
	// entries against the repository after the rules of the text, then
	// cross-file and load-budget (what agents read beside the memory files),
	// file-too-large last.
	want := []string{"bullet-marker", "indented-entry", "empty-entry", "bom", "line-ending", "slug-format",
		"slug-malformed", "checkbox", "duplicate-slug", "missing-slug", "duplicate", "near-duplicate", "conflict",
		"over-limit", "long-entry", "unknown-file", "secret", "agent-directive", "hidden-text", "stray-line",
		"stale-path", "stale-command", "version-drift", "cross-file", "load-budget", "file-too-large"}
	var got []string
	for _, r := range Rules() {
		got = append(got, r.Code)
		if r.Summary == "" {
			t.Errorf("%s has no summary", r.Code)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Rules() = %v\nwant %v", got, want)
	}
}

func TestOverlap(t *testing.T) {
	e := func(s, end int) text.Edit { return text.Edit{Start: s, End: end} }
	tests := []struct {
		a, b text.Edit
		want bool
	}{
		{e(0, 3), e(3, 5), false},
		{e(0, 3), e(2, 5), true},
		{e(3, 3), e(3, 3), true},
		{e(3, 3), e(0, 3), false},
		{e(2, 2), e(0, 3), true},
		{e(0, 3), e(0, 1), true},
	}
	for _, tt := range tests {
		if got := overlap(tt.a, tt.b); got != tt.want {
			t.Errorf("overlap(%v, %v) = %v", tt.a, tt.b, got)
		}
		if got := overlap(tt.b, tt.a); got != tt.want {
			t.Errorf("overlap(%v, %v) = %v (swapped)", tt.b, tt.a, got)
		}
	}
}

func TestFixAllSkipsOverlaps(t *testing.T) {
	// Two empty entries at the end: deleting the last one takes the LF of
	// the one before, so only one fix fits per round.
	files := []File{newFile(".memory/decisions.md", []byte("- [a] Keep.\n-   \n-   "))}
	fs := Check(files, config.Default())
	edits := FixAll(files, fs)
	if n := len(edits[0]); n != 1 {
		t.Fatalf("FixAll chose %d edits, want 1: %v", n, edits)
	}
	got, _ := text.Apply(files[0].Doc.Src, edits[0])
	files = []File{newFile(".memory/decisions.md", got)}
	got, _ = text.Apply(got, FixAll(files, Check(files, config.Default()))[0])
	if string(got) != "- [a] Keep." {
		t.Errorf("after two rounds: %q", got)
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"One fact.", 1},
		{"Use Go 1.26 for builds.", 1},
		{"Use e.g. pnpm, i.e. not npm.", 1},
		{"Build. Test. Ship.", 3},
		{"Is it slow? Yes.", 2},
		{"Edit ./a.md. Then rebuild.", 2},
		{"Wait... Then retry.", 1},
		{"Use v2. then restart.", 1},
		{"Plan B. Then C.", 1},
		{"先构建。再测试。", 2},
		{"先构建。", 1},
		{"Ends with a bang!", 1},
	}
	for _, tt := range tests {
		if got := sentences(tt.s); got != tt.want {
			t.Errorf("sentences(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestBulletMarker(t *testing.T) {
	tests := []struct {
		line, mark string
		n          int
	}{
		{"* x", "*", 2}, {"+  x", "+", 3}, {"-x", "-", 1}, {"-\tx", "-", 2}, {"12. x", "12.", 4}, {"3) x", "3)", 3},
	}
	for _, tt := range tests {
		if m, n := bulletMarker(tt.line); m != tt.mark || n != tt.n {
			t.Errorf("bulletMarker(%q) = %q, %d; want %q, %d", tt.line, m, n, tt.mark, tt.n)
		}
	}
}

func TestSlugLike(t *testing.T) {
	tests := []struct {
		line string
		kind int
	}{
		{"- [s]text", malformedGlued},
		{"- [s]", malformedAlone},
		{"- [] x", malformedEmpty},
		{"- []", malformedNone},
		{"- [[wiki]] x", malformedNone},
		{"- [[wiki]]x", malformedNone},
		{"- [a](b) link", malformedNone},
		{"- [a]: b", malformedNone},
		{"- [s] text", malformedNone},
		{"- plain", malformedNone},
		{"- [a]b] c", malformedGlued},
	}
	for _, tt := range tests {
		d := memfile.Parse([]byte(tt.line))
		if got := classifySlugLike(&d.Entries[0]).kind; got != tt.kind {
			t.Errorf("classifySlugLike(%q) = %d, want %d", tt.line, got, tt.kind)
		}
	}
}

func TestLineEndingTie(t *testing.T) {
	// Two CRLF, two LF: the first line's ending wins.
	fs := check(t, "a\r\nb\nc\r\nd\n", "line-ending")
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "first LF line") || fs[0].Fixes[0].Title != "Convert LF line endings to CRLF" {
		t.Fatalf("findings = %+v", fs)
	}
	// A final CR with no LF is not a lone CR.
	if fs := check(t, "- a\r\n- b\r", "line-ending"); len(fs) != 0 {
		t.Errorf("final CR flagged: %+v", fs)
	}
}

func TestBOMOnlyFile(t *testing.T) {
	for _, src := range []string{"\uFEFF", "\uFEFF\n- a", "\uFEFF-x"} {
		fs := check(t, src, "bom")
		if len(fs) != 1 || fs[0].Severity != Warning {
			t.Errorf("%q: %+v", src, fs)
		}
	}
	if fs := check(t, "\uFEFF- a", "bom"); len(fs) != 1 || fs[0].Severity != Error {
		t.Errorf("hidden entry: %+v", fs)
	}
}

// TestDisabledRule: missing-slug is off by default (slugs are optional in
// HackLM's format), a setting turns it on, and any other rule off.
func TestDisabledRule(t *testing.T) {
	files := []File{newFile(".memory/decisions.md", []byte("- No slug here.\n"))}
	if fs := Check(files, config.Default()); len(fs) != 0 {
		t.Errorf("missing-slug reported by default: %+v", fs)
	}
	on, err := config.Default().Merge(config.Settings{Rules: map[string]config.RuleSetting{"missing-slug": {On: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if fs := Check(files, on); len(fs) != 1 || fs[0].Code != "missing-slug" {
		t.Errorf("missing-slug switched on: %+v", fs)
	}
	long := []File{newFile(".memory/decisions.md", []byte("- "+strings.Repeat("word ", 70)+"\n"))}
	if fs := Check(long, config.Default()); len(fs) != 1 || fs[0].Code != "long-entry" {
		t.Errorf("long-entry by default: %+v", fs)
	}
	off, err := config.Default().Merge(config.Settings{Rules: map[string]config.RuleSetting{"long-entry": {}}})
	if err != nil {
		t.Fatal(err)
	}
	if fs := Check(long, off); len(fs) != 0 {
		t.Errorf("long-entry switched off: %+v", fs)
	}
}

func TestFormatTextColumns(t *testing.T) {
	d := memfile.Parse([]byte("# 🚀\r\n- [a] 日本 x"))
	f := Finding{Code: "c", Severity: Hint, Span: text.Span{Start: strings.Index(string(d.Src), "x")}, Message: "m"}
	if got, want := FormatText("p.md", indexOf(d), f), "p.md:2:10: hint: m [c]"; got != want {
		t.Errorf("FormatText = %q, want %q", got, want)
	}
}

func TestSortedAndNoPanicOnOddInput(t *testing.T) {
	inputs := []string{"", "\n", "-", "- ", "\r", "\r\r\n", "- [", "- []", "- [ ]", "- [x]", "  -", "\uFEFF", "```", "- \u2028x", "- a\u2029b", "\xff\xfe- x"}
	for _, in := range inputs {
		files := []File{newFile(".memory/decisions.md", []byte(in)), newFile(".memory/x.md", []byte(in))}
		fs := Check(files, config.Default())
		for i := 1; i < len(fs); i++ {
			a, b := fs[i-1], fs[i]
			if a.File > b.File || (a.File == b.File && a.Span.Start > b.Span.Start) {
				t.Errorf("%q: findings out of order", in)
			}
		}
		for _, f := range fs {
			FormatText("p", indexOf(files[f.File].Doc), f)
			for _, x := range f.Fixes {
				by := map[int][]text.Edit{}
				for _, e := range f.EditsOf(&x, files) {
					by[e.File] = append(by[e.File], e.Edit)
				}
				for fi, es := range by {
					if _, err := text.Apply(files[fi].Doc.Src, es); err != nil {
						t.Errorf("%q: %s/%s: %v", in, f.Code, x.Title, err)
					}
				}
			}
		}
	}
}

// workspace10k builds 2,000 entries per category: realistic sentences from
// a small vocabulary, every 50th a near-duplicate of an earlier one.
func workspace10k() []File {
	subjects := []string{"the API", "the web app", "the worker", "the CLI", "the importer", "the billing job", "the search index", "the cache", "the auth service", "the scheduler"}
	verbs := []string{"Deploy", "Restart", "Test", "Profile", "Pin", "Document", "Lint", "Benchmark", "Monitor", "Rebuild"}
	tails := []string{"before the release branch is cut", "with the staging config", "after every schema migration", "using make check", "on the shared runner", "only from the main branch", "when the queue is drained", "with Go 1.26 and pnpm 9", "behind the feature flag", "during the weekly window"}
	r := rand.New(rand.NewPCG(1, 2))
	// Component names: 3,000 pronounceable pseudo-words, two per entry, so
	// that entries share templates the way real notes do but rarely facts.
	syl := []string{"ka", "lo", "mi", "ren", "tos", "vel", "dra", "quin", "sar", "bex", "nor", "pim", "ul", "zet", "gor"}
	var names []string
	for len(names) < 3000 {
		names = append(names, syl[r.IntN(len(syl))]+syl[r.IntN(len(syl))]+syl[r.IntN(len(syl))])
	}
	var files []File
	for _, cat := range category.All {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", cat.Plural())
		var prev []string
		for i := 0; i < 2000; i++ {
			var s string
			if i%50 == 49 {
				s = prev[r.IntN(len(prev))] + " too"
			} else {
				s = fmt.Sprintf("%s %s for %s and %s %s, ticket %s-%d.", verbs[r.IntN(len(verbs))], subjects[r.IntN(len(subjects))],
					names[r.IntN(len(names))], names[r.IntN(len(names))], tails[r.IntN(len(tails))], strings.ToUpper(cat.String()[:3]), i)
			}
			prev = append(prev, strings.TrimSuffix(s, "."))
			if i%3 == 0 {
				fmt.Fprintf(&b, "- %s\n", s)
			} else {
				fmt.Fprintf(&b, "- [%s-%d] %s\n", strings.ToLower(cat.String()), i, s)
			}
		}
		files = append(files, newFile(".memory/"+cat.File(), []byte(b.String())))
	}
	return files
}

func BenchmarkCheck10k(b *testing.B) {
	files := workspace10k()
	raised := config.Default()
	for _, c := range category.All {
		raised.Limits[c] = 5000
	}
	for _, v := range []struct {
		name string
		cfg  config.Config
		repo Repo
	}{{"raised-limits", raised, nil}, {"default-limits", config.Default(), nil}, {"raised-limits-repo", raised, benchRepo()}} {
		b.Run(v.name, func(b *testing.B) {
			n := 0
			cpu := cputime.Start()
			for b.Loop() {
				n = len(CheckWithRepo(files, v.cfg, v.repo))
			}
			cpu.Report(b)
			b.ReportMetric(float64(n), "findings")
		})
	}
}

// benchRepo is a repository for workspace10k's references: the versions
// its entries state hold (go.mod's go line, pnpm's pin), as most do.
func benchRepo() Repo {
	r := testRepo()
	r.PinsOf = map[string][]refs.Pin{"go": {{Value: "1.26", File: "go.mod", Line: 3, Bare: refs.AtLeast}}, "pnpm": {{Value: "9.15.0", File: "package.json"}}}
	return r
}

// indexOf is the position index FormatText takes, nil for no document.
func indexOf(d *memfile.Document) *text.Index {
	if d == nil {
		return nil
	}
	return text.NewIndex(d.Src)
}
