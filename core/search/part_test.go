package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/memory-lsp/memory-lsp/core/store"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// encodeAtMadeUpPlaces is the part of docs, each at a made-up place.
func encodeAtMadeUpPlaces(t *testing.T, docs []Doc) ([]byte, []Loc) {
	t.Helper()
	locs := make([]Loc, len(docs))
	for j := range locs {
		locs[j] = Loc{Start: uint32(100 * j), End: uint32(100*j + 50), Line: uint32(j + 3)}
	}
	b, err := EncodePart(NewSegment(docs), locs)
	if err != nil {
		t.Fatal(err)
	}
	return b, locs
}

// splitParts encodes docs as parts of random sizes (some empty), each doc
// at a made-up place, and reads them back.
func splitParts(t *testing.T, r *rand.Rand, docs []Doc) ([]FilePart, [][]Doc) {
	t.Helper()
	var parts []FilePart
	var groups [][]Doc
	for i := 0; i < len(docs) || len(parts) == 0; {
		k := min(len(docs)-i, r.IntN(len(docs)/3+2))
		g := docs[i : i+k]
		i += k
		b, locs := encodeAtMadeUpPlaces(t, g)
		p, err := ReadPart(b)
		if err != nil {
			t.Fatal(err)
		}
		for j := range locs {
			if p.Loc(j) != locs[j] {
				t.Fatalf("doc %d: place %v read back as %v", j, locs[j], p.Loc(j))
			}
		}
		cat := category.All[len(parts)%len(category.All)]
		for j := range g {
			g[j].Category = cat
		}
		parts = append(parts, FilePart{Part: p, Category: cat})
		groups = append(groups, g)
	}
	return parts, groups
}

// TestSearchPartsMatchesSearch: the search of parts read back from bytes
// gives exactly the hits of an index of all the docs (IDs, order,
// bit-identical scores), for whole words, phrases, prefixes, slugs, tricky
// text, categories and limits, however the docs are split into parts.
func TestSearchPartsMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 8))
	docs := benchDocs(3000, 10)
	for range 300 {
		docs[r.IntN(len(docs))] = Doc{Content: trickyText(r) + " " + trickyText(r), Slug: strings.Trim(trickyText(r), " ")}
	}
	queries := randomQueries(r, docs)
	for round := range 4 {
		docs := slices.Clone(docs)
		parts, groups := splitParts(t, r, docs)
		ix := Build(slices.Concat(groups...))
		for _, q := range queries {
			opt := Options{Limit: []int{0, 1, 10, 20}[r.IntN(4)]}
			if r.IntN(3) == 0 {
				c := category.All[r.IntN(len(category.All))]
				opt.Category = &c
			}
			got, err := SearchParts(q, opt, parts, func(p, d int) (string, error) { return groups[p][d].Content, nil })
			if err != nil {
				t.Fatalf("round %d, %q: %v", round, q, err)
			}
			if want := ix.Search(q, opt); !slices.Equal(got, want) {
				all := slices.Concat(groups...)
				t.Fatalf("round %d, %q %+v:\nparts %v\nindex %v\nfirst: %+v %q", round, q, opt, got, want, all[got[0].ID], Tokens(all[got[0].ID].Content))
			}
		}
	}
}

// TestSearchPartsNoticesOtherBytes: a phrase query that reads an entry
// whose text is not the one its part indexed refuses to answer.
func TestSearchPartsNoticesOtherBytes(t *testing.T) {
	docs := []Doc{{Content: "cache the api responses"}, {Content: "api responses are cached here"}}
	b, err := EncodePart(NewSegment(docs), make([]Loc, 2))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadPart(b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = SearchParts("api responses", Options{}, []FilePart{{Part: p}}, func(_, d int) (string, error) {
		return docs[d].Content + " and more words", nil
	})
	if !errors.Is(err, ErrStale) {
		t.Fatalf("got %v, want ErrStale", err)
	}
}

// TestDamagedPartsNeverPanic: bytes that are not a part — cut short,
// bytes changed, lengths and offsets made large — give an error or some
// answer, never a panic or a read outside them.
func TestDamagedPartsNeverPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 9))
	docs := benchDocs(200, 11)
	docs[3].Slug = "cache-api"
	locs := make([]Loc, len(docs))
	good, err := EncodePart(NewSegment(docs), locs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20000 {
		b := slices.Clone(good)
		switch i % 4 {
		case 0:
			b = b[:r.IntN(len(b))]
		case 1:
			for range 1 + r.IntN(4) {
				b[r.IntN(len(b))] = byte(r.Uint32())
			}
		case 2:
			at := r.IntN(len(b) - 4)
			copy(b[at:], []byte{0xff, 0xff, 0xff, 0x7f})
		case 3:
			at := partHeaderLen + r.IntN(len(b)-partHeaderLen-10)
			copy(b[at:], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
		}
		p, err := ReadPart(b)
		if err != nil {
			continue
		}
		for _, q := range []string{"cache api", "cache", "redis timeout", "a"} {
			_, _ = SearchParts(q, Options{Limit: 10}, []FilePart{{Part: p}}, func(_, d int) (string, error) { return docs[d%len(docs)].Content, nil })
		}
	}
}

// TestIndexFileRoundTripAndDamage: an index file reads back as written;
// any change to its bytes — a cut, a changed byte, another version —
// reads as no index, or, when the change is in a block of its parts, is
// found by the read of that block, after which the file is Damaged and a
// search of its parts fails with ErrDamaged rather than answer from it.
func TestIndexFileRoundTripAndDamage(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 10))
	docs := benchDocs(300, 11)
	queries := randomQueries(r, docs)
	r.Shuffle(len(queries), func(i, j int) { queries[i], queries[j] = queries[j], queries[i] })
	queries = queries[:12]
	var files []IndexedFile
	for i, g := range [][]Doc{docs[:180], nil, docs[180:]} {
		b, _ := encodeAtMadeUpPlaces(t, g)
		files = append(files, IndexedFile{Name: fmt.Sprintf("f%d.md", i), Stamp: store.Stamp{Size: int64(10 * i), ModNs: 1, ChangeNs: 2, Ino: 3, Dev: 4}, Built: int64(5 + i), Part: b})
	}
	b := EncodeIndexFile(files)
	got, err := DecodeIndexFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != len(files) {
		t.Fatalf("read back %d files", len(got.Files))
	}
	for i, f := range got.Files {
		if f.Name != files[i].Name || f.Stamp != files[i].Stamp || f.Built != files[i].Built || !bytes.Equal(f.Part, files[i].Part) {
			t.Fatalf("file %d read back %+v", i, f)
		}
	}
	if readAll(got) != nil || got.Damaged() {
		t.Fatal("an intact index file read as damaged")
	}
	var intact []FilePart
	for _, x := range got.Files {
		p, err := x.ReadPart()
		if err != nil {
			t.Fatal(err)
		}
		intact = append(intact, FilePart{Part: p})
	}
	content := func(pi, d int) (string, error) {
		if pi == 2 {
			d += 180
		}
		return docs[d].Content, nil
	}
	for range 3000 {
		c := slices.Clone(b)
		if r.IntN(4) == 0 {
			c = c[:r.IntN(len(c))]
		} else {
			for range 1 + r.IntN(3) {
				c[r.IntN(len(c))] ^= byte(1 + r.IntN(255))
			}
		}
		f, err := DecodeIndexFile(c)
		if err != nil {
			continue
		}
		if readAll(f) == nil || !f.Damaged() {
			t.Fatalf("a damaged file read as an index")
		}
		// Read afresh, a search either answers as from the intact file
		// (its reads missed the change) or fails.
		f, _ = DecodeIndexFile(c)
		var parts []FilePart
		for _, x := range f.Files {
			p, err := x.ReadPart()
			if err != nil {
				parts = nil
				break
			}
			parts = append(parts, FilePart{Part: p})
		}
		if parts == nil {
			continue
		}
		for _, q := range queries {
			hits, err := SearchParts(q, Options{Limit: 10}, parts, content)
			if want, _ := SearchParts(q, Options{Limit: 10}, intact, content); err == nil && !slices.Equal(hits, want) {
				t.Fatalf("%q: a damaged file answered %v, the intact one %v", q, hits, want)
			}
		}
	}
}

// readAll reads every byte of the parts of f through their accessors: the
// first error, or the file's damage.
func readAll(f *IndexFile) error {
	for _, x := range f.Files {
		p, err := x.ReadPart()
		if err != nil {
			return err
		}
		for d := range p.Len() {
			p.Loc(d)
		}
		for _, d := range []*dict{&p.terms, &p.slugs, &p.keys} {
			for i := range d.n {
				if err := d.postings(i, p.n, func(int32, uint16) {}); err != nil {
					return err
				}
			}
		}
	}
	if f.Damaged() {
		return ErrDamaged
	}
	return nil
}

// TestIndexFileOfAnotherTokenizer: an index file written by a build whose
// tokenizer gave other terms (another fingerprint) reads as no index.
func TestIndexFileOfAnotherTokenizer(t *testing.T) {
	b := EncodeIndexFile(nil)
	if _, err := DecodeIndexFile(b); err != nil {
		t.Fatal(err)
	}
	b[16] ^= 1 // the fingerprint
	binary.LittleEndian.PutUint32(b[12:], crc32.ChecksumIEEE(b[16:]))
	if _, err := DecodeIndexFile(b); err == nil {
		t.Error("an index of another tokenizer was read")
	}
}

// fingerprintText exercises what decides the terms of a part: word parts
// and compounds, versions, possessives, C++ and C#, stop words, stems,
// full-width letters, accents and CJK bigrams.
const fingerprintText = "The users' auto-scaling policies don't cache API responses: v1.8.2, snake_case, " +
	"openapi.yaml, C++ and C# builds; running, ran, queries, queried, flies, happily, caresses. " +
	"Ｆｕｌｌ résumé naïve 变更日志 データベース 데이터베이스 Никогда не коммитьте секреты."

// TestIndexFingerprint: the terms the tokenizer gives fingerprintText are
// the ones indexFingerprint was taken from. When this fails, the analysis
// changed: raise indexVersion, so that no process reads an index of the
// old terms, and set indexFingerprint to the value this prints.
func TestIndexFingerprint(t *testing.T) {
	if got := crc32.ChecksumIEEE([]byte(strings.Join(Tokens(fingerprintText), "\x00"))); got != indexFingerprint {
		t.Fatalf("the tokenizer's terms changed: raise indexVersion and set indexFingerprint to %#08x", got)
	}
}
