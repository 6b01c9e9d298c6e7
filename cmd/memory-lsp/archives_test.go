package main

// The rule and fix archives of testdata/rules and testdata/fixes, which
// core's golden tests check against the rules, run here through the built
// binary as well: `check --format json`, `check --format sarif` and the
// language server over stdio, each in a fresh git repository (users work in
// one) holding the archive's files, with the archive's settings. What each
// front end reports is rendered in the archive's own text form and compared
// with want/findings byte for byte, after the differences each front end has
// by design, which surfaces below lists (and nothing else does).

import (
	"cmp"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/fixture"
)

// surface is one front end: how to get its findings for a workspace, and
// what it can show of the archive's want/findings.
type surface struct {
	name     string
	findings func(t *testing.T, ws *archiveWorkspace) []fixture.Finding
	shows    func(want []fixture.Finding) []fixture.Finding
}

// surfaces are the front ends every rule archive runs through. Their shows
// functions are the only place where what a front end reports may differ
// from want/findings.
var surfaces = []surface{
	// check --format json carries everything want/findings does.
	{"json", jsonFindings, func(want []fixture.Finding) []fixture.Finding { return want }},
	{"sarif", sarifFindings, sarifShows},
	{"lsp", lspFindings, lspShows},
}

// replayable reports whether the binary can be shown an archive as the core
// test sees it. An archive's history ("moved:", "deleted:", "had:", "lost:" lines) is
// described for core's fake repository, with commit times and hashes a git
// repository cannot be made to have, so such an archive runs in core only;
// renames and deletions through the binary are TestE2EReferences' (lsp) and
// the repository view's tests on real git history (core/memory).
func replayable(fx *fixture.Fixture) (bool, string) {
	if fx.Repo != nil && (len(fx.Repo.Gone) > 0 || len(fx.Repo.Had) > 0 || len(fx.Repo.Lost) > 0) {
		return false, "the archive describes git history, which only core's fake repository can hold"
	}
	return true, ""
}

// sarifShows: SARIF has three levels, so info and hint are both "note"; a
// fix that changes no file (Keep both, a choice the editor remembers) has no
// replacements and is not listed.
func sarifShows(want []fixture.Finding) []fixture.Finding {
	out := slices.Clone(want)
	for i := range out {
		out[i].Severity = sarifLevelOf(out[i].Severity)
		out[i].Fixes = slices.DeleteFunc(slices.Clone(out[i].Fixes), func(x fixture.Fix) bool { return !sarifListsFix(x.Title) })
	}
	return out
}

// sarifLevelOf is the SARIF level of one of core's severities.
func sarifLevelOf(severity string) string {
	if severity == "info" || severity == "hint" {
		return "note"
	}
	return severity
}

// sarifListsFix reports whether SARIF lists the fix with this title: only
// fixes that edit files have replacements to list.
func sarifListsFix(title string) bool { return title != rules.FixKeepBoth }

// lspShows: a code action does not say whether fix-all would apply it, so
// no fix is marked safe; and the server publishes the diagnostics of one
// line least severe first (an editor that shows one message per line shows
// the last), keeping the order of the lines.
func lspShows(want []fixture.Finding) []fixture.Finding {
	out := slices.Clone(want)
	for i := range out {
		out[i].Fixes = slices.Clone(out[i].Fixes)
		for j := range out[i].Fixes {
			out[i].Fixes[j].Safe = false
		}
	}
	for start := 0; start < len(out); {
		end := start + 1
		for end < len(out) && out[end].Path == out[start].Path && out[end].Line == out[start].Line {
			end++
		}
		slices.SortStableFunc(out[start:end], func(a, b fixture.Finding) int {
			return cmp.Compare(severityRank[b.Severity], severityRank[a.Severity])
		})
		start = end
	}
	return out
}

// severityRank orders core's severities from the most severe.
var severityRank = map[string]int{"error": 0, "warning": 1, "info": 2, "hint": 3}

// TestRuleArchives runs every testdata/rules archive through each surface.
func TestRuleArchives(t *testing.T) {
	for _, file := range archiveFiles(t, "rules") {
		fx := loadArchive(t, file)
		t.Run(fx.Name, func(t *testing.T) {
			t.Parallel()
			section, ok := fx.Want("want/findings")
			if !ok {
				t.Fatal("no want/findings section")
			}
			want, err := fixture.ParseFindings(section)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := replayable(fx); !ok {
				t.Skip(why)
			}
			ws := newArchiveWorkspace(t, fx)
			for _, s := range surfaces {
				t.Run(s.name, func(t *testing.T) {
					got := slices.DeleteFunc(s.findings(t, ws), func(f fixture.Finding) bool { return !fx.Shows(f.Code) })
					if g, w := fixture.Render(got), fixture.Render(s.shows(want)); g != w {
						t.Errorf("%s reports\n%s--- want (want/findings as %s shows it)\n%s", s.name, g, s.name, w)
					}
				})
			}
		})
	}
}

func archiveFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := fixture.Archives(filepath.Join("..", ".."), dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func loadArchive(t *testing.T, file string) *fixture.Fixture {
	t.Helper()
	fx, err := fixture.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return fx
}
