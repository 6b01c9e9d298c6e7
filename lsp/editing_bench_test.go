package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// BenchmarkEditingBinary is what an editor waits for while one file of a
// gen_workspace.py workspace of the scale budget's sizes (lsptest.BenchSizes) (five category
// files; decisions.md, a fifth of the entries, is open) is edited, through
// `memory-lsp serve --stdio`, with HackLM's limits and with every limit
// raised above n (issue 16):
//
//   - didChange: the case of the middle entry's first letter flipped, until
//     the publishDiagnostics of that version has arrived; "ms-work" is that
//     time less the server's 100 ms debounce ("ms-parsed" also counts the
//     test's client parsing it, 20 ms for the 3 MB of HackLM's limits);
//   - codeAction-diagnostic / codeAction-clean: textDocument/codeAction on
//     the first line from the middle on with a diagnostic, and on a line
//     without one, after the publish;
//   - grep-ci and cat of the workspace's files.
//
// BenchmarkEditing10kBinary measures one 10,000-entry file. Reproduce with
//
//	go test ./lsp -run '^$' -bench BenchmarkEditingBinary -benchtime 10x -count 5
func BenchmarkEditingBinary(b *testing.B) {
	for _, n := range lsptest.BenchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src, queries := lsptest.BenchWorkspace(b, n)
			for _, limits := range []string{"default-limits", "raised-limits"} {
				b.Run(limits, func(b *testing.B) {
					root := lsptest.CopyWorkspace(b, src)
					benchEditingFile(b, root, filepath.Join(root, ".memory", "decisions.md"), n, limits == "raised-limits")
				})
			}
			lsptest.BenchGrepAndCat(b, src, queries)
		})
	}
}

func benchEditingFile(b *testing.B, root, path string, n int, raised bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	c := startBinary(b, root)
	var settings map[string]any
	if raised {
		limits := map[string]any{}
		for _, cat := range category.All {
			limits[cat.String()] = min(max(40, n+1), 100000) // the highest limit the settings take
		}
		settings = map[string]any{"categoryLimit": limits}
		c.SetSettings(map[string]any{"memory": settings})
	}
	c.Initialize(lsptest.InitializeParams(root, settings))
	uri := c.Open(path, text)
	first := c.AwaitDiagnostics(uri, 1, 5*time.Minute)
	at, letter := middleLetter(b, text)
	flagged := map[int]bool{}
	for _, d := range first.Diagnostics {
		flagged[d.Range.Start.Line] = true
	}
	lines := strings.Split(text, "\n")
	diag, clean := -1, -1
	for l := at.Line; l < len(lines) && diag < 0; l++ {
		if flagged[l] {
			diag = l
		}
	}
	for l := range lines {
		if !flagged[l] && strings.HasPrefix(lines[l], "- ") {
			clean = l
			break
		}
	}
	i := 0
	b.Run("didChange", func(b *testing.B) {
		reportWork(b, typeLetters(b, c, uri, at, letter, &i), binaryDebounce)
	})
	codeAction := func(b *testing.B, l int) { codeActionAt(b, c, uri, l) }
	for _, ca := range []struct {
		name string
		line int
	}{{"codeAction-diagnostic", diag}, {"codeAction-clean", clean}} {
		if ca.line < 0 {
			continue // no such line at this size and these limits
		}
		b.Run(ca.name, func(b *testing.B) {
			codeAction(b, ca.line) // the first after a publish may finish its work
			for b.Loop() {
				codeAction(b, ca.line)
			}
		})
	}
	c.Shutdown()
}

// typeLetters changes the case of the letter at at, back and forth (*i
// counts the changes), once per iteration of b's loop, each time until the
// publish of the new version has arrived, and returns those times summed.
func typeLetters(b *testing.B, c *lsptest.Client, uri string, at lsptest.Position, letter rune, i *int) (arrived time.Duration) {
	for b.Loop() {
		c.Forget()
		*i++
		r := letter
		if *i%2 == 1 {
			r = flipCase(letter)
		}
		sent := time.Now()
		v := c.Change(uri, lsptest.TextEdit{Range: lsptest.Range{Start: at, End: lsptest.Position{Line: at.Line, Character: at.Character + 1}}, NewText: string(r)})
		m, _ := c.Await(0, 5*time.Minute, fmt.Sprintf("publishDiagnostics for version %d", v), publishedFor(uri, v))
		arrived += m.Arrived.Sub(sent)
	}
	return arrived
}

// reportWork reports, beside ns/op (until the test's client has parsed the
// publish), "ms-work": the time until the publish had arrived, less the
// server's debounce; arrived is that time summed over the b.N changes.
func reportWork(b *testing.B, arrived, debounce time.Duration) {
	b.ReportMetric(float64(b.Elapsed()-time.Duration(b.N)*debounce)/float64(b.N)/1e6, "ms-parsed")
	b.ReportMetric(float64(arrived-time.Duration(b.N)*debounce)/float64(b.N)/1e6, "ms-work")
}

// codeActionAt asks textDocument/codeAction at the start of line l, without
// "only" and without diagnostics, as an editor asks when the cursor rests.
func codeActionAt(b *testing.B, c *lsptest.Client, uri string, l int) {
	at := lsptest.Position{Line: l}
	if _, err := c.Request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": lsptest.Range{Start: at, End: at}, "context": map[string]any{"diagnostics": []any{}}}); err != nil {
		b.Fatal(err)
	}
}

// middleLetter is the position of the first letter of the middle entry's
// content (past its slug) in text, and that letter: flipping its case is an
// edit that keeps every offset.
func middleLetter(b *testing.B, text string) (lsptest.Position, rune) {
	lines := strings.Split(text, "\n")
	var entries []int
	for l, s := range lines {
		if strings.HasPrefix(s, "- ") {
			entries = append(entries, l)
		}
	}
	for _, l := range entries[len(entries)/2:] {
		s := lines[l]
		k := 2
		if strings.HasPrefix(s[k:], "[") {
			if e := strings.Index(s, "] "); e > 0 {
				k = e + 2
			}
		}
		if k >= len(s) {
			continue
		}
		if r := rune(s[k]); r < 0x80 && unicode.IsLetter(r) {
			return lsptest.Position{Line: l, Character: k}, r
		}
	}
	b.Fatal("no entry starts with an ASCII letter")
	return lsptest.Position{}, 0
}

func flipCase(r rune) rune {
	if unicode.IsUpper(r) {
		return unicode.ToLower(r)
	}
	return unicode.ToUpper(r)
}
