package rules

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoCodeComparedOutsideRules keeps what a rule is on the rule (its
// Traits): outside core/rules no production code compares a finding's code
// with a literal, switches on it or asks whether it is enabled by name, so
// a new rule touches its own file and the registry line only.
func TestNoCodeComparedOutsideRules(t *testing.T) {
	var alts []string
	for _, r := range registry {
		alts = append(alts, regexp.QuoteMeta(r.Code))
	}
	codes := `"(` + strings.Join(alts, "|") + `)"`
	compare := regexp.MustCompile(`(==|!=)\s*` + codes + `|` + codes + `\s*(==|!=)|case\s+` + codes + `|Enabled\(` + codes + `\)|\[` + codes + `\]`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || p == filepath.Join(root, "core", "rules")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := compare.FindString(line); m != "" {
				t.Errorf("%s:%d: %s: compare the rule's Traits instead (core/rules/rules.go)", p, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
