package lsp

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCitedWatchAfterStoresAsAFreshPass: what a folder's entries cite, and
// the folders watched for it, read from what the last publish found in
// each file, equal a pass over every entry afresh after each of stores
// (appends citing cited, missing and new paths, into the file and into
// another), another writer's append, a store that replaces an entry in
// place and a change to the code; and a file a store appended to is read
// on from what was found before, not afresh.
func TestCitedWatchAfterStoresAsAFreshPass(t *testing.T) {
	root := t.TempDir()
	writeCode(t, root, "src/auth/session.ts", "Makefile", "lib/a/x.ts")
	path := writeMemory(t, root, "decisions.md", citing)
	rf := diskRepo(t)
	c := newTestClient(t, Options{OpenRepo: rf.open})
	c.initialize(root, nil, nil)
	_, n := c.diagnostics(0, uriOf(path), -1)
	f := c.server.folderAt(filepath.Dir(path))
	compare := func(step string) {
		t.Helper()
		var last *checked
		eventually(t, "the last check is followed", func() bool {
			f.pub.Lock()
			defer f.pub.Unlock()
			last = f.last
			return last != nil && f.followed == last
		})
		f.pub.Lock()
		defer f.pub.Unlock()
		sc := f.scope.Load()
		dirs, in, _ := c.server.citedWatch(f, last, sc, f.cited)
		freshDirs, freshIn, _ := c.server.citedWatch(f, last, sc, nil)
		if !slices.Equal(dirs, freshDirs) {
			t.Errorf("%s: folders to watch\n%v\nafresh\n%v", step, dirs, freshDirs)
		}
		if !maps.Equal(in.Paths, freshIn.Paths) || !maps.Equal(in.Names, freshIn.Names) {
			t.Errorf("%s: cited paths %v names %v, afresh %v %v", step, in.Paths, in.Names, freshIn.Paths, freshIn.Names)
		}
	}
	compare("first")
	extended := 0
	for i := range 12 {
		var content string
		switch i % 4 {
		case 0:
			content = fmt.Sprintf("Entry %d keeps the session in `src/auth/session.ts` and runs `make e2e`.", i)
		case 1:
			content = fmt.Sprintf("Entry %d moved the handlers to `lib/k%d/handler.ts`, which does not exist yet.", i, i)
		case 2:
			content = fmt.Sprintf("Entry %d reads `lib/a/x.ts` and `docs/gone%d.md`.", i, i)
		default:
			content = fmt.Sprintf("Entry %d cites nothing at all, number %d.", i, i)
		}
		category := "decision"
		if i == 5 {
			category = "quirk"
		}
		f.pub.Lock()
		was := f.cited[path]
		f.pub.Unlock()
		if err := c.command("memory.storeMemory", map[string]any{"category": category, "content": content}, nil); err != nil {
			t.Fatal(err)
		}
		_, n = c.diagnostics(n, uriOf(path), -1)
		compare(fmt.Sprintf("store %d", i))
		f.pub.Lock()
		if now := f.cited[path]; was != nil && now == was {
			extended++
		}
		f.pub.Unlock()
		switch i {
		case 3: // another writer appends
			data, _ := os.ReadFile(path)
			if err := os.WriteFile(path, append(data, "- Another writer cites `lib/a/x.ts` and `src/elsewhere/y.go`.\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			_, n = c.diagnostics(n, uriOf(path), -1)
			compare("another writer")
		case 7: // the code changes: a missing cited folder appears
			builds := rf.builds()
			if err := os.MkdirAll(filepath.Join(root, "lib", "k1"), 0o755); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the repository is built again", func() bool { return rf.builds() > builds })
			_, n = c.diagnostics(n, uriOf(path), -1)
			compare("the code changed")
		case 9: // an entry replaced in place
			if err := c.command("memory.storeMemory", map[string]any{"category": "decision", "slug": "auth", "content": "The session now lives in `lib/a/x.ts`."}, nil); err != nil {
				t.Fatal(err)
			}
			_, n = c.diagnostics(n, uriOf(path), -1)
			compare("replaced in place")
		}
	}
	if extended < 4 {
		t.Errorf("only %d of 12 stores read the stored file on from what was found before", extended)
	}
	c.shutdown()
}
