package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/rules"
)

// Tests must never append to the job summary of the CI run executing them;
// the tests that want a step summary set the variable themselves.
func init() { os.Unsetenv("GITHUB_STEP_SUMMARY") }

// workspaceIn writes files (slash paths) under a new temporary folder, makes
// dir below it the current directory and returns the folder.
func workspaceIn(t *testing.T, files map[string]string, dir string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		writeTestFile(t, filepath.Join(root, filepath.FromSlash(name)), []byte(data))
	}
	wd := filepath.Join(root, filepath.FromSlash(dir))
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)
	return root
}

func runIn(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
	return stdout.String(), stderr.String(), code
}

const ghToken = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"

type sarifCase struct {
	name  string
	files map[string]string
	dir   string   // where check runs, below the workspace
	args  []string // after check --format sarif
	// srcRoot is the folder result uris are relative to, below the workspace.
	srcRoot string
	// spans: for a rule id, the text its region must cover (first result
	// with that id), cut from the file by UTF-16 columns.
	spans map[string]string
	// uris every result must come from (nil: any).
	uris []string
	// want is the rule ids expected, in this order, among the results
	// (others may come between them: the registry grows); clean cases
	// expect no result at all.
	want  []string
	clean bool
	// related: every wanted result points at related locations.
	related bool
}

var sarifCases = []sarifCase{
	{
		name:  "clean",
		clean: true,
		files: map[string]string{
			".memory/decisions.md": "# Decisions\n\n- [db-engine] Use Postgres for the ledger.\n",
			".memory/quirks.md":    "# Quirks\n\n- [gradle-leak] The Gradle daemon leaks memory after about 20 builds.\n",
		},
	},
	{
		name: "errors-and-warnings",
		files: map[string]string{
			".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres for the ledger.\n- [db] Use Redis for sessions.\n* Deploy with Helm.\n-   \n- [My Slug] Run migrations before deploys.\n- [token] Deploy with " + ghToken + " always.\n",
			".memory/notes.md":     "# Notes\n",
		},
		spans: map[string]string{"duplicate-slug": "db", "slug-format": "My Slug", "secret": ghToken},
		want:  []string{"duplicate-slug", "bullet-marker", "empty-entry", "slug-format", "secret", "unknown-file"},
	},
	{
		name: "related-locations",
		files: map[string]string{
			".memory/decisions.md": "# Decisions\n\n- [cache] Use Redis for the session cache.\n- [db] Use Postgres for the ledger.\n- [db-2] use postgres for the ledger!\n- [always-tests] Always run the tests before a deploy.\n- [never-tests] Never run the tests before a deploy.\n",
			".memory/quirks.md":    "# Quirks\n\n- [cache] Redis evicts keys under memory pressure.\n",
		},
		spans:   map[string]string{"duplicate-slug": "cache"},
		want:    []string{"duplicate-slug", "duplicate", "conflict"},
		related: true,
	},
	{
		name: "non-ascii-columns",
		files: map[string]string{
			".memory/decisions.md": "# Décisions\n\n- [données] Utiliser Postgres pour le grand livre.\n- 日本語のメモ 😀😀 token " + ghToken + "\n- [emoji] 😀 Run migrations before deploys 😀.\n- [emoji] 𝒜 Other 😀 thing.\n",
			"settings.json":        `{"rules": {"missing-slug": true}}`, // off by default
		},
		args:  []string{"--config", "settings.json"},
		spans: map[string]string{"slug-format": "données", "secret": ghToken, "missing-slug": "日本語のメモ 😀😀 token " + ghToken, "duplicate-slug": "emoji"},
		want:  []string{"slug-format", "missing-slug", "secret", "duplicate-slug"},
	},
	{
		name: "line-breaks",
		files: map[string]string{
			".memory/decisions.md": "# Decisions\r\n\r\n- [db] Use 😀 X.\r\n- [db] Use Y.\r\n- [cr] one\rtwo 😀 three.\n",
		},
		spans: map[string]string{"duplicate-slug": "db"},
		want:  []string{"duplicate-slug", "line-ending", "line-ending"},
	},
	{
		name: "pre-commit-paths",
		files: map[string]string{
			".memory/quirks.md":      "# Quirks\n\n- [x] The Gradle daemon leaks memory.\n- [x] The Gradle daemon leaks memory.\n",
			"a/.memory/notes.md":     "# Notes\n",
			"a/.memory/decisions.md": "* not reported: a/.memory/decisions.md was not named\n",
		},
		args: []string{".memory/quirks.md", "a/.memory/notes.md"},
		uris: []string{".memory/quirks.md", "a/.memory/notes.md"},
		want: []string{"checkbox", "checkbox", "duplicate", "unknown-file"},
	},
	{
		name: "from-a-subfolder",
		files: map[string]string{
			".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres.\n- [db] Use Redis.\n",
		},
		dir:  "src/pkg",
		uris: []string{".memory/decisions.md"},
		want: []string{"duplicate-slug"},
	},
}

// TestSARIF checks `check --format sarif` against SARIF 2.1.0 (the schema's
// required fields, types, enums and minimums for every object we emit) and
// against the text output of the same check: the same findings at the same
// places, columns counted in UTF-16 units.
func TestSARIF(t *testing.T) {
	for _, tc := range sarifCases {
		t.Run(tc.name, func(t *testing.T) {
			root := workspaceIn(t, tc.files, tc.dir)
			out, errs, code := runIn(append([]string{"check", "--format", "sarif"}, tc.args...)...)
			if code != exitOK && code != exitFindings {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var doc any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
			}
			v := &sarifValidator{}
			v.log(doc)
			for _, e := range v.errs {
				t.Error(e)
			}
			if t.Failed() {
				t.FailNow()
			}
			var log sarifLog
			if err := json.Unmarshal([]byte(out), &log); err != nil {
				t.Fatal(err)
			}
			run := log.Runs[0]
			checkRulesMatchRegistry(t, run.Tool.Driver.Rules)
			if tc.clean && len(run.Results) > 0 {
				t.Errorf("a clean workspace gave %d results", len(run.Results))
			}
			next := 0 // index in tc.want of the next id to find
			for _, r := range run.Results {
				if next < len(tc.want) && r.RuleID == tc.want[next] {
					next++
					if tc.related && len(r.RelatedLocations) == 0 {
						t.Errorf("%s result has no related locations", r.RuleID)
					}
				}
			}
			if next < len(tc.want) {
				t.Errorf("results lack %v (in this order) from %v", tc.want[next:], tc.want)
			}

			textOut, _, textCode := runIn(append([]string{"check"}, tc.args...)...)
			if textCode != code {
				t.Errorf("exit %d with sarif, %d with text", code, textCode)
			}
			srcRoot := filepath.Join(root, filepath.FromSlash(tc.srcRoot))
			var fromSARIF []string
			hasError := false
			prints := map[string]bool{}
			for i, r := range run.Results {
				hasError = hasError || r.Level == "error"
				if r.RuleIndex == nil || run.Tool.Driver.Rules[*r.RuleIndex].ID != r.RuleID {
					t.Errorf("result %d: ruleIndex %v does not point at rule %q", i, r.RuleIndex, r.RuleID)
				}
				loc := r.Locations[0].PhysicalLocation
				if tc.uris != nil && !slices.Contains(tc.uris, loc.ArtifactLocation.URI) {
					t.Errorf("result %d is about %s, want one of %v", i, loc.ArtifactLocation.URI, tc.uris)
				}
				path := filepath.Join(srcRoot, filepath.FromSlash(loc.ArtifactLocation.URI))
				fromSARIF = append(fromSARIF, fmt.Sprintf("%s:%d:%d: %s [%s]", path, loc.Region.StartLine, loc.Region.StartColumn, r.Message.Text, r.RuleID))
				regionText(t, srcRoot, loc) // checks it lies in the file
				for _, rl := range r.RelatedLocations {
					regionText(t, srcRoot, rl.PhysicalLocation)
				}
				for _, fx := range r.Fixes {
					for _, ch := range fx.ArtifactChanges {
						for _, rep := range ch.Replacements {
							checkByteRange(t, srcRoot, ch.ArtifactLocation, rep.DeletedRegion)
						}
					}
				}
				fp := r.PartialFingerprints[fingerprintKey]
				if fp == "" || prints[fp] {
					t.Errorf("result %d: fingerprint %q is missing or not unique", i, fp)
				}
				prints[fp] = true
			}
			if (code == exitFindings) != hasError {
				t.Errorf("exit %d, but error-level results: %v", code, hasError)
			}
			if got, want := fromSARIF, textFindings(t, textOut); !slices.Equal(got, want) {
				t.Errorf("SARIF and text disagree\nsarif:\n%s\ntext:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for id, want := range tc.spans {
				i := slices.IndexFunc(run.Results, func(r sarifResult) bool { return r.RuleID == id })
				if i < 0 {
					t.Errorf("no %s result", id)
					continue
				}
				if got := regionText(t, srcRoot, run.Results[i].Locations[0].PhysicalLocation); got != want {
					t.Errorf("%s region covers %q, want %q", id, got, want)
				}
			}
		})
	}
}

// textFindings reads `path:line:col: severity: message [code]` lines as
// absolute-path:line:col: message [code], the parts SARIF repeats.
func textFindings(t *testing.T, out string) []string {
	t.Helper()
	re := regexp.MustCompile(`^(.*):(\d+):(\d+): (?:error|warning|info|hint): (.*)$`)
	var got []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "    fix: ") {
			continue // a finding's fixes follow it, indented
		}
		m := re.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("unexpected text output line %q", line)
		}
		p, err := filepath.Abs(m[1])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%s:%s: %s", p, m[2], m[3], m[4]))
	}
	return got
}

func checkRulesMatchRegistry(t *testing.T, got []sarifReportingDescriptor) {
	t.Helper()
	want := rules.Rules()
	if len(got) != len(want) {
		t.Fatalf("%d rules in SARIF, %d in the registry", len(got), len(want))
	}
	levels := map[rules.Severity]string{rules.Error: "error", rules.Warning: "warning", rules.Information: "note", rules.Hint: "note"}
	for i, w := range want {
		g := got[i]
		if g.ID != w.Code || g.FullDescription.Text != w.Summary || g.DefaultConfiguration.Level != levels[w.Severity] || g.ShortDescription.Text == "" {
			t.Errorf("rule %d: %+v does not describe %+v", i, g, w)
		}
	}
}

// fileLines splits a file the way SARIF and LSP count lines (CR, LF and
// CRLF all end one), keeping each line's byte offset; written apart from
// core/text so that the test does not check that code against itself.
func fileLines(t *testing.T, path string) (lines []string, starts []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("a result names %s: %v", path, err)
	}
	s := string(b)
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' && s[i] != '\r' {
			continue
		}
		lines, starts = append(lines, s[start:i]), append(starts, start)
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		start = i + 1
	}
	return append(lines, s[start:]), append(starts, start)
}

// utf16Offset is the byte offset in line of a 0-based UTF-16 column, or -1
// when the column is past the line's end or splits a surrogate pair.
func utf16Offset(line string, col int) int {
	units := 0
	for i, r := range line {
		if units == col {
			return i
		}
		units += len(utf16.Encode([]rune{r}))
		if units > col {
			return -1
		}
	}
	if units == col {
		return len(line)
	}
	return -1
}

// regionOffsets turns a region into byte offsets of its file.
func regionOffsets(t *testing.T, path string, r sarifRegion) (int, int) {
	t.Helper()
	lines, starts := fileLines(t, path)
	at := func(line, col int) int {
		if line < 1 || line > len(lines) {
			t.Fatalf("%s: line %d is outside the file (%d lines)", path, line, len(lines))
		}
		off := utf16Offset(lines[line-1], col-1)
		if off < 0 {
			t.Fatalf("%s: column %d is not a character boundary of line %d %q", path, col, line, lines[line-1])
		}
		return starts[line-1] + off
	}
	start, end := at(r.StartLine, r.StartColumn), at(r.EndLine, r.EndColumn)
	if end < start {
		t.Fatalf("%s: region %+v ends before it starts", path, r)
	}
	return start, end
}

// regionText is the text a location's region covers, cut by UTF-16 columns.
func regionText(t *testing.T, srcRoot string, loc sarifPhysicalLocation) string {
	t.Helper()
	path := filepath.Join(srcRoot, filepath.FromSlash(loc.ArtifactLocation.URI))
	start, end := regionOffsets(t, path, loc.Region)
	b, _ := os.ReadFile(path)
	return string(b[start:end])
}

// checkByteRange holds a deleted region's byte range to its line/column
// range: both must name the same bytes.
func checkByteRange(t *testing.T, srcRoot string, a sarifArtifactLocation, r sarifRegion) {
	t.Helper()
	start, end := regionOffsets(t, filepath.Join(srcRoot, filepath.FromSlash(a.URI)), r)
	if r.ByteOffset == nil || r.ByteLength == nil || *r.ByteOffset != start || *r.ByteLength != end-start {
		t.Errorf("deleted region %+v: bytes %d..%d by line and column", r, start, end)
	}
}

// TestSARIFFingerprintsSurviveLineMoves: adding lines above findings must
// not change their fingerprints, or GitHub would open new alerts.
func TestSARIFFingerprintsSurviveLineMoves(t *testing.T) {
	body := "- [db] Use Postgres.\n- [db] Use Redis.\n- Use Redis.\n- Use Redis.\n"
	prints := func(head string) map[string]string {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, ".memory", "decisions.md"), []byte(head+body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(root)
		out, _, _ := runIn("check", "--format", "sarif")
		var log sarifLog
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{} // fingerprint → rule and message without line numbers
		for _, r := range log.Runs[0].Results {
			fp := r.PartialFingerprints[fingerprintKey]
			if _, dup := got[fp]; dup {
				t.Errorf("fingerprint %s given twice", fp)
			}
			got[fp] = r.RuleID
		}
		return got
	}
	before := prints("# Decisions\n\n")
	after := prints("# Decisions\n\nSome prose.\n\n- [cache] Use Redis for caching.\n")
	if len(before) < 3 {
		t.Fatalf("expected several findings, got %v", before)
	}
	for fp, id := range before {
		if after[fp] != id {
			t.Errorf("the %s finding's fingerprint %s changed when lines were added above it", id, fp)
		}
	}
}

func TestCheckFormats(t *testing.T) {
	workspaceIn(t, map[string]string{
		".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres.\n- [db] Use Redis.\n",
	}, "")
	jsonOut, _, code := runIn("check", "--json")
	formatOut, _, code2 := runIn("check", "--format", "json")
	if jsonOut != formatOut || code != exitFindings || code2 != exitFindings {
		t.Errorf("--json (exit %d) and --format json (exit %d) differ:\n%s\n%s", code, code2, jsonOut, formatOut)
	}
	if out, _, code := runIn("check", "--format=json", "--json"); out != jsonOut || code != exitFindings {
		t.Errorf("--format json --json: exit %d\n%s", code, out)
	}
	textOut, _, _ := runIn("check")
	if out, _, _ := runIn("check", "--format", "text"); out != textOut || !strings.Contains(out, "[duplicate-slug]") {
		t.Errorf("--format text differs from the default:\n%s\n%s", out, textOut)
	}
	for _, args := range [][]string{{"--format", "xml"}, {"--format", "sarif", "--json"}, {"--format"}} {
		out, errs, code := runIn(append([]string{"check"}, args...)...)
		if code != exitError || !strings.Contains(errs, "usage: memory-lsp check") {
			t.Errorf("check %v: exit %d, stderr %q", args, code, errs)
		}
		if args[len(args)-1] == "--json" && !strings.Contains(out, `"error"`) {
			t.Errorf("check %v: no JSON error on stdout: %q", args, out)
		}
	}
}

func TestSummary(t *testing.T) {
	workspaceIn(t, map[string]string{
		".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres.\n- [db] Use Redis.\n* Deploy with Helm.\n",
		".memory/quirks.md":    "# Quirks\n\n- [gradle] The Gradle daemon leaks memory.\n",
		".memory/notes.md":     "# Notes\n",
	}, "")
	stepFile := filepath.Join(t.TempDir(), "step-summary.md")
	if err := os.WriteFile(stepFile, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", stepFile)
	out, errs, code := runIn("check", "--format", "summary")
	if code != exitFindings || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	const last = "memory: 1 error, 2 warnings in 3 files (3 entries)"
	// The root holds nothing but .memory/: the closing line is followed by
	// the note that references to code were not checked.
	if end := "\n" + last + "\n" + noCodeNote + "the workspace holds nothing but .memory/\n"; !strings.HasSuffix(out, end) {
		t.Errorf("summary does not end with %q:\n%s", end, out)
	}
	for _, want := range []string{".memory/decisions.md  2/40", ".memory/notes.md      -", ".memory/quirks.md     1/40", "duplicate-slug  error", "bullet-marker   warning"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if i, j := strings.Index(out, "duplicate-slug"), strings.Index(out, "bullet-marker"); i > j {
		t.Errorf("errors should come before warnings:\n%s", out)
	}
	md, err := os.ReadFile(stepFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"earlier step\n### memory-lsp check\n", "| `.memory/decisions.md` | 2 | 40 | 1 | 1 | 0 | 0 |", "| `.memory/notes.md` | – | – | 0 | 1 | 0 | 0 |", "| `duplicate-slug` | error | 1 |", "**" + last + "**"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("step summary lacks %q:\n%s", want, md)
		}
	}
	// Deterministic: a second run prints the same bytes.
	if again, _, _ := runIn("check", "--format", "summary"); again != out {
		t.Errorf("two runs differ:\n%s\n%s", out, again)
	}
	// An unwritable summary file is an I/O error, named.
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "missing", "x.md"))
	if _, errs, code := runIn("check", "--format", "summary"); code != exitError || !strings.Contains(errs, "GitHub step summary") {
		t.Errorf("unwritable step summary: exit %d, stderr %q", code, errs)
	}
}

// TestPreCommitHook reads .pre-commit-hooks.yaml line by line (the module
// keeps no YAML dependency) and holds the hook to what pre-commit will do:
// run `memory-lsp check FILE…` at the repository's top with the staged
// files its pattern selects.
func TestPreCommitHook(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hook := map[string]string{}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasPrefix(line, "- ") {
			in = trimmed == "- id: memory-lsp-check"
			if in {
				hook["id"] = "memory-lsp-check"
			}
			continue
		}
		if k, v, ok := strings.Cut(trimmed, ":"); ok && in {
			hook[k] = yamlScalar(t, strings.TrimSpace(v))
		}
	}
	if hook["id"] == "" {
		t.Fatalf("no hook with id memory-lsp-check in:\n%s", data)
	}
	if hook["language"] != "golang" || hook["pass_filenames"] != "true" || hook["name"] == "" {
		t.Errorf("hook settings: %v", hook)
	}
	files, err := regexp.Compile(hook["files"])
	if err != nil {
		t.Fatalf("files pattern %q: %v", hook["files"], err)
	}
	for path, want := range map[string]bool{
		".memory/quirks.md": true, "a/.memory/x.md": true, "a/b/.memory/decisions.md": true,
		".memory/archive/x.md": false, "README.md": false, "x.memory/quirks.md": false, ".memory/quirks.md.bak": false, ".memory/.lock": false,
	} {
		if files.MatchString(path) != want {
			t.Errorf("files pattern %q matches %s: %v, want %v", hook["files"], path, !want, want)
		}
	}
	entry := strings.Fields(hook["entry"])
	if len(entry) < 2 || entry[0] != "memory-lsp" || !slices.ContainsFunc(commands(), func(c command) bool { return c.name == entry[1] }) {
		t.Fatalf("entry %q is not a memory-lsp command", hook["entry"])
	}
	// pre-commit runs the entry at the top of the repository with the
	// matching files, relative to it, appended.
	workspaceIn(t, map[string]string{
		".memory/quirks.md":   "# Quirks\n\n- [gradle] The Gradle daemon leaks memory.\n",
		"a/.memory/x.md":      "# X\n",
		"b/.memory/quirks.md": "# Quirks\n\n- [k] " + ghToken + "\n",
	}, "")
	out, errs, code := runIn(append(entry[1:], ".memory/quirks.md", "a/.memory/x.md")...)
	if code != exitOK || out != "a/.memory/x.md:1:1: warning: x.md is not a category file (instructions.md, quirks.md, preferences.md, decisions.md, security.md): HackLM never reads it [unknown-file]\n" {
		t.Errorf("hook on clean files: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if _, _, code := runIn(append(entry[1:], "b/.memory/quirks.md")...); code != exitFindings {
		t.Errorf("hook on a file with a secret: exit %d, want %d", code, exitFindings)
	}
}

// yamlScalar reads the plain, single- and double-quoted scalars the hooks
// file uses: a doubled single quote is the only escape in single quotes.
func yamlScalar(t *testing.T, s string) string {
	t.Helper()
	switch {
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	case len(s) >= 2 && s[0] == '"':
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("double-quoted scalar %s: %v", s, err)
		}
		return u
	}
	return s
}

// sarifValidator checks a decoded SARIF log against the SARIF 2.1.0 JSON
// schema, for the objects memory-lsp emits: required properties, property
// types, enums, minimums, uniqueness and additionalProperties: false. It is
// written from the schema rather than from sarif.go, so that a field renamed
// or mistyped there shows up here.
type sarifValidator struct {
	errs    []string
	baseIDs map[string]bool
}

func (v *sarifValidator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

// object checks x is an object with the required keys and no key outside
// required+optional ("properties", the property bag, is always allowed).
func (v *sarifValidator) object(path string, x any, required, optional []string) map[string]any {
	m, ok := x.(map[string]any)
	if !ok {
		v.errorf(path, "want an object, got %T", x)
		return nil
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			v.errorf(path, "required property %q is missing", k)
		}
	}
	for k, val := range m {
		switch {
		case k == "properties":
			v.propertyBag(path+".properties", val)
		case !slices.Contains(required, k) && !slices.Contains(optional, k):
			v.errorf(path, "property %q is not in the schema", k)
		}
	}
	return m
}

func (v *sarifValidator) str(path string, m map[string]any, key string) (string, bool) {
	x, ok := m[key]
	if !ok {
		return "", false
	}
	s, ok := x.(string)
	if !ok {
		v.errorf(path+"."+key, "want a string, got %T", x)
	}
	return s, ok
}

func (v *sarifValidator) integer(path string, m map[string]any, key string, min int) (int, bool) {
	x, ok := m[key]
	if !ok {
		return 0, false
	}
	f, ok := x.(float64)
	if !ok || f != math.Trunc(f) {
		v.errorf(path+"."+key, "want an integer, got %v", x)
		return 0, false
	}
	if f < float64(min) {
		v.errorf(path+"."+key, "%v is below the minimum %d", f, min)
	}
	return int(f), true
}

func (v *sarifValidator) enum(path string, m map[string]any, key string, values ...string) {
	if s, ok := v.str(path, m, key); ok && !slices.Contains(values, s) {
		v.errorf(path+"."+key, "%q is not one of %v", s, values)
	}
}

func (v *sarifValidator) uri(path string, m map[string]any, key string, absolute bool) (string, bool) {
	s, ok := v.str(path, m, key)
	if !ok {
		return "", false
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		v.errorf(path+"."+key, "%q is not a URI reference: %v", s, err)
	case absolute && !u.IsAbs():
		v.errorf(path+"."+key, "%q is not an absolute URI", s)
	}
	return s, true
}

// array checks an optional array property and each of its items.
func (v *sarifValidator) array(path string, m map[string]any, key string, minItems int, unique bool, item func(string, any)) {
	x, ok := m[key]
	if !ok {
		return
	}
	a, ok := x.([]any)
	if !ok {
		v.errorf(path+"."+key, "want an array, got %T", x)
		return
	}
	if len(a) < minItems {
		v.errorf(path+"."+key, "%d items, at least %d required", len(a), minItems)
	}
	seen := map[string]bool{}
	for i, it := range a {
		p := fmt.Sprintf("%s.%s[%d]", path, key, i)
		if unique {
			b, _ := json.Marshal(it) // maps marshal with sorted keys: a canonical form
			if seen[string(b)] {
				v.errorf(p, "repeats an earlier item of a uniqueItems array")
			}
			seen[string(b)] = true
		}
		item(p, it)
	}
}

func (v *sarifValidator) log(x any) {
	m := v.object("sarifLog", x, []string{"version", "runs"}, []string{"$schema", "inlineExternalProperties"})
	if m == nil {
		return
	}
	v.uri("sarifLog", m, "$schema", true)
	v.enum("sarifLog", m, "version", "2.1.0")
	v.array("sarifLog", m, "runs", 0, false, v.run)
}

func (v *sarifValidator) run(path string, x any) {
	m := v.object(path, x, []string{"tool"}, []string{"invocations", "conversion", "language", "versionControlProvenance",
		"originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results", "automationDetails", "runAggregates",
		"baselineGuid", "redactionTokens", "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind",
		"externalPropertyFileReferences", "threadFlowLocations", "taxonomies", "addresses", "translations", "policies",
		"webRequests", "webResponses", "specialLocations"})
	if m == nil {
		return
	}
	v.enum(path, m, "columnKind", "utf16CodeUnits", "unicodeCodePoints")
	v.baseIDs = map[string]bool{}
	if x, ok := m["originalUriBaseIds"]; ok {
		bases, ok := x.(map[string]any)
		if !ok {
			v.errorf(path+".originalUriBaseIds", "want an object, got %T", x)
		}
		for k, b := range bases {
			v.baseIDs[k] = true
			// A base is absolute or absent (then only described).
			loc := v.artifactLocation(path+".originalUriBaseIds."+k, b)
			if loc != nil {
				if _, hasBase := loc["uriBaseId"]; !hasBase {
					if s, ok := loc["uri"].(string); ok {
						if u, err := url.Parse(s); err != nil || !u.IsAbs() {
							v.errorf(path+".originalUriBaseIds."+k, "uri %q must be absolute", s)
						}
					}
				}
			}
		}
	}
	v.tool(path+".tool", m["tool"])
	v.array(path, m, "results", 0, false, v.result)
}

func (v *sarifValidator) tool(path string, x any) {
	m := v.object(path, x, []string{"driver"}, []string{"extensions"})
	if m != nil {
		v.toolComponent(path+".driver", m["driver"])
	}
}

func (v *sarifValidator) toolComponent(path string, x any) {
	m := v.object(path, x, []string{"name"}, []string{"guid", "organization", "product", "productSuffix", "shortDescription",
		"fullDescription", "fullName", "version", "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc", "downloadUri",
		"informationUri", "globalMessageStrings", "notifications", "rules", "taxa", "locations", "language", "contents",
		"isComprehensive", "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
		"associatedComponent", "translationMetadata", "supportedTaxonomies"})
	if m == nil {
		return
	}
	v.str(path, m, "name")
	v.str(path, m, "version")
	v.uri(path, m, "informationUri", true)
	v.array(path, m, "rules", 0, true, v.reportingDescriptor)
}

func (v *sarifValidator) reportingDescriptor(path string, x any) {
	m := v.object(path, x, []string{"id"}, []string{"deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames",
		"shortDescription", "fullDescription", "messageStrings", "defaultConfiguration", "helpUri", "help", "relationships"})
	if m == nil {
		return
	}
	v.str(path, m, "id")
	v.str(path, m, "name")
	for _, k := range []string{"shortDescription", "fullDescription", "help"} {
		if x, ok := m[k]; ok {
			v.multiformat(path+"."+k, x)
		}
	}
	v.uri(path, m, "helpUri", true)
	if x, ok := m["defaultConfiguration"]; ok {
		c := v.object(path+".defaultConfiguration", x, nil, []string{"enabled", "level", "rank", "parameters"})
		if c != nil {
			v.enum(path+".defaultConfiguration", c, "level", "none", "note", "warning", "error")
			if e, ok := c["enabled"]; ok {
				if _, ok := e.(bool); !ok {
					v.errorf(path+".defaultConfiguration.enabled", "want a boolean, got %T", e)
				}
			}
		}
	}
}

func (v *sarifValidator) multiformat(path string, x any) {
	if m := v.object(path, x, []string{"text"}, []string{"markdown"}); m != nil {
		v.str(path, m, "text")
		v.str(path, m, "markdown")
	}
}

func (v *sarifValidator) message(path string, x any) {
	m := v.object(path, x, nil, []string{"text", "markdown", "id", "arguments"})
	if m == nil {
		return
	}
	_, hasText := v.str(path, m, "text")
	_, hasID := v.str(path, m, "id")
	if !hasText && !hasID {
		v.errorf(path, "a message needs text or id")
	}
	v.str(path, m, "markdown")
}

func (v *sarifValidator) result(path string, x any) {
	m := v.object(path, x, []string{"message"}, []string{"ruleId", "ruleIndex", "rule", "kind", "level", "analysisTarget",
		"locations", "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints", "stacks",
		"codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions", "baselineState", "rank",
		"attachments", "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse"})
	if m == nil {
		return
	}
	v.str(path, m, "ruleId")
	v.integer(path, m, "ruleIndex", -1)
	v.enum(path, m, "level", "none", "note", "warning", "error")
	v.enum(path, m, "kind", "notApplicable", "pass", "fail", "review", "open", "informational")
	v.message(path+".message", m["message"])
	v.array(path, m, "locations", 0, false, v.location)
	v.array(path, m, "relatedLocations", 0, true, v.location)
	if x, ok := m["partialFingerprints"]; ok {
		fps, ok := x.(map[string]any)
		if !ok {
			v.errorf(path+".partialFingerprints", "want an object, got %T", x)
		}
		for k := range fps {
			v.str(path+".partialFingerprints", fps, k)
		}
	}
	v.array(path, m, "fixes", 0, true, v.fix)
}

func (v *sarifValidator) location(path string, x any) {
	m := v.object(path, x, nil, []string{"id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships"})
	if m == nil {
		return
	}
	v.integer(path, m, "id", -1)
	if x, ok := m["message"]; ok {
		v.message(path+".message", x)
	}
	if x, ok := m["physicalLocation"]; ok {
		p := v.object(path+".physicalLocation", x, nil, []string{"address", "artifactLocation", "region", "contextRegion"})
		if p == nil {
			return
		}
		_, hasAddr := p["address"]
		a, hasArtifact := p["artifactLocation"]
		if !hasAddr && !hasArtifact {
			v.errorf(path+".physicalLocation", "needs address or artifactLocation")
		}
		if hasArtifact {
			v.resultArtifact(path+".physicalLocation.artifactLocation", a)
		}
		if r, ok := p["region"]; ok {
			v.region(path+".physicalLocation.region", r)
		}
	}
}

func (v *sarifValidator) artifactLocation(path string, x any) map[string]any {
	m := v.object(path, x, nil, []string{"uri", "uriBaseId", "index", "description"})
	if m == nil {
		return nil
	}
	v.uri(path, m, "uri", false)
	v.str(path, m, "uriBaseId")
	v.integer(path, m, "index", -1)
	if d, ok := m["description"]; ok {
		v.message(path+".description", d)
	}
	return m
}

// resultArtifact is an artifactLocation in a result: a relative uri must
// name a base the run defines, or consumers cannot resolve it.
func (v *sarifValidator) resultArtifact(path string, x any) {
	m := v.artifactLocation(path, x)
	if m == nil {
		return
	}
	s, _ := m["uri"].(string)
	base, hasBase := m["uriBaseId"].(string)
	u, err := url.Parse(s)
	switch {
	case s == "":
		v.errorf(path, "no uri")
	case err == nil && !u.IsAbs() && !hasBase:
		v.errorf(path, "relative uri %q without uriBaseId", s)
	case hasBase && !v.baseIDs[base]:
		v.errorf(path, "uriBaseId %q is not in run.originalUriBaseIds", base)
	case hasBase && err == nil && u.IsAbs():
		v.errorf(path, "uri %q is absolute although it has a uriBaseId", s)
	}
}

func (v *sarifValidator) region(path string, x any) {
	m := v.object(path, x, nil, []string{"startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength",
		"byteOffset", "byteLength", "snippet", "message", "sourceLanguage"})
	if m == nil {
		return
	}
	sl, hasSL := v.integer(path, m, "startLine", 1)
	sc, _ := v.integer(path, m, "startColumn", 1)
	el, hasEL := v.integer(path, m, "endLine", 1)
	ec, _ := v.integer(path, m, "endColumn", 1)
	v.integer(path, m, "charOffset", -1)
	v.integer(path, m, "charLength", 0)
	v.integer(path, m, "byteOffset", -1)
	v.integer(path, m, "byteLength", 0)
	_, hasBytes := m["byteOffset"]
	if !hasSL && !hasBytes {
		v.errorf(path, "a text region needs startLine (or an offset)")
	}
	if hasSL && hasEL && (el < sl || el == sl && ec != 0 && ec < sc) {
		v.errorf(path, "ends (%d:%d) before it starts (%d:%d)", el, ec, sl, sc)
	}
}

func (v *sarifValidator) fix(path string, x any) {
	m := v.object(path, x, []string{"artifactChanges"}, []string{"description"})
	if m == nil {
		return
	}
	if d, ok := m["description"]; ok {
		v.message(path+".description", d)
	}
	v.array(path, m, "artifactChanges", 1, true, func(p string, x any) {
		c := v.object(p, x, []string{"artifactLocation", "replacements"}, nil)
		if c == nil {
			return
		}
		v.resultArtifact(p+".artifactLocation", c["artifactLocation"])
		v.array(p, c, "replacements", 1, false, func(p string, x any) {
			r := v.object(p, x, []string{"deletedRegion"}, []string{"insertedContent"})
			if r == nil {
				return
			}
			v.region(p+".deletedRegion", r["deletedRegion"])
			if ic, ok := r["insertedContent"]; ok {
				if c := v.object(p+".insertedContent", ic, nil, []string{"text", "binary", "rendered"}); c != nil {
					v.str(p+".insertedContent", c, "text")
				}
			}
		})
	})
}

func (v *sarifValidator) propertyBag(path string, x any) {
	m, ok := x.(map[string]any)
	if !ok {
		v.errorf(path, "a property bag is an object, got %T", x)
		return
	}
	v.array(path, m, "tags", 0, true, func(p string, x any) {
		if _, ok := x.(string); !ok {
			v.errorf(p, "a tag is a string, got %T", x)
		}
	})
}

// TestSARIFValidatorRejects makes sure the validator above is not vacuous:
// each mutation of a valid log breaks one schema rule and must be reported.
func TestSARIFValidatorRejects(t *testing.T) {
	workspaceIn(t, map[string]string{".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres.\n- [db] Use Redis.\n"}, "")
	out, _, _ := runIn("check", "--format", "sarif")
	type doc = map[string]any
	for name, mutate := range map[string]func(d doc){
		"no version":        func(d doc) { delete(d, "version") },
		"wrong version":     func(d doc) { d["version"] = "2.0.0" },
		"runs not an array": func(d doc) { d["runs"] = map[string]any{} },
		"no driver name":    func(d doc) { delete(jsonAt(d, "runs", 0, "tool", "driver").(doc), "name") },
		"rule without id":   func(d doc) { delete(jsonAt(d, "runs", 0, "tool", "driver", "rules", 0).(doc), "id") },
		"bad default level": func(d doc) {
			jsonAt(d, "runs", 0, "tool", "driver", "rules", 0, "defaultConfiguration").(doc)["level"] = "info"
		},
		"result level":          func(d doc) { jsonAt(d, "runs", 0, "results", 0).(doc)["level"] = "fatal" },
		"empty message":         func(d doc) { jsonAt(d, "runs", 0, "results", 0).(doc)["message"] = map[string]any{} },
		"ruleIndex type":        func(d doc) { jsonAt(d, "runs", 0, "results", 0).(doc)["ruleIndex"] = "8" },
		"unknown result key":    func(d doc) { jsonAt(d, "runs", 0, "results", 0).(doc)["severity"] = "error" },
		"column zero":           func(d doc) { regionOf(d)["startColumn"] = 0.0 },
		"fractional line":       func(d doc) { regionOf(d)["startLine"] = 1.5 },
		"region backwards":      func(d doc) { regionOf(d)["endLine"] = 1.0 },
		"unknown base":          func(d doc) { artifactOf(d)["uriBaseId"] = "%NOPE%" },
		"relative without base": func(d doc) { delete(artifactOf(d), "uriBaseId") },
		"bad columnKind":        func(d doc) { jsonAt(d, "runs", 0).(doc)["columnKind"] = "bytes" },
		"fix without changes":   func(d doc) { jsonAt(d, "runs", 0, "results", 0, "fixes", 0).(doc)["artifactChanges"] = []any{} },
	} {
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		mutate(d)
		v := &sarifValidator{}
		v.log(d)
		if len(v.errs) == 0 {
			t.Errorf("%s: the validator accepted it", name)
		}
	}
}

// jsonAt walks a decoded JSON document by keys and indexes.
func jsonAt(x any, steps ...any) any {
	for _, s := range steps {
		switch k := s.(type) {
		case string:
			x = x.(map[string]any)[k]
		case int:
			x = x.([]any)[k]
		}
	}
	return x
}

func regionOf(d map[string]any) map[string]any {
	return jsonAt(d, "runs", 0, "results", 0, "locations", 0, "physicalLocation", "region").(map[string]any)
}

func artifactOf(d map[string]any) map[string]any {
	return jsonAt(d, "runs", 0, "results", 0, "locations", 0, "physicalLocation", "artifactLocation").(map[string]any)
}

// TestSARIFCasesAreUTF8 guards the fixtures above: a test of UTF-16 columns written in
// broken UTF-8 would test nothing.
func TestSARIFCasesAreUTF8(t *testing.T) {
	for _, tc := range sarifCases {
		for name, data := range tc.files {
			if !utf8.ValidString(data) {
				t.Errorf("%s: %s is not UTF-8", tc.name, name)
			}
		}
	}
}
