package mcp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestWarmQueryMatchesColdServer: a server that keeps its files and index
// warm between calls answers queryMemory (results and reply) exactly as a
// new server does, after random sequences of its own stores, stores by
// another server (another process, for the first), and external writes
// (in place or replacing the file, some with an old modification time,
// some deleting it).
func TestWarmQueryMatchesColdServer(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 5))
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	warm := session(t, Options{Root: root}, nil, "")
	other := session(t, Options{Root: root}, nil, "")
	past := time.Now().Add(-time.Hour)
	hits := 0
	for step := range 80 {
		cat := category.All[r.IntN(len(category.All))]
		path := filepath.Join(dir, cat.File())
		var what string
		switch op := r.IntN(5); {
		case op < 2:
			what = "store into " + cat.File()
			cs := warm
			if op == 1 {
				what, cs = "another server's store into "+cat.File(), other
			}
			call(t, cs, "storeMemory", map[string]any{"category": cat.String(), "content": lsptest.Sentence(r, false)})
		default:
			what = lsptest.Rewrite(t, r, path, &past)
		}
		cold := session(t, Options{Root: root}, nil, "")
		for range 3 {
			args := map[string]any{"query": lsptest.Words[r.IntN(len(lsptest.Words))]}
			if r.IntN(2) == 0 {
				args["query"] = fmt.Sprint(args["query"], " ", lsptest.Words[r.IntN(len(lsptest.Words))])
			}
			if r.IntN(3) == 0 {
				args["limit"] = 1 + r.IntN(20)
			}
			got, want := call(t, warm, "queryMemory", args), call(t, cold, "queryMemory", args)
			if got.String() != want.String() {
				t.Fatalf("step %d (%s): %v:\nwarm %s\ncold %s", step, what, args, got, want)
			}
			if strings.Contains(string(got.Data), `"results":[{`) {
				hits++
			}
		}
	}
	if hits == 0 {
		t.Fatal("no query found anything: nothing was compared")
	}
}
