package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
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

// TestRulesReportThroughTheRegistry: a rule's code and default severity are
// written once, on its registry line. No rule builds a Finding with a Code
// or a Severity of its own, or appends to the findings other than through
// report and reportAs, which fill both in from the running rule.
func TestRulesReportThroughTheRegistry(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "Finding" {
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Code" || k.Name == "Severity") {
								t.Errorf("%s: a Finding sets its %s: use w.report (or w.reportAs) and the registry line", fset.Position(kv.Pos()), k.Name)
							}
						}
					}
				}
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "out" && filepath.Base(name) != "rules.go" && filepath.Base(name) != "checker.go" {
						t.Errorf("%s: findings appended directly: use w.report", fset.Position(n.Pos()))
					}
				}
			}
			return true
		})
	}
}
