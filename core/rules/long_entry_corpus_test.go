package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
)

// TestLongEntryOnRealMemory: long-entry's defaults leave the way real teams
// write alone — a fact with its reason and context, two or three sentences,
// often past HackLM's last brevity step — and report what reads as several
// facts or a paragraph. At 200 UTF-16 units and two sentences it fired on
// 40 % of the shared corpus's entries and on 27 of HackLM's own 31
// (issue 28): a rule that fires on most of a team's lines is noise.
func TestLongEntryOnRealMemory(t *testing.T) {
	if _, err := os.Stat(directiveCorpusDir); err != nil {
		t.Skip("../shared/corpus not found beside the clone; this test reads the shared corpus of real .memory folders")
	}
	entries, fired := 0, 0
	perFolder := map[string][2]int{}
	for dir, files := range corpusFolders(t) {
		for _, f := range files {
			if !f.IsCategory || !f.parsed() {
				continue
			}
			n := 0
			for _, fd := range Check([]File{f}, config.Default()) {
				if fd.Code == "long-entry" {
					n++
				}
			}
			folder := filepath.Base(filepath.Dir(dir))
			c := perFolder[folder]
			perFolder[folder] = [2]int{c[0] + len(f.Doc.Entries), c[1] + n}
			entries += len(f.Doc.Entries)
			fired += n
		}
	}
	t.Logf("long-entry on %d of %d entries of the shared corpus", fired, entries)
	if entries < 500 {
		t.Fatalf("read %d entries: the corpus is not what this test expects", entries)
	}
	if fired*10 > entries {
		t.Errorf("long-entry fires on %d of %d real entries, over a tenth", fired, entries)
	}
	if c := perFolder["hacklmdev__memory"]; c[0] > 0 && c[1]*10 > c[0] {
		t.Errorf("long-entry fires on %d of HackLM's own %d entries", c[1], c[0])
	}
}
