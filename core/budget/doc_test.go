package budget

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/budgets.md's table from Agents")

const (
	tableStart = "<!-- agents table: go test ./core/budget -run TestBudgetsDoc -update -->\n"
	tableEnd   = "<!-- end of agents table -->\n"
)

// table renders Agents as docs/budgets.md shows them: one row per limit
// (one for an agent without any), with its source and the day it was read.
func table() string {
	var b strings.Builder
	b.WriteString("| agent (`agents`) | detected by | loads at session start | limit | past it | source, checked |\n|---|---|---|---|---|---|\n")
	for _, a := range Agents {
		var loads []string
		for _, s := range a.Startup {
			l := "`" + s.Pattern + "`"
			if s.Always != nil {
				l += " (those loaded always)"
			}
			loads = append(loads, l)
		}
		if a.FirstOnly {
			loads = []string{strings.Join(loads, " or ") + ", the first present"}
		}
		if a.ImportDepth > 0 {
			loads = append(loads, fmt.Sprintf("`@path` imports, %d deep", a.ImportDepth))
		}
		head := fmt.Sprintf("| %s (`%s`) | `%s` | %s |", a.Name, a.ID, strings.Join(a.Detect, "`, `"), strings.Join(loads, "; "))
		if len(a.Limits) == 0 {
			fmt.Fprintf(&b, "%s no documented limit | — | [%s](%s), %s |\n", head, host(a.Source), a.Source, a.Checked)
			continue
		}
		for _, l := range a.Limits {
			what := l.What
			if l.Part != "" {
				what = l.Part + ": " + what
			}
			fmt.Fprintf(&b, "%s %s %s | %s | [%s](%s), %s |\n", head, Amount(l.Max, l.Unit), scopeWords[l.Scope], beyondWords[l.Beyond]+" — "+what, host(l.Source), l.Source, l.Checked)
			head = "| | | |"
		}
	}
	return b.String()
}

var scopeWords = map[Scope]string{Chain: "for every file loaded, together", EachFile: "per file", Read: "per read of a file"}

var beyondWords = map[Beyond]string{Cut: "dropped without a word", Skip: "the file skipped", Pages: "the agent must read the rest in parts", Unstated: "not stated"}

func host(url string) string {
	h := strings.TrimPrefix(strings.TrimPrefix(url, "https://"), "www.")
	h, _, _ = strings.Cut(h, "/")
	return h
}

// TestBudgetsDoc keeps docs/budgets.md's table equal to Agents: the limits
// people read are the ones the code judges.
func TestBudgetsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "budgets.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	before, rest, ok1 := strings.Cut(doc, tableStart)
	_, after, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no table between %q and %q", path, tableStart, tableEnd)
	}
	want := before + tableStart + table() + tableEnd + after
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's table differs from Agents; run go test ./core/budget -run TestBudgetsDoc -update", path)
}
