package lsp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestE2EOwnSavePastTheLimitsIsNotWarnedAsAnotherWriters: warnPastLimit
// is documented as "A save of the buffer's own text past the limits is not
// warned of here: its diagnostics say so", and its warning says the text
// was "written outside this buffer". The buffer's own save past the line
// limit is indeed not warned of; past the byte limit the file is never
// read (store.File.Data is nil), so the server cannot tell it is the
// buffer's own, and tells the user another writer replaced the file and
// that saving the buffer would replace "that text" — the user's own.
func TestE2EOwnSavePastTheLimitsIsNotWarnedAsAnotherWriters(t *testing.T) {
	longtest.Skip(t)
	for _, shape := range []string{"lines", "bytes"} {
		t.Run(shape, func(t *testing.T) {
			_, _, c, uri := session(t, togetherDecisions, true, nil)
			var b strings.Builder
			b.WriteString(togetherDecisions)
			for i := 0; ; i++ {
				if shape == "lines" && strings.Count(b.String(), "\n") >= 25_100 {
					break
				}
				if shape == "bytes" && b.Len() > 3<<20 {
					break
				}
				if shape == "lines" {
					b.WriteString("- a\n")
				} else {
					b.WriteString("- Deploy the " + pseudoWord(i, 7) + " service before " + pseudoWord(i+1, 5) + " and keep the " + pseudoWord(i+2, 6) + " window on Tuesdays.\n")
				}
			}
			v := c.Change(uri, lsptest.TextEdit{Range: lsptest.Range{Start: lsptest.Position{Line: 4}, End: lsptest.Position{Line: 4}}, NewText: b.String()[len(togetherDecisions):]})
			c.AwaitDiagnostics(uri, v, time.Minute)
			c.Save(uri)
			time.Sleep(3 * time.Second)
			if ok, m := someMessage(c, "written outside this buffer"); ok {
				t.Errorf("the buffer's own save past the %s limit is warned of as another writer's:\n%s", shape, m)
			}
		})
	}
}

// pseudoWord is a deterministic pseudo-random word of n letters and digits.
func pseudoWord(i, n int) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	x := uint64(i)*2654435761 + 12345
	s := make([]byte, n)
	for k := range s {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s[k] = alnum[x%uint64(len(alnum))]
	}
	return string(s)
}
