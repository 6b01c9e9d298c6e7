package memory

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/search"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// indexedService is a Service of root that keeps its query index in a
// temp folder, dated later by shift (so that parts built now vouch for
// files changed now, as they will once the racy window has passed).
func indexedService(t *testing.T, root string, shift time.Duration) *Service {
	s := newService(root)
	s.QueryIndex = filepath.Join(t.TempDir(), "query.idx")
	s.now = func() time.Time { return time.Now().Add(shift) }
	s.used = &indexUse{}
	return s
}

// phraseQueries are runs of two or three words of the entries in dir, so
// that phrase bonuses are compared too.
func phraseQueries(r *rand.Rand, dir string) []QueryRequest {
	var out []QueryRequest
	for _, c := range category.All {
		b, _ := os.ReadFile(filepath.Join(dir, c.File()))
		lines := strings.Split(string(b), "\n")
		l := strings.Fields(strings.TrimPrefix(lines[r.IntN(len(lines))], "- "))
		if len(l) < 3 {
			continue
		}
		i := r.IntN(len(l) - 2)
		out = append(out, QueryRequest{Query: strings.Join(l[i:i+2+r.IntN(2)], " ")})
	}
	return out
}

// TestIndexedQueryMatchesScan: the query answered from the index kept on
// disk is exactly the scanning query's (hits, order, scores, places, stale
// notes, message) after random edits in place, replacements by rename,
// rewrites of the same size, appends, deletions, files added and removed,
// and stores by another process; and the index is used: parts of files
// that did not change are reused, the changed ones built again.
func TestIndexedQueryMatchesScan(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 11))
	root := codeWorkspace(t)
	dir := filepath.Join(root, ".memory")
	indexed := indexedService(t, root, time.Hour)
	cold := newService(root)
	cold.Cfg = config.Default()
	indexed.Cfg = cold.Cfg
	names := []string{"instructions.md", "quirks.md", "preferences.md", "decisions.md", "security.md", "notes.md"}
	stale, hits := 0, 0
	for step := range 200 {
		name := names[r.IntN(len(names))]
		p := filepath.Join(dir, name)
		var what string
		switch op := r.IntN(10); {
		case op < 2:
			what = "store"
			c := category.All[r.IntN(len(category.All))]
			_, _ = cold.Store(context.Background(), StoreRequest{Category: c.String(), Content: lsptest.Sentence(r, false)}, false)
		case op == 2:
			what = "remove " + name
			_ = os.Remove(p)
		case op == 3:
			what = "nothing"
		case op == 4:
			// The same size, other bytes: a letter swapped for another.
			what = "same-size rewrite " + name
			old, err := os.ReadFile(p)
			if err != nil || len(old) == 0 {
				continue
			}
			b := slices.Clone(old)
			for range 3 {
				if at := r.IntN(len(b)); 'a' <= b[at] && b[at] <= 'y' {
					b[at]++
				}
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			what = "write " + name
			editFile(t, r, p)
		}
		for _, q := range append(warmQueries(r), phraseQueries(r, dir)...) {
			want, werr := cold.scanQuery(q)
			got, ok := indexed.indexedQuery(q)
			if werr != nil {
				// An input error: the index declines, the scan says it.
				if ok {
					t.Fatalf("step %d (%s): query %+v: the index answered %+v where the scan fails: %v", step, what, q, got, werr)
				}
				continue
			}
			if !ok {
				t.Fatalf("step %d (%s): query %+v: the index could not answer", step, what, q)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d (%s): query %+v:\nindexed %+v\n   scan %+v", step, what, q, got, want)
			}
			// And through Query, as the CLI calls it.
			if viaQuery, err := indexed.Query(q); err != nil || !reflect.DeepEqual(viaQuery, want) {
				t.Fatalf("step %d (%s): Query %+v: %v %+v", step, what, q, err, viaQuery)
			}
			hits += len(want.Results)
			for _, h := range want.Results {
				stale += len(h.Stale)
			}
		}
	}
	u := indexed.used
	t.Logf("%d queries, %d parts reused, %d built, %d hits, %d stale notes", u.queries, u.reused, u.rebuilt, hits, stale)
	if stale == 0 || hits == 0 {
		t.Errorf("%d hits, %d stale notes: the answers were not compared", hits, stale)
	}
	if u.reused < 10*u.rebuilt {
		t.Errorf("%d parts reused, %d built: the index is not kept between queries", u.reused, u.rebuilt)
	}
}

// TestIndexedQueryRebuildsRacyParts: a part built within the racy window
// of its file's last change is not trusted by the next query, which reads
// the file again; once the window has passed, it is.
func TestIndexedQueryRebuildsRacyParts(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".memory", "decisions.md")
	if err := os.WriteFile(p, []byte("# Decisions\n\n- Use Postgres for the ledger.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := indexedService(t, root, 0) // the real clock: the file changed just now
	q := QueryRequest{Query: "postgres"}
	for i := range 2 {
		if _, ok := s.indexedQuery(q); !ok {
			t.Fatal("the index could not answer")
		}
		if s.used.rebuilt != i+1 || s.used.reused != 0 {
			t.Fatalf("query %d: %+v: a part built racily close to its file's change was trusted", i, *s.used)
		}
	}
	s.now = func() time.Time { return time.Now().Add(time.Hour) }
	for range 2 {
		if _, ok := s.indexedQuery(q); !ok {
			t.Fatal("the index could not answer")
		}
	}
	if s.used.rebuilt != 3 || s.used.reused != 1 {
		t.Fatalf("%+v: a part built after the racy window is not reused", *s.used)
	}
}

// TestDamagedQueryIndexIsIgnored: a query index that is damaged, cut
// short, of another version, hostile (bytes rearranged and the checksum
// made right again), a folder, or unwritable never makes a query fail or
// answer otherwise than the scan; a damaged one is replaced by a good one.
func TestDamagedQueryIndexIsIgnored(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 12))
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range category.All {
		var b strings.Builder
		b.WriteString("# " + c.Plural() + "\n\n")
		for range 40 {
			b.WriteString("- " + lsptest.Sentence(r, true) + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, c.File()), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := indexedService(t, root, time.Hour)
	cold := newService(root)
	queries := append(warmQueries(r), phraseQueries(r, dir)...)
	check := func(what string) {
		t.Helper()
		for _, q := range queries {
			want, werr := cold.scanQuery(q)
			got, err := s.Query(q)
			if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: query %+v:\nindexed %v %+v\n   scan %v %+v", what, q, err, got, werr, want)
			}
		}
	}
	check("no index")
	good, err := os.ReadFile(s.QueryIndex)
	if err != nil {
		t.Fatalf("no index was written: %v", err)
	}
	for i := range 300 {
		b := slices.Clone(good)
		var what string
		switch i % 5 {
		case 0:
			what = "cut short"
			b = b[:r.IntN(len(b))]
		case 1:
			what = "bytes changed"
			for range 1 + r.IntN(3) {
				b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			}
		case 2:
			what = "another version"
			b[8]++
		case 3:
			what = "hostile"
			for range 1 + r.IntN(3) {
				b[16+r.IntN(len(b)-16)] = byte(r.Uint32())
			}
			fixChecksum(b)
		case 4:
			what = "empty"
			b = nil
		}
		if err := os.WriteFile(s.QueryIndex, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if i%5 == 3 {
			// A hostile index may give another answer (it says the files
			// hold other words); it must not crash or fail the query.
			for _, q := range queries {
				if _, err := s.Query(q); err != nil {
					if _, werr := cold.scanQuery(q); werr == nil {
						t.Fatalf("%s: query %+v failed: %v", what, q, err)
					}
				}
			}
			continue
		}
		check(what)
		if now, _ := os.ReadFile(s.QueryIndex); !slices.Equal(now, good) && what != "empty" {
			// Rewritten with parts built now: equal but for the dates.
			if len(now) != len(good) {
				t.Fatalf("%s: the damaged index was not replaced by a good one (%d bytes, want %d)", what, len(now), len(good))
			}
		}
	}
	// A byte of every block that holds only a part's entries changed
	// (the blocks with the list of files or a part's header are checked
	// before any is used): the first query reads a damaged block, answers
	// from parts built again, and writes them over the damaged file.
	b := slices.Clone(good)
	f, err := search.DecodeIndexFile(good)
	if err != nil {
		t.Fatal(err)
	}
	body := indexBodyStart(good)
	for _, x := range f.Files {
		at := bytes.Index(good, x.Part)
		first := body + (at-body+64+1023)/1024*1024 // past the part's 52-byte header
		for blk := first; blk+1024 <= at+len(x.Part); blk += 1024 {
			b[blk+512] ^= 0x5a
		}
	}
	if err := os.WriteFile(s.QueryIndex, b, 0o600); err != nil {
		t.Fatal(err)
	}
	*s.used = indexUse{}
	check("every block changed")
	if s.used.queries == 0 {
		t.Fatal("no query read the index")
	}
	if s.used.rebuilt != len(category.All) {
		t.Fatalf("%+v: the parts of a damaged index were not built again", *s.used)
	}
	if now, _ := os.ReadFile(s.QueryIndex); slices.Equal(now, b) || len(now) != len(good) {
		t.Fatal("the damaged index was not replaced by a good one")
	}
	// A folder where the index should be, and an unwritable cache folder.
	if err := os.Remove(s.QueryIndex); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(s.QueryIndex, 0o700); err != nil {
		t.Fatal(err)
	}
	check("a folder in its place")
	s.QueryIndex = filepath.Join(root, "no-such", "\x00bad", "query.idx")
	check("an unusable path")
}

// indexBodyStart is where the body of index file b starts (the layout of
// core/search/indexfile.go: a 32-byte header, then 4 bytes a 1 KiB block).
func indexBodyStart(b []byte) int {
	return 32 + 4*((int(binary.LittleEndian.Uint64(b[24:]))+1023)/1024)
}

// fixChecksum makes the sums of index file b right for its bytes, as a
// hostile writer would: the CRC-32 of each 1 KiB block of the body and the
// header's of the sums (the layout of core/search/indexfile.go).
func fixChecksum(b []byte) {
	const header = 32
	if len(b) < header {
		return
	}
	le := binary.LittleEndian
	if le.Uint64(b[24:]) > uint64(len(b)) || indexBodyStart(b) > len(b) {
		return
	}
	blocks := (indexBodyStart(b) - header) / 4
	body := b[header+4*blocks:]
	for i := 0; i < blocks && 1024*i < len(body); i++ {
		le.PutUint32(b[header+4*i:], crc32.ChecksumIEEE(body[1024*i:min(1024*(i+1), len(body))]))
	}
	le.PutUint32(b[12:], crc32.ChecksumIEEE(b[16:header+4*blocks]))
}

// TestIndexedQueryMatchesScanInGit: in a git repository whose history
// moved and deleted cited paths, and with a Makefile and pins, the stale
// notes of the indexed query (judged on stand-ins of the memory files)
// are the scan's (judged on the files), for entries written before and
// after the changes, among many other entries.
func TestIndexedQueryMatchesScanInGit(t *testing.T) {
	longtest.Skip(t)
	g := gittest.New(t)
	g.Write(map[string]string{"src/auth/session.ts": "x\n", "src/legacy/handler.ts": "x\n", "Makefile": "build:\n\ttrue\ne2e-test:\n\ttrue\n",
		".nvmrc": "22\n", "lib/keep.go": "package lib\n"})
	cites := []string{"Auth lives in `src/auth/session.ts`.", "The old handler is `src/legacy/handler.ts`.", "Run `make e2e` before a release.",
		"Use Node 18 for the web app.", "Shared code is in `lib/keep.go`.", "Run `make build` first.", "The handler is `handler.ts`.",
		"Sessions: `session.ts`."}
	r := rand.New(rand.NewPCG(16, 14))
	// write appends n entries to each category file: those of the first
	// commit were written before the paths moved, the others after.
	texts := map[category.Category]*strings.Builder{}
	write := func(n int) {
		for _, c := range category.All {
			b := texts[c]
			if b == nil {
				b = &strings.Builder{}
				b.WriteString("# " + c.Plural() + "\n\n")
				texts[c] = b
			}
			for i := range n {
				if i%7 == 3 {
					b.WriteString("\n")
				}
				if r.IntN(4) == 0 {
					fmt.Fprintf(b, "- %s %s\n", cites[r.IntN(len(cites))], lsptest.Sentence(r, false))
				} else {
					fmt.Fprintf(b, "- %s\n", lsptest.Sentence(r, r.IntN(3) == 0))
				}
			}
			g.Write(map[string]string{".memory/" + c.File(): b.String()})
		}
	}
	write(60)
	g.Commit("2024-01-01", "first")
	g.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts")
	g.Git("rm", "-q", "src/legacy/handler.ts")
	g.Commit("2024-02-01", "move")
	write(40)
	g.Commit("2024-03-01", "more memory")
	write(10) // not committed yet
	indexed := indexedService(t, g.Dir, time.Hour)
	indexed.CacheDir = t.TempDir() // the moves kept between queries too
	cold := newService(g.Dir)
	stale := 0
	compare := func(queries ...string) {
		t.Helper()
		for _, q := range queries {
			req := QueryRequest{Query: q, Limit: new(int)}
			*req.Limit = 20
			want, err := cold.scanQuery(req)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the index built, then reused
				got, ok := indexed.indexedQuery(req)
				if !ok || !reflect.DeepEqual(got, want) {
					t.Fatalf("query %q (%v):\nindexed %+v\n   scan %+v", q, ok, got, want)
				}
			}
			for _, h := range want.Results {
				stale += len(h.Stale)
			}
		}
	}
	compare("auth lives", "handler", "sessions", "make", "node", "shared code", "run", "release", "lib keep", "src")
	if stale < 5 {
		t.Errorf("%d stale notes: the git verdicts were not compared", stale)
	}
	t.Logf("%d stale notes compared", stale)
	// A commit that moves a cited file: the moves kept are of the old HEAD.
	before := stale
	g.Git("mv", "lib/keep.go", "lib/kept.go")
	g.Commit("2024-04-01", "move lib")
	compare("shared code", "lib keep", "auth lives")
	if stale == before {
		t.Error("no stale note after the cited file moved")
	}
}

// TestIndexedQueriesAtOnce: processes querying at once, each building and
// writing the same index file, all answer as the scan does, and leave an
// index file that reads back whole.
func TestIndexedQueriesAtOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 16))
	root := codeWorkspace(t)
	for _, c := range category.All {
		editFile(t, r, filepath.Join(root, ".memory", c.File()))
	}
	queries := warmQueries(r)
	cold := newService(root)
	want := make([]QueryResult, len(queries))
	for i, q := range queries {
		want[i], _ = cold.scanQuery(q)
	}
	shared := indexedService(t, root, time.Hour).QueryIndex
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			s := indexedService(t, root, time.Hour)
			s.QueryIndex = shared
			for round := range 5 {
				if w%2 == 0 && round%2 == 0 {
					_ = os.Remove(shared) // another process starts afresh
				}
				for i, q := range queries {
					if got, err := s.Query(q); err != nil || !reflect.DeepEqual(got, want[i]) {
						errs <- fmt.Errorf("worker %d, round %d, query %+v: %v %+v", w, round, q, err, got)
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(shared)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := search.DecodeIndexFile(b); err != nil {
		t.Fatalf("the index file left: %v", err)
	}
}
