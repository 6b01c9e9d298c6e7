package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
)

// The cap on findings listed per rule and file (MaxListed) and the
// severity of what it leaves unlisted, as the red team of issue 26 (round
// c) found it: the finding that counts them now takes the most severe of
// them.
//
// Before: a rule whose findings differ in severity (hidden-text: a comment with
// words in it is a warning, a bidirectional control an error;
// duplicate-slug: across files a warning, within a file an error) gives
// its summary finding the severity of the first finding not listed. When
// that one is a warning, every error past it is counted by a warning: the
// check holds no error at all, `memory-lsp check` exits 0 ("0 errors") and
// an editor shows a warning, for a file that holds a right-to-left
// override (memory poisoning) or a slug used twice in one file. Without the
// cap (or with the error on line 2,000) the same file fails the check.
//
// Measured with `memory-lsp check` on the hidden-text file below: exit 0,
// "memory: 0 errors, 2002 warnings, 2000 infos in 1 file (2002 entries)",
// the summary "warning: 3 more hidden-text findings ..."; the bidi line
// alone in a file: exit 1, 2 errors.

// errorsOf counts the findings of severity error of code in fs.
func errorsOf(fs []Finding, code string) int {
	n := 0
	for _, f := range fs {
		if f.Code == code && f.Severity == Error {
			n++
		}
	}
	return n
}

// TestUnlistedErrorsKeepTheirSeverity: 2,001 entries with a comment of words
// (a warning each), then one with a right-to-left override (an error).
func TestUnlistedErrorsKeepTheirSeverity(t *testing.T) {
	src := decisionsOf(MaxListed+1, func(i int) string {
		return fmt.Sprintf("Deploy service%d after review <!-- the old box%d felt slow --> daily.", i, i)
	}) + "- Deploy the gateway after \u202ereview\u202c daily.\n"
	files := []File{newFile(".memory/decisions.md", []byte(src))}
	fs := Check(files, config.Default())
	if n := errorsOf(fs, HiddenTextCode); n == 0 {
		t.Errorf("no hidden-text finding of severity error: a right-to-left override past the %d listed is counted by a warning, and the check passes", MaxListed)
	}
	// the same override alone fails the check
	alone := []File{newFile(".memory/decisions.md", []byte("# Decisions\n\n- Deploy the gateway after \u202ereview\u202c daily.\n"))}
	if n := errorsOf(Check(alone, config.Default()), HiddenTextCode); n == 0 {
		t.Fatalf("the override alone is no error either: the test's premise is wrong")
	}
}

// TestUnlistedDuplicateSlugErrorsKeepTheirSeverity: quirks.md reuses 2,001 slugs of
// decisions.md (a warning each), then uses one of its own slugs twice (an
// error: a store under it can update only one of the two).
func TestUnlistedDuplicateSlugErrorsKeepTheirSeverity(t *testing.T) {
	var p, d strings.Builder
	p.WriteString("# Quirks\n\n")
	d.WriteString("# Decisions\n\n")
	for i := range MaxListed + 1 {
		fmt.Fprintf(&d, "- [shared-%d] Decision taken on topic t%d.\n", i, i)
		fmt.Fprintf(&p, "- [shared-%d] Pattern number p%d holds.\n", i, i)
	}
	p.WriteString("- [twice] Release on Tuesdays.\n- [twice] Release on Fridays.\n")
	files := []File{
		newFile(".memory/quirks.md", []byte(p.String())),
		newFile(".memory/decisions.md", []byte(d.String())),
	}
	cfg, err := config.Default().Merge(config.Settings{Rules: map[string]config.RuleSetting{"near-duplicate": {}, "conflict": {}}})
	if err != nil {
		t.Fatal(err)
	}
	fs := Check(files, cfg)
	n := 0
	for _, f := range fs {
		if f.Code == "duplicate-slug" && f.Severity == Error && files[f.File].Path == ".memory/quirks.md" {
			n++
		}
	}
	if n == 0 {
		t.Errorf("no duplicate-slug error in quirks.md: [twice] used twice in the file, past %d cross-file warnings, is counted by a warning and the check passes", MaxListed)
	}
}

// TestStalePathWarningsListedFirst: a file with more never-seen paths
// (information) than a rule lists, and a few paths the history saw go:
// every warning is listed, whatever the order of the entries, and the
// information fills what room is left.
func TestStalePathWarningsListedFirst(t *testing.T) {
	src := decisionsOf(MaxListed+5, func(i int) string {
		return fmt.Sprintf("Step %d is in `src/never/n%d.ts`.", i, i)
	}) + "- Auth is in `src/auth/session.ts`.\n- Boot from `src/when/unknown.ts`.\n"
	files := []File{newFile(".memory/decisions.md", []byte(src))}
	warnings, infos, more := 0, 0, 0
	for _, f := range CheckWithRepo(files, config.Default(), testRepo()) {
		switch {
		case f.Code != "stale-path":
		case strings.Contains(f.Message, "more stale-path findings"):
			more++
		case f.Severity == Warning:
			warnings++
		case f.Severity == Information:
			infos++
		}
	}
	if warnings != 2 || infos != MaxListed-2 || more != 1 {
		t.Errorf("%d warnings, %d infos and %d counting findings listed; want 2, %d and 1", warnings, infos, more, MaxListed-2)
	}
}

// decisionsOf is a decisions.md of n entries, line(i) the text of each.
func decisionsOf(n int, line func(i int) string) string {
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range n {
		b.WriteString("- " + line(i) + "\n")
	}
	return b.String()
}
