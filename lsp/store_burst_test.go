package lsp_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// storeText is a new entry, every third one citing the repository's files.
func storeText(r *rand.Rand) string {
	if r.IntN(3) == 0 {
		return lsptest.Citing(r, lsptest.CodePaths)
	}
	return lsptest.Sentence(r, false)
}

// TestBackToBackStoresPublishAsAFreshServer: stores sent back to back
// (each as soon as the last is answered, some two at once) meet the
// re-checks the stores before them set going, an open buffer the stores
// change through workspace/applyEdit while it is edited, and another
// program writing a closed file in the middle of the burst, in a git
// repository whose files the entries cite. However those
// re-checks were coalesced or overtaken, once the server is quiet the last
// diagnostics it published for every file are those a new server publishes
// for the same files and buffer.
func TestBackToBackStoresPublishAsAFreshServer(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 26))
	// Where users work: a git repository whose entries cite its files,
	// so that the re-checks judge references too.
	root := lsptest.CitingRepo(t, r).Top()
	dir := filepath.Join(root, ".memory")
	for _, cat := range category.All {
		// Findings that stores and edits move: a duplicate, two entries
		// under one slug, a near-duplicate pair.
		writeFile(t, filepath.Join(dir, cat.File()), lsptest.PairedFile(r, cat)+"- "+lsptest.Citing(r, lsptest.CodePaths)+"\n")
	}
	// A debounce shorter than a store: each re-check starts while the next
	// store runs, as at 10,000 entries on a busy machine.
	warm := inProcessWith(t, lsp.Options{Version: "test", Debounce: 2 * time.Millisecond})
	warm.Initialize(lsptest.InitializeParams(root, nil))
	quirks := filepath.Join(dir, category.Quirk.File())
	open := warm.OpenFile(quirks)
	store := func(cat category.Category) *lsptest.Call {
		call, err := warm.Go("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
			"arguments": []any{map[string]any{"category": cat.String(), "content": storeText(r)}}})
		if err != nil {
			t.Fatal(err)
		}
		return call
	}
	wait := func(calls ...*lsptest.Call) {
		for _, c := range calls {
			if _, err := c.Wait(time.Minute); err != nil {
				t.Logf("a store was refused: %v", err)
			}
		}
	}
	past := time.Now().Add(-time.Hour)
	for i := range 40 {
		cat := category.All[r.IntN(len(category.All))]
		switch {
		case i%10 == 3:
			wait(store(cat), store(category.All[r.IntN(len(category.All))]))
		case i%10 == 6:
			lines := strings.Split(warm.Text(open), "\n")
			k := 2 + r.IntN(len(lines)-2)
			warm.Change(open, lsptest.TextEdit{Range: lsptest.R(k, 0, k, len(lines[k])), NewText: "- " + lsptest.Sentence(r, true)})
			wait(store(category.Quirk))
		case i == 25:
			other := filepath.Join(dir, category.Security.File())
			t.Logf("another program: %s", lsptest.Rewrite(t, r, other, &past))
			wait(store(cat))
		default:
			wait(store(cat))
		}
	}

	cold := inProcess(t)
	cold.Initialize(lsptest.InitializeParams(root, nil))
	uris := map[string]string{quirks: cold.Open(quirks, warm.Text(open))}
	for _, cat := range category.All {
		if path := filepath.Join(dir, cat.File()); path != quirks {
			if _, err := os.Stat(path); err == nil {
				uris[path] = lsptest.URI(path)
			}
		}
	}
	// The new server may publish every file as it is on disk before it
	// reads the buffer's didOpen, and quirks.md on disk lacks what the
	// stores applied to the buffer: the answer to compare with is the
	// round that publishes the buffer's version, and what follows it.
	cold.AwaitDiagnostics(uris[quirks], 1, time.Minute)
	time.Sleep(300 * time.Millisecond)
	want := map[string]string{}
	some, stale := 0, 0
	for path, uri := range uris {
		d := cold.AwaitDiagnostics(uri, lsptest.AnyVersion, time.Minute)
		want[path], some = diagnosticsJSON(t, d), some+len(d.Diagnostics)
		stale += strings.Count(want[path], `"stale-`)
	}
	cold.Shutdown()
	if some == 0 || stale == 0 {
		t.Fatalf("a new server publishes %d diagnostics for these files, %d of them on references: nothing would be compared", some, stale)
	}

	for path, uri := range uris {
		warm.AwaitDiagnosticsWhere(0, uri, time.Minute, func(d *lsptest.Diagnostics) bool {
			return diagnosticsJSON(t, d) == want[path]
		})
	}
	// Nothing stale may come after: a re-check overtaken by a newer write
	// that published late would leave the editor with old diagnostics.
	time.Sleep(500 * time.Millisecond)
	for path, uri := range uris {
		if got := diagnosticsJSON(t, warm.AwaitDiagnostics(uri, lsptest.AnyVersion, time.Minute)); got != want[path] {
			t.Errorf("%s: the server's last publish after the burst\n%s\na new server's\n%s", filepath.Base(path), got, want[path])
		}
	}
	warm.Shutdown()
}

// diagnosticsJSON is a publish's diagnostics as JSON, to compare.
func diagnosticsJSON(t *testing.T, d *lsptest.Diagnostics) string {
	t.Helper()
	b, err := json.Marshal(d.Diagnostics)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
