package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// evalScript measures the reference rules on real memory through this
// binary and compares what they flag with hand labels
// (testdata/refs/eval/labels.tsv).
const evalScript = "../../scripts/eval-references"

// TestReferenceRulesOnRealMemory runs the evaluation of the reference rules
// on public repositories' agent instruction and memory files, checked
// against their own repositories through the binary, and fails when a
// finding has no label or a labelled finding is gone: a change to the rules
// that changes what they flag on real memory must relabel, which keeps the
// precision and recall it prints (per rule, in the log) true. It needs git
// mirrors of the repositories (fetch them; REFS_MIRRORS names the folder
// holding OWNER+NAME/repo), git and python3, and is skipped without them.
func TestReferenceRulesOnRealMemory(t *testing.T) {
	mirrors := os.Getenv("REFS_MIRRORS")
	if mirrors == "" {
		t.Skip("REFS_MIRRORS not set: the evaluation on real memory needs git mirrors of the labelled repositories (see testdata/refs/eval/labels.tsv)")
	}
	for _, tool := range []string{"git", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the evaluation clones mirrors with git and is driven by a python3 script", tool)
		}
	}
	mirrors, err := filepath.Abs(mirrors)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", evalScript, "--bin", binary, "--mirrors", mirrors, "--work", t.TempDir())
	out, err := cmd.CombinedOutput()
	for line := range strings.SplitSeq(strings.TrimRight(string(out), "\n"), "\n") {
		t.Log(line)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 3:
		t.Skip("a labelled repository's mirror is missing under REFS_MIRRORS (the log names it)")
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		t.Error("the reference rules' findings and the labels disagree (the log lists each difference): relabel testdata/refs/eval/labels.tsv")
	default:
		t.Fatalf("%s: %v", evalScript, err)
	}
	if !strings.Contains(string(out), "RESULT total") {
		t.Error("the evaluation printed no total")
	}
}
