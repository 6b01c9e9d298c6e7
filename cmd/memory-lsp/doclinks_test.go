package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFiles are the documents a reader follows from the README.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"../../README.md", "../../ARCHITECTURE.md", "../../RELIABILITY.md", "../../BENCHMARKS.md"}
	for _, glob := range []string{"../../docs/*.md", "../../clients/*/README.md"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

var (
	mdLink    = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	codeSpan  = regexp.MustCompile("`[^`\n]*`")
)

// githubAnchor is the anchor GitHub gives a heading: lower case, its
// punctuation but hyphens dropped, spaces made hyphens.
func githubAnchor(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && r != '—' && r != '–' && r != '…':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// withoutCode is a Markdown text without its fenced blocks and code spans,
// where a link is text, not a link.
func withoutCode(s string) string {
	var out []string
	fence := false
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if !fence {
			out = append(out, codeSpan.ReplaceAllString(line, ""))
		}
	}
	return strings.Join(out, "\n")
}

// TestDocLinks: every relative link of the README and the documents it
// leads to names a file that exists and, with an anchor into a Markdown
// file, a heading that file has: the README was split into docs/ (issue
// 28), and a link that leads nowhere is a dead end for the reader.
func TestDocLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		data, err := os.ReadFile(path)
		if err == nil {
			for _, m := range mdHeading.FindAllStringSubmatch(withoutCode(string(data)), -1) {
				a[githubAnchor(m[1])] = true
			}
		}
		anchors[path] = a
		return a
	}
	checked := 0
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		// The README's reference moved to docs/ (issue 28): a page that sends
		// the reader to "the server README" for it sends them nowhere.
		for _, dead := range []string{"server README", "server's README", "README's \"", "README, \""} {
			if strings.Contains(string(data), dead) {
				t.Errorf("%s sends the reader to %q, whose reference moved to docs/", doc, dead)
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(withoutCode(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %q: %v", doc, target, err)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[anchor] {
				t.Errorf("%s: link %q: %s has no heading with that anchor", doc, target, path)
			}
			checked++
		}
	}
	if checked < 30 {
		t.Errorf("only %d links checked; the documents should link each other", checked)
	}
}

// TestReadmeFitsTwoScreens: the README is what a newcomer reads first: what
// it is, the two commands, install, one example per editor and agent, and
// where the rest is (issue 28).
func TestReadmeFitsTwoScreens(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n >= 200 {
		t.Errorf("README.md has %d lines; keep it under 200 and move reference into docs/", n)
	}
	for _, want := range []string{"docs/commands.md", "docs/settings.md", "docs/rules.md", "docs/language-server.md",
		"docs/ci.md", "docs/hacklm.md", "docs/evaluation.md", "clients/mcp/README.md", "require('memory_lsp').setup", "claude mcp add"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("README.md does not mention %s", want)
		}
	}
}

// TestReadmeProjectBlock runs the README's "Use it on your project" block as
// a newcomer pastes it, line by line, in a fresh git repository with a
// subfolder (the block says "in a git repository"): every command exits 0,
// the store lands, the query finds it, check is clean (issue 28: a fresh
// trial of the README's first screen works as written).
func TestReadmeProjectBlock(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "## Use it on your project")
	if !ok {
		t.Fatal(`README.md has no "## Use it on your project" section`)
	}
	_, block, ok := strings.Cut(rest, "```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("the section has no sh block")
	}
	root := newGitRoot(t)
	ran := 0
	for line := range strings.SplitSeq(block, "\n") {
		cmdline, _, _ := strings.Cut(line, " #")
		args, err := shellWords(strings.TrimSpace(cmdline))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if len(args) == 0 {
			continue
		}
		if args[0] != "memory-lsp" {
			t.Fatalf("%q: the block runs something else than memory-lsp", line)
		}
		out, errs, code := runBinary(t, root, "", args[1:]...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", cmdline, code, out, errs)
		}
		switch args[1] {
		case "store":
			if !strings.HasPrefix(out, "Stored in decisions.md") {
				t.Errorf("%s: %q", cmdline, out)
			}
		case "query":
			if !strings.Contains(out, "Use Postgres 16 for the ledger.") {
				t.Errorf("%s: %q", cmdline, out)
			}
		}
		ran++
	}
	if ran < 4 {
		t.Errorf("the block ran %d commands", ran)
	}
}

// shellWords splits a command line as sh does for the README's examples:
// words, and double-quoted strings without expansions.
func shellWords(s string) ([]string, error) {
	var out []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				out = append(out, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote")
	}
	if inWord {
		out = append(out, w.String())
	}
	return out, nil
}
