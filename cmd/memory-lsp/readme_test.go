package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// TestReadmeRuleTable keeps docs/rules.md's table of diagnostic codes equal
// to the rule registry: codes are API, and a table that drifts from the code
// is worse than none. `go test ./cmd/memory-lsp -run TestReadmeRuleTable
// -update` regenerates it.
func TestReadmeRuleTable(t *testing.T) {
	const path = "../../docs/rules.md"
	const start, end = "<!-- rules:start -->\n", "<!-- rules:end -->"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("docs/rules.md lacks the %q … %q markers", start, end)
	}
	var b strings.Builder
	b.WriteString("| code | severity | meaning |\n|---|---|---|\n")
	for _, r := range rules.Rules() {
		b.WriteString("| `" + r.Code + "` | " + r.Severity.String() + " | " + strings.ReplaceAll(r.Summary, "|", `\|`) + " |\n")
	}
	want := s[:i+len(start)] + b.String() + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/rules.md's table of diagnostic codes is out of date; run go test ./cmd/memory-lsp -run TestReadmeRuleTable -update")
}

// TestReadmeListedPerRule: docs/rules.md states how many findings of a rule
// a file lists, and it is rules.MaxListed.
func TestReadmeListedPerRule(t *testing.T) {
	data, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	n := rules.MaxListed
	want := fmt.Sprintf("A file lists at most %d,%03d findings of one rule", n/1000, n%1000)
	if !strings.Contains(string(data), want) {
		t.Errorf("docs/rules.md does not say %q", want)
	}
}

// longSuites is the command that runs the long suites (internal/longtest),
// one package at a time: .ci/run says why.
const longSuites = "go test -tags long -p 1 ./..."

// TestReadmeFirstCommands: the README opens with the two commands a
// newcomer runs on a fresh clone — the main job on the example that ships
// in the repository, then the test suite, which .ci/run runs as written —
// and the first one works: findings with their fixes, exit 0, on a clone
// that has no .memory of its own.
func TestReadmeFirstCommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if !ok || len(lines) != 2 {
		t.Fatalf("the README's first block is not two commands: %q", block)
	}
	command := func(line string) string { c, _, _ := strings.Cut(line, "#"); return strings.TrimSpace(c) }
	first, second := command(lines[0]), command(lines[1])
	if second != "go test ./..." {
		t.Errorf("second command %q, want go test ./...", second)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil || !strings.Contains(string(ci), "\n"+second+"\n") {
		t.Errorf(".ci/run does not run %q as written: %v", second, err)
	}
	// the long suites the README's command leaves out (internal/longtest)
	// run in CI after it
	if i, j := strings.Index(string(ci), "\n"+second+"\n"), strings.Index(string(ci), "\n"+longSuites+"\n"); j < 0 || j < i {
		t.Errorf(".ci/run does not run %s after %q", longSuites, second)
	}
	if !strings.Contains(string(data), "`"+longSuites+"`") {
		t.Error("README.md does not say how to run the long suites")
	}
	args, ok := strings.CutPrefix(first, "go run ./cmd/memory-lsp ")
	if !ok {
		t.Fatalf("first command %q does not run memory-lsp", first)
	}
	out, errs, code := runBinary(t, "../..", "", strings.Fields(args)...)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", first, code, out, errs)
	}
	for _, want := range []string{"[agent-directive]", "[conflict]", "[bullet-marker]", "sibling of line 4 (\"nats\" vs \"rabbitmq\"", "    fix: Delete entry", "(check --fix applies it)"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: stdout lacks %q:\n%s", first, want, out)
		}
	}
	if !strings.Contains(errs, "memory: 0 errors, 4 warnings, 4 infos in 3 files") {
		t.Errorf("%s: stderr %q", first, errs)
	}
}

// docs/language-server.md states how long the journal keeps a store and
// what git is told; both are the code's.
func TestReadmeJournal(t *testing.T) {
	data, err := os.ReadFile("../../docs/language-server.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(data)), " ")
	if store.JournalKeep != time.Hour || !strings.Contains(readme, "`.memory/"+store.JournalName+"` (a journal of the last hour's acknowledged stores") {
		t.Errorf("docs/language-server.md's journal sentence does not say what the code keeps (%s, %s)", store.JournalName, store.JournalKeep)
	}
	if !strings.Contains(readme, "`.git/info/exclude`") {
		t.Error("docs/language-server.md does not say where git is told to ignore the journal")
	}
}
