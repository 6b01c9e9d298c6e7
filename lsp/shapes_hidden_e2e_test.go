package lsp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestE2EShapeDenseHiddenTextMemory (red team of issue 26, round c): a
// file within the limits whose every entry carries 40 right-to-left
// overrides each followed by a zero-width space. The two are hidden text
// of two kinds, so each character is a passage of its own: about 650,000
// hidden-text findings in one file, three bytes each. The file lists
// 2,000 of them (MaxListed), but checkHiddenText still builds every
// passage (FindHidden's slice, a shown string each), its message and its
// fixes before reportAs drops it, and keeps the span of each unlisted one
// on the summary: on every check, the server's peak is past the bound.
//
// Measured (serve --stdio on a 2-CPU machine under load, open + wait for
// diagnostics + a server store and a CLI store): 2,096,054 bytes, 8,195
// lines, 655,360 hidden-text findings, diagnostics after 13 s, peak
// resident memory 120 MiB. One zero-width space after every letter (4
// bytes a passage, 512,380 findings): 103 MiB; a right-to-left override
// after every letter: 106 MiB. `memory-lsp check` on the first: 1.9 s,
// 140 MB max RSS. Since the characters are read a chunk at a time
// (eachHidden) and the unlisted passages counted without a message, their
// spans merged by line: 50 MiB, diagnostics after about a second.
func TestE2EShapeDenseHiddenTextMemory(t *testing.T) {
	longtest.Skip(t)
	text := shapeFill(func(i int) string {
		return fmt.Sprintf("- Deploy %d %s.\n", i, strings.Repeat("\u202e\u200b", 40))
	})
	shapeServe(t, text, time.Minute)
}
