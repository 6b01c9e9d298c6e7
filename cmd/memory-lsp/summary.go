package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// `check --format summary` is for a CI log: how full each category file is,
// how many findings of each severity and code, and one closing line a person
// (or a grep) can read at a glance. Rows are sorted so that two runs over the
// same files print the same bytes.

// summaryFile is one reported file's row.
type summaryFile struct {
	path       string
	isCategory bool
	entries    int
	limit      int
	bySeverity [4]int // indexed by rules.Severity
}

// summaryCode is how often one code was reported at one severity (a code
// such as duplicate-slug has two).
type summaryCode struct {
	code     string
	severity rules.Severity
	count    int
}

type checkTotals struct {
	files      []summaryFile
	codes      []summaryCode
	entries    int
	bySeverity [4]int
}

func summarize(results []*checked, cfg config.Config) checkTotals {
	var t checkTotals
	codes := map[summaryCode]int{}
	for _, c := range results {
		rows := map[int]*summaryFile{}
		for i, f := range c.files {
			if !c.reported(f) {
				continue
			}
			row := &summaryFile{path: display(f.Path), isCategory: f.IsCategory}
			if f.IsCategory {
				row.entries, row.limit = len(f.Doc.Entries), cfg.Limit(f.Category)
				t.entries += row.entries
			}
			rows[i] = row
		}
		for _, f := range c.findings {
			if s := int(f.Severity); s >= 0 && s < len(t.bySeverity) {
				rows[f.File].bySeverity[s]++
				t.bySeverity[s]++
			}
			codes[summaryCode{code: f.Code, severity: f.Severity}]++
		}
		for _, row := range rows {
			t.files = append(t.files, *row)
		}
	}
	slices.SortFunc(t.files, func(a, b summaryFile) int { return strings.Compare(a.path, b.path) })
	for k, n := range codes {
		k.count = n
		t.codes = append(t.codes, k)
	}
	// The most severe first, then by code: the order a reader triages in.
	slices.SortFunc(t.codes, func(a, b summaryCode) int {
		return cmp.Or(cmp.Compare(a.severity, b.severity), strings.Compare(a.code, b.code))
	})
	return t
}

// line is the closing sentence, e.g. "memory: 3 errors, 2 warnings in 5
// files (212 entries)". Errors and warnings are always named because CI
// cares about them; infos and hints only when there are some.
func (t checkTotals) line() string {
	parts := []string{plural(t.bySeverity[rules.Error], "error"), plural(t.bySeverity[rules.Warning], "warning")}
	if n := t.bySeverity[rules.Information]; n > 0 {
		parts = append(parts, plural(n, "info"))
	}
	if n := t.bySeverity[rules.Hint]; n > 0 {
		parts = append(parts, plural(n, "hint"))
	}
	entries := strconv.Itoa(t.entries) + " entries"
	if t.entries == 1 {
		entries = "1 entry"
	}
	return fmt.Sprintf("memory: %s in %s (%s)", strings.Join(parts, ", "), plural(len(t.files), "file"), entries)
}

// entriesCell is "12/40" for a category file and "-" for a file HackLM
// never reads, which has no entries and no limit.
func (f summaryFile) entriesCell() string {
	if !f.isCategory {
		return "-"
	}
	return fmt.Sprintf("%d/%d", f.entries, f.limit)
}

// writeSummary prints the counts as a table, or with --since as Markdown
// (the step summary's, then the lines written since the ref) for a pull
// request comment.
func writeSummary(w io.Writer, results []*checked, cfg config.Config, since *sinceReport) error {
	t := summarize(results, cfg)
	md := ""
	if since.ref != "" {
		md = markdownSummary(t) + "\n" + since.markdown(results)
		if _, err := io.WriteString(w, md); err != nil {
			return err
		}
		for _, n := range append(noCodeNotes(results), heldNotes(results)...) {
			fmt.Fprintf(w, "\n%s\n", n)
		}
	} else if err := writeSummaryTable(w, t, results); err != nil {
		return err
	}
	if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
		if md == "" {
			md = markdownSummary(t) + "\n"
		}
		if err := appendFile(p, md); err != nil {
			return fmt.Errorf("writing the GitHub step summary %s: %w", p, err)
		}
	}
	return nil
}

func writeSummaryTable(w io.Writer, t checkTotals, results []*checked) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "file\tentries\terrors\twarnings\tinfos\thints")
	for _, f := range t.files {
		s := f.bySeverity
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\n", f.path, f.entriesCell(), s[0], s[1], s[2], s[3])
	}
	s := t.bySeverity
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\n", t.entries, s[0], s[1], s[2], s[3])
	if len(t.codes) > 0 {
		fmt.Fprintln(tw, "\ncode\tseverity\tcount")
		for _, c := range t.codes {
			fmt.Fprintf(tw, "%s\t%s\t%d\n", c.code, c.severity, c.count)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", t.line())
	for _, n := range append(noCodeNotes(results), heldNotes(results)...) {
		fmt.Fprintln(w, n)
	}
	return nil
}

// markdownSummary is the counts as Markdown, for the file GitHub Actions
// shows on the run's page and for a pull request comment.
func markdownSummary(t checkTotals) string {
	var b strings.Builder
	b.WriteString("### memory-lsp check\n\n")
	b.WriteString("| file | entries | limit | errors | warnings | infos | hints |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, f := range t.files {
		entries, limit := "–", "–"
		if f.isCategory {
			entries, limit = strconv.Itoa(f.entries), strconv.Itoa(f.limit)
		}
		s := f.bySeverity
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %d |\n", markdownCode(f.path), entries, limit, s[0], s[1], s[2], s[3])
	}
	s := t.bySeverity
	fmt.Fprintf(&b, "| **total** | **%d** | | **%d** | **%d** | **%d** | **%d** |\n", t.entries, s[0], s[1], s[2], s[3])
	if len(t.codes) > 0 {
		b.WriteString("\n| code | severity | count |\n|---|---|--:|\n")
		for _, c := range t.codes {
			fmt.Fprintf(&b, "| %s | %s | %d |\n", markdownCode(c.code), c.severity, c.count)
		}
	}
	fmt.Fprintf(&b, "\n**%s**\n", t.line())
	return b.String()
}

// appendFile adds text to the step summary file. Other steps write there
// too, so it only appends.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// markdownCode shows s as inline code in a table cell: a pipe would end the
// cell and a backtick the code span, so both are replaced.
func markdownCode(s string) string {
	s = strings.NewReplacer("|", `\|`, "`", "'").Replace(s)
	return "`" + s + "`"
}
