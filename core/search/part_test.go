package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/memory-lsp/memory-lsp/core/store"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

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
		locs := make([]Loc, len(g))
		for j := range locs {
			locs[j] = Loc{Start: uint32(100 * j), End: uint32(100*j + 50), Line: uint32(j + 3)}
		}
		b, err := EncodePart(NewSegment(g), locs)
		if err != nil {
			t.Fatal(err)
		}
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
// any change to its bytes — a cut, a changed byte, another version — reads
// as no index, never as another one.
func TestIndexFileRoundTripAndDamage(t *testing.T) {
	files := []IndexedFile{
		{Name: "decisions.md", Stamp: store.Stamp{Size: 10, ModNs: 1, ChangeNs: 2, Ino: 3, Dev: 4}, Built: 5, Part: []byte("part one")},
		{Name: "quirks.md", Stamp: store.Stamp{Size: 0, ModNs: -1}, Built: 6, Part: nil},
	}
	b := EncodeIndexFile(files)
	got, err := DecodeIndexFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "decisions.md" || got[0].Stamp != files[0].Stamp || got[0].Built != 5 ||
		!bytes.Equal(got[0].Part, files[0].Part) || got[1].Stamp != files[1].Stamp || len(got[1].Part) != 0 {
		t.Fatalf("read back %+v", got)
	}
	r := rand.New(rand.NewPCG(16, 10))
	for range 5000 {
		c := slices.Clone(b)
		if r.IntN(2) == 0 {
			c = c[:r.IntN(len(c))]
		} else {
			i := r.IntN(len(c))
			c[i] ^= byte(1 + r.IntN(255))
		}
		if _, err := DecodeIndexFile(c); err == nil {
			t.Fatalf("damaged file %q read as an index", c)
		}
	}
}

// TestIndexFileOfAnotherTokenizer: an index file written by a build whose
// tokenizer gave other terms (another fingerprint) reads as no index.
func TestIndexFileOfAnotherTokenizer(t *testing.T) {
	b := EncodeIndexFile(nil)
	if _, err := DecodeIndexFile(b); err != nil {
		t.Fatal(err)
	}
	b[16] ^= 1 // the fingerprint
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[16:], castagnoli()))
	if _, err := DecodeIndexFile(b); err == nil {
		t.Error("an index of another tokenizer was read")
	}
}
