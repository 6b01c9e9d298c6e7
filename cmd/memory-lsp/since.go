package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// `check --since REF` lists, after the findings, every memory line added or
// changed since the git commit REF with who wrote it, so that the reviewer
// of a pull request sees each line an agent wrote: in text as note lines
// (path:line:column: note: …), in JSON under "since", in SARIF as results of
// level note (GitHub shows them on the pull request's diff, where a run
// property would show nowhere), and with --format summary as a Markdown
// table a pull request comment shows.

// sinceRuleID is the SARIF rule of the written lines; it is no rule of the
// registry (nothing is wrong with a line for being new).
const sinceRuleID = "written-since"

// maxSummaryRows bounds the Markdown table: a pull request comment holds at
// most 65,536 characters.
const maxSummaryRows = 200

type sinceReport struct {
	ref    string // "": no --since
	commit string
}

func sinceOf(a *parsedArgs) *sinceReport { return &sinceReport{ref: a.str("since")} }

// read finds the lines of c's files written since the ref, keeping those of
// the files check reports.
func (s *sinceReport) read(ctx context.Context, svc *memory.Service, c *checked) error {
	// The lines written since ref are memory lines: the agents' files
	// after them (AGENTS.md) are not among them.
	commit, written, err := svc.Since(ctx, s.ref, c.files[:c.mem])
	if err != nil {
		return err
	}
	s.commit = commit
	for _, w := range written {
		if c.reported(c.files[w.File]) {
			c.written = append(c.written, w)
		}
	}
	return nil
}

// each calls fn for every written line of every workspace.
func (s *sinceReport) each(results []*checked, fn func(c *checked, w memory.Written)) {
	for _, c := range results {
		for _, w := range c.written {
			fn(c, w)
		}
	}
}

func (s *sinceReport) writeText(out io.Writer, results []*checked) {
	if s.ref == "" {
		return
	}
	s.each(results, func(c *checked, w memory.Written) {
		fmt.Fprintf(out, "%s:%d:1: note: %s\n", c.shown(w.File), w.Line+1, w.Message(s.ref))
	})
	// Writes waiting for review are not memory yet, but the same review.
	for _, c := range results {
		for _, h := range c.held {
			fmt.Fprintf(out, "%s:%d:1: note: %s\n", display(filepath.Join(c.root, ".memory", store.HeldName)), h.Line, heldLine(h))
		}
	}
}

// heldLine describes a held write on one line, printable.
func heldLine(h memory.Held) string {
	return fmt.Sprintf("held for review, not stored, for %s by %s at %s (memory-lsp review --approve %s): %s", memory.Printable(h.Category), h.Who(), memory.Printable(h.Time), memory.Printable(h.ID), memory.Printable(h.Content))
}

// line is the closing sentence: "memory: 3 lines written since
// origin/main (1 not committed yet)".
func (s *sinceReport) line(results []*checked) string {
	n, uncommitted := 0, 0
	s.each(results, func(_ *checked, w memory.Written) {
		n++
		if !w.Committed {
			uncommitted++
		}
	})
	if n == 0 {
		return "memory: no line written since " + s.ref
	}
	out := fmt.Sprintf("memory: %s written since %s", plural(n, "line"), s.ref)
	if uncommitted > 0 {
		out += fmt.Sprintf(" (%d not committed yet)", uncommitted)
	}
	return out
}

type jsonSince struct {
	Ref     string        `json:"ref"`
	Commit  string        `json:"commit"`
	Written []jsonWritten `json:"written"`
}

type jsonWritten struct {
	jsonPos
	File      string `json:"file"`
	Entry     bool   `json:"entry"`
	Slug      string `json:"slug,omitempty"`
	Change    string `json:"change"`
	Text      string `json:"text"`
	Committed bool   `json:"committed"`
	Author    string `json:"author,omitempty"`
	Email     string `json:"email,omitempty"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"date,omitempty"`
	Message   string `json:"message"`
}

func (s *sinceReport) json(results []*checked) jsonSince {
	out := jsonSince{Ref: s.ref, Commit: s.commit, Written: []jsonWritten{}}
	s.each(results, func(c *checked, w memory.Written) {
		f := c.files[w.File]
		jw := jsonWritten{jsonPos: jsonPos{Path: c.shown(w.File), Line: w.Line + 1, Column: 1}, File: f.Name, Entry: w.Entry, Slug: w.Slug,
			Change: w.Change(), Text: w.Text, Committed: w.Committed, Author: w.Author, Email: w.Email, Commit: w.Commit, Message: w.Message(s.ref)}
		if w.Committed {
			jw.Date = w.When.UTC().Format("2006-01-02T15:04:05Z")
		}
		out.Written = append(out.Written, jw)
	})
	return out
}

// sarifDescriptor describes the written lines for SARIF's rule list.
func (s *sinceReport) sarifDescriptor() sarifReportingDescriptor {
	const summary = "A memory line added or changed since the commit check --since compared with, and who wrote it: agents read every line, so a reviewer should too."
	return sarifReportingDescriptor{
		ID:                   sinceRuleID,
		ShortDescription:     sarifMultiformat{Text: "Memory line written since " + s.ref},
		FullDescription:      sarifMultiformat{Text: summary},
		Help:                 sarifMultiformat{Text: summary, Markdown: summary},
		HelpURI:              projectURI + "#review-what-agents-wrote",
		DefaultConfiguration: sarifRuleConfiguration{Level: "note"},
	}
}

// sarifResults are the written lines as note results, each on its line,
// with a fingerprint of its text so that GitHub keeps one alert per line.
func (s *sinceReport) sarifResults(c *checked, root string, index int, seen map[string]int) []sarifResult {
	var out []sarifResult
	for _, w := range c.written {
		sp := c.files[w.File].Doc.Body(w.Line)
		i := index
		out = append(out, sarifResult{RuleID: sinceRuleID, RuleIndex: &i, Level: "note",
			Message:             sarifMessage{Text: w.Message(s.ref)},
			Locations:           []sarifLocation{{PhysicalLocation: c.sarifPhysical(w.File, sp, root)}},
			PartialFingerprints: map[string]string{fingerprintKey: c.fingerprint(rules.Finding{Code: sinceRuleID, File: w.File, Span: sp}, root, seen)}})
	}
	return out
}

// markdown is the table of written lines for a pull request comment and the
// step summary; the text of each line is code, so that nothing in it (a
// comment, a link) renders, and hidden text shows made visible.
func (s *sinceReport) markdown(results []*checked) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Memory written since %s\n\n", markdownCode(s.ref))
	rows := 0
	s.each(results, func(c *checked, w memory.Written) {
		if rows == 0 {
			b.WriteString("| line | change | by | text |\n|---|---|---|---|\n")
		}
		rows++
		if rows > maxSummaryRows {
			return
		}
		what := "line "
		if w.Entry {
			what = "entry "
		}
		by := "not committed yet"
		if w.Committed {
			by = fmt.Sprintf("%s in %s on %s", markdownText(memory.Printable(w.Author)), markdownCode(w.Commit), w.When.UTC().Format("2006-01-02"))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", markdownCode(fmt.Sprintf("%s:%d", c.shown(w.File), w.Line+1)), what+w.Change(), by, markdownCode(w.Text))
	})
	if rows > maxSummaryRows {
		fmt.Fprintf(&b, "\n…and %d more: `memory-lsp check --since %s` lists them all.\n", rows-maxSummaryRows, strings.ReplaceAll(s.ref, "`", "'"))
	}
	held := 0
	for _, c := range results {
		for _, h := range c.held {
			if held == 0 {
				b.WriteString("\n### Held for review, not stored\n\n| id | for | by | text |\n|---|---|---|---|\n")
			}
			held++
			if held > maxSummaryRows {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", markdownCode(memory.Printable(h.ID)), markdownText(memory.Printable(h.Category)), markdownText(h.Who()), markdownCode(memory.Printable(h.Content)))
		}
	}
	if held > maxSummaryRows {
		fmt.Fprintf(&b, "\n…and %d more: `memory-lsp review` lists them all.\n", held-maxSummaryRows)
	}
	fmt.Fprintf(&b, "\n**%s**\n", s.line(results))
	return b.String()
}

// markdownText escapes what Markdown would read as markup in a table cell.
var markdownText = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "|", `\|`, "#", `\#`, "!", `\!`, "~", `\~`).Replace
