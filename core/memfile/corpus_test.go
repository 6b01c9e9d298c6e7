package memfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// The shared corpus lives beside the clone: ../shared next to the clone.
// From this package directory (core/memfile) that is ../../../shared.
const sharedCorpusDir = "../../../shared/corpus"

// Figures promised by SOURCES.md ("69 parsed .md files, 635 entries, 180 with a slug").
const (
	corpusMinFiles   = 69
	corpusMinEntries = 635
	corpusMinSlugged = 180
)

// corpusEntry is one `[line, slug|null, content]` triple of expected-entries.json.
type corpusEntry struct {
	Line    int
	HasSlug bool
	Slug    string
	Content string
}

func (c *corpusEntry) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 3 {
		return fmt.Errorf("want [line, slug|null, content], got %s", b)
	}
	if err := json.Unmarshal(raw[0], &c.Line); err != nil {
		return err
	}
	var slug *string
	if err := json.Unmarshal(raw[1], &slug); err != nil {
		return err
	}
	if slug != nil {
		c.HasSlug, c.Slug = true, *slug
	}
	return json.Unmarshal(raw[2], &c.Content)
}

func loadCorpusExpectations(t *testing.T) map[string][]corpusEntry {
	t.Helper()
	if _, err := os.Stat(sharedCorpusDir); err != nil {
		t.Skip("../../../shared/corpus not found; parity test needs the shared corpus beside the clone")
	}
	b, err := os.ReadFile(filepath.Join(sharedCorpusDir, "expected-entries.json"))
	if err != nil {
		t.Fatalf("reading expected-entries.json: %v", err)
	}
	var want map[string][]corpusEntry
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("decoding expected-entries.json: %v", err)
	}
	return want
}

// TestCorpusParity parses every corpus file and compares with HackLM's own
// parse of it, entry by entry: line number, slug presence, slug, content.
func TestCorpusParity(t *testing.T) {
	want := loadCorpusExpectations(t)
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	files, entries, slugged := 0, 0, 0
	for _, rel := range paths {
		exp := want[rel]
		files++
		entries += len(exp)
		for _, e := range exp {
			if e.HasSlug {
				slugged++
			}
		}
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(sharedCorpusDir, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatalf("reading corpus file: %v", err)
			}
			doc := Parse(src)
			if got := doc.Render(); !bytes.Equal(got, src) {
				t.Errorf("Render(Parse(x)) != x (len %d vs %d)", len(got), len(src))
			}
			checkInvariants(t, doc)
			if len(doc.Entries) != len(exp) {
				t.Errorf("got %d entries, HackLM reads %d", len(doc.Entries), len(exp))
			}
			for i := 0; i < min(len(doc.Entries), len(exp)); i++ {
				g, w := doc.Entries[i], exp[i]
				if g.Line != w.Line || g.HasSlug != w.HasSlug || g.Slug != w.Slug || g.Content != w.Content {
					t.Errorf("entry %d:\n got line %d slug(%v)=%q content=%q\nwant line %d slug(%v)=%q content=%q",
						i, g.Line, g.HasSlug, g.Slug, g.Content, w.Line, w.HasSlug, w.Slug, w.Content)
				}
			}
			// The fuzz test's independent reference must agree with HackLM too,
			// or agreement between it and Parse would prove nothing.
			ref := refParse(src)
			if len(ref) != len(exp) {
				t.Errorf("reference parser: %d entries, HackLM %d", len(ref), len(exp))
			}
			for i := 0; i < min(len(ref), len(exp)); i++ {
				if r, w := ref[i], exp[i]; r.Line != w.Line || r.HasSlug != w.HasSlug || r.Slug != w.Slug || r.Content != w.Content {
					t.Errorf("reference parser entry %d = %+v, HackLM %+v", i, r, w)
				}
			}
			// Every line not listed by HackLM must not be an entry for us either.
			entryLines := map[int]bool{}
			for _, w := range exp {
				entryLines[w.Line] = true
			}
			for _, ln := range doc.Lines {
				if (ln.Kind == KindEntry) != entryLines[ln.Num] {
					t.Errorf("line %d: kind %v, HackLM entry=%v", ln.Num, ln.Kind, entryLines[ln.Num])
				}
			}
		})
	}
	t.Logf("corpus: %d files, %d entries (%d slugged)", files, entries, slugged)
	if files < corpusMinFiles || entries < corpusMinEntries || slugged < corpusMinSlugged {
		t.Errorf("corpus shrank: %d files / %d entries / %d slugged; SOURCES.md promises %d / %d / %d",
			files, entries, slugged, corpusMinFiles, corpusMinEntries, corpusMinSlugged)
	}
}

// TestCorpusHasNoStrayFiles makes sure every .md file under .memory/ in the
// corpus has expectations, so a file added without them is not silently skipped.
func TestCorpusHasNoStrayFiles(t *testing.T) {
	want := loadCorpusExpectations(t)
	err := filepath.WalkDir(sharedCorpusDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(path) != ".md" || filepath.Base(filepath.Dir(path)) != ".memory" {
			return nil
		}
		rel, err := filepath.Rel(sharedCorpusDir, path)
		if err != nil {
			return err
		}
		if _, ok := want[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s has no expectations in expected-entries.json", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
