package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// docTableRows are the rows of the markdown table that follows heading in
// doc, each cut into its cells (the header and the rule line left out).
func docTableRows(t *testing.T, doc, heading string) [][]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, heading)
	if !ok {
		t.Fatalf("no %q", heading)
	}
	var rows [][]string
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 3 {
		t.Fatalf("no table after %q", heading)
	}
	return rows[2:]
}

// replyPattern reads a documented reply, "…" standing for any text, as a
// pattern of the reply's start.
func replyPattern(doc string) *regexp.Regexp {
	parts := strings.Split(doc, "…")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*"))
}

var backticked = regexp.MustCompile("`([^`]+)`")

// TestHackLMDocReplies: docs/hacklm.md, the page for HackLM users, says
// what a store does with an entry like an existing one and what its reply
// says; each row's first example is stored through the binary, in a git
// repository, after its existing entry, and the reply is the one the row
// gives. The replies table's sentences are those replies, and the
// query's. The page is linked from the README.
func TestHackLMDocReplies(t *testing.T) {
	data, err := os.ReadFile("../../docs/hacklm.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/hacklm.md)") {
		t.Error("README.md does not link docs/hacklm.md")
	}
	var replies []string
	for _, row := range docTableRows(t, doc, "What a store does with a new entry that resembles an existing one:") {
		ex := backticked.FindAllStringSubmatch(row[1], 2)
		want := backticked.FindStringSubmatch(row[3])
		if len(ex) < 2 || want == nil {
			t.Fatalf("row %q: no example pair or reply", row[0])
		}
		old, new := ex[0][1], ex[1][1]
		if tail, ok := strings.CutPrefix(new, "… "); ok {
			// "… on backend changes": the old text with its last words
			// replaced by as many
			w := strings.Fields(old)
			new = strings.Join(append(w[:len(w)-len(strings.Fields(tail))], tail), " ")
		}
		root := newGitRoot(t)
		if _, errs, code := runBinary(t, root, "", "store", "--category", "Decision", old); code != 0 {
			t.Fatalf("row %q: storing %q: exit %d %s", row[0], old, code, errs)
		}
		out, errs, code := runBinary(t, root, "", "store", "--category", "Decision", new)
		out = strings.TrimSpace(out)
		if code != 0 || !replyPattern(want[1]).MatchString(out) {
			t.Errorf("row %q: %q after %q replied %q (exit %d, %s), the page says %q", row[0], new, old, out, code, errs, want[1])
		}
		replies = append(replies, out)
		if row[0] == "says the same thing" {
			out, _, _ := runBinary(t, root, "", "query", "kubernetes helm chart")
			replies = append(replies, strings.TrimSpace(out))
		}
	}
	for _, row := range docTableRows(t, doc, "## Replies") {
		want := backticked.FindStringSubmatch(row[2])
		found := false
		for _, r := range replies {
			found = found || want != nil && replyPattern(want[1]).MatchString(r)
		}
		if !found {
			t.Errorf("reply %q of %s: no store or query of the page replied so: %q", row[2], row[0], replies)
		}
	}
}
