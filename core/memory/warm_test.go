package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// warmEdit changes the text of a memory file as a person or another
// program would: a line added, removed or reworded, or nothing (the same
// bytes written again). Some entries cite a path, which exists in
// TestWarmServiceMatchesCold's repository or not, so that some hits are
// marked stale.
func warmEdit(r *rand.Rand, src string) string {
	lines := strings.Split(src, "\n")
	entry := func() string {
		e := "- " + lsptest.Sentence(r, true)
		if r.IntN(4) == 0 {
			e += " See `src/" + lsptest.Words[r.IntN(len(lsptest.Words))] + ".go`."
		}
		return e
	}
	switch r.IntN(4) {
	case 0:
		i := r.IntN(len(lines) + 1)
		lines = append(lines[:i], append([]string{entry()}, lines[i:]...)...)
	case 1:
		if len(lines) > 1 {
			i := r.IntN(len(lines))
			lines = append(lines[:i], lines[i+1:]...)
		}
	case 2:
		i := r.IntN(len(lines))
		lines[i] = entry()
	}
	return strings.Join(lines, "\n")
}

// codeWorkspace is a workspace with an empty .memory/ and, beside it, a
// src/ of Go files named after half the vocabulary, which entries cite.
func codeWorkspace(t *testing.T) string {
	t.Helper()
	repo := gittest.New(t)
	root := repo.Dir
	for _, p := range []string{".memory", "src"} {
		if err := os.Mkdir(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Every word had a file; the second half moved to lib/, so that the
	// history shows them gone and an entry citing one is stale.
	for _, w := range lsptest.Words {
		if err := os.WriteFile(filepath.Join(root, "src", w+".go"), []byte("package src\n\nconst "+w+" = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo.AddAll()
	repo.Commit("2026-01-01T00:00:00Z", "every word")
	if err := os.Mkdir(filepath.Join(root, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, w := range lsptest.Words[len(lsptest.Words)/2:] {
		repo.Git("mv", "src/"+w+".go", "lib/"+w+".go")
	}
	repo.Commit("2026-01-02T00:00:00Z", "half of them move")
	return root
}

// editFile writes warmEdit's change to the file at p (made if missing), in
// place (the same file, new bytes) or by a rename over it, at random.
func editFile(t *testing.T, r *rand.Rand, p string) {
	t.Helper()
	old, _ := os.ReadFile(p)
	data := []byte(warmEdit(r, string(old)))
	if r.IntN(2) == 0 {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.Write(data)
		_ = f.Close()
	} else if err := os.WriteFile(p+".new", data, 0o644); err != nil || os.Rename(p+".new", p) != nil {
		t.Fatal("replacing", p)
	}
}

// warmQueries are words of the vocabulary alone, in pairs (phrases),
// prefixes, slug-like, in one category and with limits.
func warmQueries(r *rand.Rand) []QueryRequest {
	var out []QueryRequest
	for range 6 {
		q := QueryRequest{Query: lsptest.Words[r.IntN(len(lsptest.Words))]}
		switch r.IntN(5) {
		case 0:
			q.Query += " " + lsptest.Words[r.IntN(len(lsptest.Words))]
		case 1:
			q.Query = q.Query[:min(len(q.Query), 4)]
		case 2:
			q.Query += "-" + lsptest.Words[r.IntN(len(lsptest.Words))]
		case 3:
			q.Category = category.All[r.IntN(len(category.All))].String()
		}
		if r.IntN(2) == 0 {
			n := 1 + r.IntN(MaxQueryLimit)
			q.Limit = &n
		}
		out = append(out, q)
	}
	return out
}

// sameAnswers fails unless the warm catalog answers every query, and lists
// every entry, exactly as the cold one: the same hits in the same order,
// with equal scores, places and text, and the same reply.
func sameAnswers(t *testing.T, step string, warm, cold *Catalog, qs []QueryRequest) {
	t.Helper()
	if w, c := warm.Entries(-1), cold.Entries(-1); !reflect.DeepEqual(w, c) {
		t.Fatalf("%s: the warm catalog lists %d entries, the cold one %d, or they differ", step, len(w), len(c))
	}
	for _, q := range qs {
		w, werr := warm.Query(q)
		c, cerr := cold.Query(q)
		if fmt.Sprint(werr) != fmt.Sprint(cerr) || !reflect.DeepEqual(w, c) {
			t.Fatalf("%s: query %+v:\nwarm %v %+v\ncold %v %+v", step, q, werr, w, cerr, c)
		}
	}
}

// TestWarmCatalogMatchesCold: after random edits, as a language server sees
// them (unchanged files keep their parse, a changed buffer is parsed anew,
// a file read again gets a new parse of the same bytes, files come and go),
// the warm catalog answers exactly as a catalog built from scratch.
func TestWarmCatalogMatchesCold(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	var w Warm
	texts := map[string]string{}
	parsed := map[string]rules.File{}
	names := []string{"instructions.md", "quirks.md", "preferences.md", "decisions.md", "security.md", "notes.md"}
	for step := range 300 {
		name := names[r.IntN(len(names))]
		switch op := r.IntN(10); {
		case op == 0: // the file is gone
			delete(texts, name)
		case op == 1: // read again: the same bytes, a new parse
			if s, ok := texts[name]; ok {
				parsed[name] = rules.NewFile(".memory/"+name, []byte(s))
			}
		default:
			texts[name] = warmEdit(r, texts[name])
			parsed[name] = rules.NewFile(".memory/"+name, []byte(texts[name]))
		}
		var files []rules.File
		for _, n := range names {
			if _, ok := texts[n]; ok {
				files = append(files, parsed[n])
			}
		}
		cold := NewCatalog(files)
		sameAnswers(t, fmt.Sprintf("step %d", step), w.Catalog(files), cold, warmQueries(r))
	}
}

// TestWarmServiceMatchesCold: a Service that keeps its catalog warm (as
// the MCP server does) answers exactly as a cold one after random stores
// of its own, stores by another process, and external writes: rewrites
// that keep the file or replace it, some with old modification times (a
// stat vouched for those once), new files and deleted ones. A Service without a
// Warm (the CLI) scans the files instead of building a catalog: it must
// answer exactly the same too, stale notes included.
func TestWarmServiceMatchesCold(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	root := codeWorkspace(t)
	dir := filepath.Join(root, ".memory")
	warm := newService(root)
	warm.Warm = new(Warm)
	cold := newService(root)
	cold.Cfg = config.Default()
	warm.Cfg = cold.Cfg
	names := []string{"instructions.md", "quirks.md", "preferences.md", "decisions.md", "security.md", "notes.md"}
	past := time.Now().Add(-time.Hour)
	stale, stored := 0, 0
	for step := range 150 {
		name := names[r.IntN(len(names))]
		p := filepath.Join(dir, name)
		var what string
		switch op := r.IntN(8); {
		case op < 2:
			what = "store"
			svc := warm
			if op == 1 {
				svc = cold // another process
			}
			c := category.All[r.IntN(len(category.All))]
			if _, err := svc.Store(context.Background(), StoreRequest{Category: c.String(), Content: lsptest.Sentence(r, false)}, false); err == nil {
				stored++
			}
		case op == 2:
			what = "remove " + name
			_ = os.Remove(p)
		default:
			what = "write " + name
			editFile(t, r, p)
		}
		if r.IntN(2) == 0 {
			// Old enough to be judged by its stat, and each a new time.
			for _, n := range names {
				past = past.Add(time.Second)
				_ = os.Chtimes(filepath.Join(dir, n), past, past)
			}
		}
		files, err := cold.Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range warmQueries(r) {
			catalog := NewCatalog(files)
			catalog.JudgeWith(cold.Cfg, func() rules.Repo { return cold.ReferenceRepo(context.Background()) })
			want, werr := catalog.Query(q)
			for name, svc := range map[string]*Service{"warm": warm, "scanning": cold} {
				got, err := svc.Query(q)
				if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d (%s): query %+v:\n%s %v %+v\ncatalog %v %+v", step, what, q, name, err, got, werr, want)
				}
			}
			for _, h := range want.Results {
				stale += len(h.Stale)
			}
		}
	}
	if stale == 0 {
		t.Error("no hit was marked stale: the stale notes were not compared")
	}
	if stored == 0 {
		t.Error("no store succeeded: the warm catalog was never updated by a write")
	}
}

// TestWarmLoadSeesARewriteInTheSameTick: a file rewritten in place with as
// many bytes and its modification time set back to what it was, within the
// file system's clock tick of the last read, leaves its stat as it was; the
// warm service must read it again all the same (the racy-window guard).
func TestWarmLoadSeesARewriteInTheSameTick(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "decisions.md")
	write := func(s string, at time.Time) {
		t.Helper()
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.WriteString(s)
		_ = f.Close()
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	content := func(files []rules.File) string {
		for _, f := range files {
			if filepath.Base(f.Path) == "decisions.md" {
				return string(f.Doc.Src)
			}
		}
		return ""
	}
	svc := newService(root)
	svc.Warm = new(Warm)
	at := time.Now()
	write("# Decisions\n\n- Use Postgres.\n", at)
	if files, err := svc.Load(); err != nil || content(files) != "# Decisions\n\n- Use Postgres.\n" {
		t.Fatalf("first load: %q, %v", content(files), err)
	}
	write("# Decisions\n\n- Use Postgrey.\n", at) // same size, same time, same inode
	files, err := svc.Load()
	if err != nil || content(files) != "# Decisions\n\n- Use Postgrey.\n" {
		t.Errorf("after a rewrite in the same tick: %q, %v; want the new bytes", content(files), err)
	}
}

// TestWarmStoresMatchCold: a file this process writes again and again, most
// often with an entry appended, sometimes otherwise (an entry reworded or
// removed, the same bytes), is answered for exactly as by a catalog built
// from scratch.
func TestWarmStoresMatchCold(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 4))
	var w Warm
	path := ".memory/decisions.md"
	other := rules.NewFile(".memory/quirks.md", []byte("# Quirks\n\n- "+lsptest.Sentence(r, true)+"\n"))
	text := "# Decisions\n"
	files := func() []rules.File { return []rules.File{rules.NewFile(path, []byte(text)), other} }
	w.Catalog(files())
	for step := range 60 {
		if r.IntN(5) == 0 {
			text = warmEdit(r, text)
		} else {
			text += "\n- " + lsptest.Sentence(r, true) + "\n"
		}
		sameAnswers(t, fmt.Sprintf("step %d", step), w.Catalog(files()), NewCatalog(files()), warmQueries(r))
	}
}

// TestWarmStoresDecideAsCold: a Service with a Warm (which keeps its parse
// of the file between stores) decides
// every store exactly as one without, and writes the same bytes: new
// entries, the same text again, slightly changed and negated texts, slugs,
// and files changed by another writer between stores.
func TestWarmStoresDecideAsCold(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 5))
	warmRoot, coldRoot := t.TempDir(), t.TempDir()
	warm, cold := newService(warmRoot), newService(coldRoot)
	warm.Warm = &Warm{}
	// as the MCP server opens it: a file holding the bytes last written
	// or parsed there is taken as them, and stores append behind them
	warm.WS.Known = warm.Warm.Bytes
	var stored []string
	for step := range 80 {
		content := lsptest.Sentence(r, true)
		switch k := r.IntN(6); {
		case k == 0 && len(stored) > 0:
			content = stored[r.IntN(len(stored))]
		case k == 1 && len(stored) > 0:
			content = stored[r.IntN(len(stored))] + " Always."
		case k == 2 && len(stored) > 0:
			content = "Never " + strings.ToLower(stored[r.IntN(len(stored))])
		case k == 3:
			// Another writer changes the file between stores.
			for _, root := range []string{warmRoot, coldRoot} {
				path := filepath.Join(root, ".memory", "decisions.md")
				data, _ := os.ReadFile(path)
				if err := os.WriteFile(path, []byte(warmEdit(rand.New(rand.NewPCG(uint64(step), 7)), string(data))), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		case k == 4:
			// Another writer changes a letter: the same size, other bytes.
			for _, root := range []string{warmRoot, coldRoot} {
				path := filepath.Join(root, ".memory", "decisions.md")
				data, _ := os.ReadFile(path)
				if i := strings.LastIndexAny(string(data), "aeiou"); i >= 0 {
					data[i] = 'x'
				}
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		req := StoreRequest{Category: "Decision", Content: content}
		if r.IntN(4) == 0 {
			req.Slug = fmt.Sprintf("s-%d", r.IntN(10))
		}
		w, werr := warm.Store(context.Background(), req, false)
		c, cerr := cold.Store(context.Background(), req, false)
		if fmt.Sprint(werr) != fmt.Sprint(cerr) || !reflect.DeepEqual(w, c) {
			t.Fatalf("step %d, %+v:\nwarm %v %+v\ncold %v %+v", step, req, werr, w, cerr, c)
		}
		wb, _ := os.ReadFile(filepath.Join(warmRoot, ".memory", "decisions.md"))
		cb, _ := os.ReadFile(filepath.Join(coldRoot, ".memory", "decisions.md"))
		if string(wb) != string(cb) {
			t.Fatalf("step %d: the warm store wrote\n%s\nthe cold one\n%s", step, wb, cb)
		}
		if w.Action == ActionStored {
			stored = append(stored, content)
		}
		if step%10 == 0 {
			if _, err := warm.Query(QueryRequest{Query: "cache"}); err != nil {
				t.Fatal(err)
			}
		}
	}
}
