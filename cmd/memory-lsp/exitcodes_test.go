package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// gitProject is a git repository with a subfolder, as users work; with
// memory it holds .memory/decisions.md with one entry and a secret.
func gitProject(t *testing.T, memory bool) string {
	t.Helper()
	root := gittest.New(t).Dir
	if err := os.MkdirAll(filepath.Join(root, "cmd", "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if memory {
		writeTestFile(t, filepath.Join(root, ".memory", "decisions.md"), []byte("# Decisions\n\n- [db] Use Postgres for the ledger.\n"))
	}
	return root
}

// TestExitCodes holds docs/commands.md's exit codes: 0 success, 1 findings of
// severity error or a refused store, 2 a usage or I/O error — for every
// command, run from a subfolder of a git repository as users run them.
func TestExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		memory bool
		args   []string
		want   int
		stderr string // a part of stderr
	}{
		{"check clean", true, []string{"check"}, 0, ""},
		{"list", true, []string{"list"}, 0, ""},
		{"query", true, []string{"query", "postgres"}, 0, ""},
		{"store", true, []string{"store", "--category", "decisions", "Deploy the API first."}, 0, ""},
		{"store refused (a secret)", true, []string{"store", "--category", "Decision", "The CI user is AKIAOC9IS0J8HT9LGMXG in us-east-1."}, 1, "content"},
		{"query --limit 0", true, []string{"query", "--limit", "0", "x"}, 2, "limit"},
		{"list --category unknown", true, []string{"list", "--category", "goals"}, 2, "unknown category"},
		{"list with an argument", true, []string{"list", "quirks"}, 2, `list takes no arguments, got "quirks"`},
		{"cleanup with an argument", true, []string{"cleanup", "--apply", "extra"}, 2, "cleanup takes no arguments"},
		{"init with an argument", true, []string{"init", "now"}, 2, "init takes no arguments"},
		{"store with a bad slug", true, []string{"store", "--category", "Decision", "--slug", "My Slug", "x y z"}, 2, "slug"},
		{"store without category", true, []string{"store", "x y z"}, 2, "--category is required"},
		{"unknown flag", true, []string{"list", "--colour"}, 2, "unknown flag"},
		{"unknown command", true, []string{"frobnicate"}, 2, "unknown command"},
		{"check without .memory", false, []string{"check"}, 2, "no .memory folder in"},
		{"list without .memory", false, []string{"list"}, 2, "no .memory folder in"},
		{"query without .memory", false, []string{"query", "x"}, 2, "no .memory folder in"},
		{"cleanup without .memory", false, []string{"cleanup"}, 2, "no .memory folder in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := gitProject(t, tt.memory)
			_, errs, code := runBinary(t, filepath.Join(root, "cmd", "app"), "", tt.args...)
			if code != tt.want || !strings.Contains(errs, tt.stderr) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr with %q", tt.args, code, errs, tt.want, tt.stderr)
			}
			if _, err := os.Stat(filepath.Join(root, "cmd", "app", ".memory")); err == nil {
				t.Errorf("%v created .memory in the subfolder it ran from", tt.args)
			}
		})
	}
}

// TestFirstStoreGoesToTheRepositoryTop: in a repository without memory,
// a store from a subfolder creates .memory at the git top level and says
// so; an error-free message stays on stdout as HackLM's sentence.
func TestFirstStoreGoesToTheRepositoryTop(t *testing.T) {
	root := gitProject(t, false)
	out, errs, code := runBinary(t, filepath.Join(root, "cmd", "app"), "", "store", "--category", "Decision", "Use Go 1.26 for every service.")
	if code != 0 || out != "Stored in decisions.md: \"Use Go 1.26 for every service.\"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if !strings.Contains(errs, "created "+filepath.Join(root, ".memory")) {
		t.Errorf("stderr %q does not say where .memory was created", errs)
	}
	if b, err := os.ReadFile(filepath.Join(root, ".memory", "decisions.md")); err != nil || !strings.Contains(string(b), "Use Go 1.26") {
		t.Errorf("root .memory/decisions.md: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "app", ".memory")); err == nil {
		t.Error("the store created .memory in the subfolder")
	}
}

// TestUnknownRuleInConfig: a --config whose rules name no rule is a usage
// error naming the key and the nearest code, through the binary from a
// subfolder of a git repository; a valid one takes effect.
func TestUnknownRuleInConfig(t *testing.T) {
	root := gitProject(t, true)
	writeTestFile(t, filepath.Join(root, "typo.json"), []byte(`{"rules": {"missing-slugg": true}}`))
	writeTestFile(t, filepath.Join(root, "on.json"), []byte(`{"rules": {"missing-slug": true}}`))
	writeTestFile(t, filepath.Join(root, ".memory", "quirks.md"), []byte("# Quirks\n\n- The Gradle daemon leaks memory.\n"))
	sub := filepath.Join(root, "cmd", "app")
	_, errs, code := runBinary(t, sub, "", "check", "--config", filepath.Join(root, "typo.json"))
	if code != 2 || !strings.Contains(errs, `rules.missing-slugg: no rule has the code "missing-slugg"; did you mean "missing-slug"?`) {
		t.Errorf("typo: exit %d, stderr %q", code, errs)
	}
	out, _, _ := runBinary(t, sub, "", "check")
	on, _, _ := runBinary(t, sub, "", "check", "--config", filepath.Join(root, "on.json"))
	if strings.Contains(out, "[missing-slug]") || !strings.Contains(on, "[missing-slug]") {
		t.Errorf("missing-slug: off by default, on with the setting; got %q and %q", out, on)
	}
}
