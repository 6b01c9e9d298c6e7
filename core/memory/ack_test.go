package memory

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/store"
)

func TestReapply(t *testing.T) {
	const head = "# Decisions\n\n"
	for _, tc := range []struct {
		name, x string
		ack     store.Ack
		want    string
	}{
		{"appended", head + "- A one.\n", store.Ack{Add: "- [b] B two."}, head + "- A one.\n- [b] B two.\n"},
		{"already there", head + "- [b] B two.\n", store.Ack{Add: "- [b] B two."}, head + "- [b] B two.\n"},
		{"there under another slug", head + "- [x] B two.\n", store.Ack{Add: "- [b] B two."}, head + "- [x] B two.\n"},
		{"in place of the line it replaced", head + "- [db] Use Postgres 16.\n- A one.\n",
			store.Ack{Add: "- [db] Use Postgres 17.", Drop: []string{"- [db] Use Postgres 16."}},
			head + "- [db] Use Postgres 17.\n- A one.\n"},
		{"the evicted line out again", head + "- [db] Use Postgres 16.\n- Weak one.\n- A one.\n",
			store.Ack{Add: "- [db] Use Postgres 17.", Drop: []string{"- [db] Use Postgres 16.", "- Weak one."}},
			head + "- [db] Use Postgres 17.\n- A one.\n"},
		{"CRLF kept", "# Decisions\r\n\r\n- A one.\r\n", store.Ack{Add: "- B two."}, "# Decisions\r\n\r\n- A one.\r\n- B two.\r\n"},
		{"no final newline", head + "- A one.", store.Ack{Add: "- B two."}, head + "- A one.\n- B two.\n"},
		{"a removal, made again", head + "- A one.\n- B two.\n", store.Ack{Drop: []string{"- A one."}}, head + "- B two.\n"},
		{"a removal of what is not there", head + "- B two.\n", store.Ack{Drop: []string{"- A one."}}, head + "- B two.\n"},
		{"empty file", "", store.Ack{Add: "- B two."}, "- B two.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Reapply([]byte(tc.x), tc.ack)); got != tc.want {
				t.Errorf("Reapply:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestHoldsEntry(t *testing.T) {
	x := []byte("# Decisions\n\n- [db] Use Postgres.\nUse Redis. is prose\n- Use Redis for caching.\r\n- Not an entry: Use Kafka.\n")
	if !HoldsEntry([]byte("\uFEFF- Use Postgres.\n"), "- Use Postgres.") {
		t.Error("an entry on the first line of a file with a BOM is not found")
	}
	for line, want := range map[string]bool{
		"- [db] Use Postgres.":      true,
		"- [other] Use Postgres.":   true, // the fact under another slug
		"- Use Postgres.":           true,
		"- Use Redis.":              false, // only inside prose
		"- Use Redis for caching.":  true,  // before a CR
		"- Use Kafka.":              false, // inside another entry
		"- Use MySQL.":              false,
		"not an entry line at all.": false,
	} {
		if got := HoldsEntry(x, line); got != want {
			t.Errorf("HoldsEntry(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestStoreAck(t *testing.T) {
	m := &EntryRef{File: "decisions.md", Slug: "db", Content: "Use Postgres 16."}
	for _, tc := range []struct {
		name string
		r    StoreResult
		add  string
		drop []string
	}{
		{"stored", StoreResult{Action: ActionStored, File: "decisions.md", Content: "Use Redis."}, "- Use Redis.", nil},
		{"updated", StoreResult{Action: ActionUpdated, File: "decisions.md", Slug: "db", Content: "Use Postgres 17.", Matched: m}, "- [db] Use Postgres 17.", []string{"- [db] Use Postgres 16."}},
		{"skipped: the entry there is acknowledged", StoreResult{Action: ActionSkipped, File: "decisions.md", Slug: "db", Content: "use postgres 16", Matched: m}, "- [db] Use Postgres 16.", nil},
		{"evicted", StoreResult{Action: ActionStored, File: "decisions.md", Content: "Use Redis.", Evicted: m}, "- Use Redis.", []string{"- [db] Use Postgres 16."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := StoreAck(tc.r, ByCLI, time.Now())
			if a.Add != tc.add || len(a.Drop) != len(tc.drop) || (len(a.Drop) > 0 && a.Drop[0] != tc.drop[0]) || a.File != "decisions.md" || a.By != ByCLI || a.ID == "" {
				t.Errorf("StoreAck = %+v, want add %q drop %q", a, tc.add, tc.drop)
			}
		})
	}
}

// Every store the Service acknowledges is in the journal, also one that
// found the entry there already; a refused one is not.
func TestServiceJournalsStores(t *testing.T) {
	root := t.TempDir()
	ws, err := store.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{WS: ws, Cfg: config.Default(), Who: Writer{By: ByMCP}}
	ctx := context.Background()
	for _, content := range []string{"Use Redis for caching.", "Use Redis for caching.", "Deploy the API first."} {
		if _, err := s.Store(ctx, StoreRequest{Category: "Decision", Content: content}, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Store(ctx, StoreRequest{Category: "Decision", Content: "line one\nline two"}, false); err == nil {
		t.Fatal("a content with a line break was stored")
	}
	recs, err := store.ReadJournal(ws.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var adds []string
	for _, r := range recs {
		adds = append(adds, r.Add)
		if r.By != ByMCP || r.File != category.Decision.File() {
			t.Errorf("record %+v", r)
		}
	}
	want := []string{"- Use Redis for caching.", "- Use Redis for caching.", "- Deploy the API first."}
	if len(adds) != len(want) || adds[0] != want[0] || adds[1] != want[1] || adds[2] != want[2] {
		t.Errorf("journal adds %q, want %q", adds, want)
	}
	// The journal is no memory file: nothing else in .memory/ but it, the
	// category file and the provenance log.
	ents, _ := os.ReadDir(ws.Dir)
	for _, e := range ents {
		if n := e.Name(); n != store.JournalName && n != "decisions.md" && n != ProvenanceLog {
			t.Errorf("unexpected %s in %s", n, filepath.Base(ws.Dir))
		}
	}
}
