//go:build unix

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// maxCleanupRSS is the memory a cleanup of a file at the line limit may
// take (memfile.MaxLines: 24,997 entries), as the
// peak resident size of the process: a cleanup that needs gigabytes for a
// memory folder this large is killed by the system, possibly after --apply
// has already written the file.
const maxCleanupRSS = 200 << 20

// scaleEntries writes n entries into one category file, as a long-lived
// agent memory might grow: sentences over a vocabulary of a few thousand
// words, with the common short words every sentence has, every third entry
// slugged, and one in fifty a reworded near-duplicate of an earlier one.
func scaleEntries(n int) []byte {
	r := rand.New(rand.NewPCG(7, 11))
	common := strings.Fields("the a to of in on for with and is are be always never before after every")
	vocab := make([]string, 3000)
	for i := range vocab {
		var w []byte
		for range 2 + r.IntN(3) {
			w = append(w, "bcdfghklmnprstvz"[r.IntN(16)], "aeiou"[r.IntN(5)])
		}
		vocab[i] = string(w)
	}
	sentences := make([]string, n)
	var b bytes.Buffer
	b.WriteString("# Decisions\n\n")
	for i := range n {
		var s string
		if i > 0 && i%50 == 0 {
			s = sentences[r.IntN(i)] + " again"
		} else {
			k := 6 + r.IntN(7)
			parts := make([]string, k)
			for j := range parts {
				if j%3 == 1 {
					parts[j] = common[r.IntN(len(common))]
				} else {
					parts[j] = vocab[r.IntN(len(vocab))]
				}
			}
			s = strings.ToUpper(parts[0][:1]) + parts[0][1:] + " " + strings.Join(parts[1:], " ")
		}
		sentences[i] = s
		if i%3 == 0 {
			fmt.Fprintf(&b, "- [d-%d] ", i)
		} else {
			b.WriteString("- ")
		}
		b.WriteString(s + ".\n")
	}
	return b.Bytes()
}

// TestCleanupAtTheLineLimitInBoundedMemory runs cleanup --apply on a file
// at memfile.MaxLines, an entry on each line but the heading's, through the
// built binary and holds its peak memory under
// maxCleanupRSS (a memory bound, not a time one). The result keeps the
// category's limit of entries and holds nothing but the heading, blank
// lines and entries.
func TestCleanupAtTheLineLimitInBoundedMemory(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".memory", "decisions.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	n := memfile.MaxLines - 3 // the heading, its blank line, the text after the last LF
	input := scaleEntries(n)
	if memfile.Lines(input) != memfile.MaxLines {
		t.Fatalf("input holds %d lines", memfile.Lines(input))
	}
	if err := os.WriteFile(path, input, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "cleanup", "--apply", "--json", "--root", root)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	peak, measured, err := lsptest.PeakRSS(cmd)
	if err != nil {
		t.Fatalf("cleanup --apply: %v: %s", err, errb.String())
	}
	if !measured {
		t.Skip("no resource usage on this system")
	}
	t.Logf("peak RSS %d MiB for %d bytes of input, %d bytes of JSON output", peak>>20, len(input), out.Len())
	if peak > maxCleanupRSS {
		t.Errorf("cleanup of %d entries peaked at %d MiB, over %d MiB", n, peak>>20, maxCleanupRSS>>20)
	}
	if !bytes.Contains(out.Bytes(), fmt.Appendf(nil, `"entriesBefore": %d`, n)) || !bytes.Contains(out.Bytes(), []byte(`"applied": true`)) {
		t.Errorf("output does not report the applied plan: %.300s", out.String())
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := memfile.Parse(after)
	if len(doc.Entries) != 40 {
		t.Errorf("%d entries after cleanup, want the Decision limit of 40", len(doc.Entries))
	}
	for i, ln := range doc.Lines {
		if ln.Kind != memfile.KindEntry && ln.Kind != memfile.KindBlank && ln.Kind != memfile.KindHeading {
			t.Errorf("line %d after cleanup is %s: %q", ln.Num, ln.Kind, doc.LineText(i))
		}
	}
}
