package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check through the binary in a git repository, as CI runs it: a rule and
// its reversal is a warning; a heading pair, a preference said in other
// words and a rule with an added exception are information and do not
// count. The store still reads the
// exception as a reversal: it replaces the old entry and logs it (issue 27).
func TestConflictSeverityThroughBinary(t *testing.T) {
	root := newGitRoot(t)
	const file = "# Instructions\n\n" +
		"- Always squash merge pull requests.\n" +
		"- Never squash merge pull requests.\n" +
		"- Things to Do\n" +
		"- Things NOT to Do\n" +
		"- Use chi for HTTP routing.\n" +
		"- Prefer gorilla/mux over chi for HTTP routing.\n" +
		"- Run the migrations before deploys.\n"
	writeMemory(t, root, "instructions.md", file)
	out, errs, code := runBinary(t, root, "", "check")
	if code != 0 {
		t.Fatalf("check: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		`instructions.md:4:3: info: reverses line 3: "Always squash merge pull requests." [conflict]`,
		`instructions.md:6:3: info: reverses line 5: "Things to Do" (a line of code, a heading or a lead-in: it may state no rule) [conflict]`,
		// a reversal in other words: shown, not counted (a694b6f)
		`instructions.md:8:3: info: reverses line 7 (prefers another option): "Use chi for HTTP routing." (other words differ too: it may not be the same rule) [conflict]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "0 warnings, 3 infos") {
		t.Errorf("check counted a conflict, which is information: %q", errs)
	}

	const exception = "Run the migrations before deploys, without the seed data."
	out, errs, code = runBinary(t, root, "", "store", "--category", "Instruction", exception)
	if code != 0 || !strings.Contains(out, "revers") {
		t.Fatalf("store: exit %d, stdout %q, stderr %q: the store no longer reads the exception as a reversal", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(root, ".memory", "instructions.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "- Run the migrations before deploys.\n") || !strings.Contains(string(b), "- "+exception+"\n") {
		t.Errorf("the store did not replace the old entry:\n%s", b)
	}
	out, _, _ = runBinary(t, root, "", "check")
	if !strings.Contains(out, "Always squash") || strings.Contains(out, "without the seed data") {
		t.Errorf("after the store, check reports:\n%s", out)
	}
}

// Headings, a list's mark that says what the words do not, and a rule
// beside them, through the binary in a git repository as CI runs check:
// every pair is information; those real instruction files held say why
// they may be none, and the short rule a red team wrote is a plain
// reversal (issue 27's tuning pool).
func TestConflictHeadingsAndMarksThroughBinary(t *testing.T) {
	root := newGitRoot(t)
	const file = "# Instructions\n\n" +
		"- When to use\n" +
		"- When NOT to use\n" +
		"- ❌ 依赖第三方服务\n" +
		"- **不要依赖第三方服务**\n" +
		"- Squash commits\n" +
		"- Never squash commits\n"
	writeMemory(t, root, "instructions.md", file)
	out, errs, code := runBinary(t, root, "", "check")
	if code != 0 || !strings.Contains(errs, "0 warnings, 3 infos") {
		t.Errorf("check: exit %d, stderr %q; want the three pairs shown, none counted", code, errs)
	}
	for _, want := range []string{
		`instructions.md:4:3: info: reverses line 3: "When to use"`,
		`instructions.md:6:3: info: reverses line 5: "❌ 依赖第三方服务" (a list's mark (❌, ✅) says how to read it, not its words) [conflict]`,
		`instructions.md:8:3: info: reverses line 7: "Squash commits" [conflict]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}
