package main

import (
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
