package memory

import (
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// staleRepo is a rules.Repo over refstest's map-backed repository, every
// memory line written long ago.
type staleRepo struct{ refstest.Repo }

func (staleRepo) Written(string, int) time.Time { return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC) }
func (r staleRepo) Locate(p string) (string, bool) {
	_, ok := r.Stat(p)
	return p, ok
}
func (staleRepo) LastChange(string) (string, time.Time, bool) { return "", time.Time{}, false }

// A query marks each hit with what it cites that the repository
// contradicts, in the result and in the reply an agent reads, and opens the
// repository only when a hit cites something.
func TestQueryMarksStaleHits(t *testing.T) {
	files := []rules.File{rules.NewFile(".memory/instructions.md", []byte(
		"# Instructions\n\n- Auth sessions live in `src/auth/session.ts`.\n- Auth tokens expire after one hour.\n"))}
	repo := &staleRepo{refstest.Repo{
		Files: []string{"lib/auth/sessions.ts", "README.md"},
		Gone: map[string]refs.Move{"src/auth/session.ts": {To: "lib/auth/sessions.ts", Commit: "3f9c2a1b7e0d",
			When: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}}
	opened := 0
	c := NewCatalog(files)
	c.JudgeWith(config.Default(), func() rules.Repo { opened++; return repo })

	res, err := c.Query(QueryRequest{Query: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 {
		t.Fatalf("%d hits, want 2: %+v", len(res.Results), res.Results)
	}
	var stale, fresh *QueryHit
	for i := range res.Results {
		if strings.Contains(res.Results[i].Content, "session.ts") {
			stale = &res.Results[i]
		} else {
			fresh = &res.Results[i]
		}
	}
	want := "src/auth/session.ts does not exist; moved to lib/auth/sessions.ts in 3f9c2a1"
	if len(stale.Stale) != 1 || !strings.HasPrefix(stale.Stale[0], want) {
		t.Errorf("stale hit's notes = %q, want one starting %q", stale.Stale, want)
	}
	if len(fresh.Stale) != 0 {
		t.Errorf("the hit citing nothing is marked stale: %q", fresh.Stale)
	}
	if !strings.Contains(res.Message, "(stale: "+want) {
		t.Errorf("the reply does not mark the stale hit:\n%s", res.Message)
	}
	if opened != 1 {
		t.Errorf("the repository was opened %d times, want once", opened)
	}

	// A query whose hits cite nothing does not open the repository.
	opened = 0
	if _, err := c.Query(QueryRequest{Query: "tokens expire"}); err != nil {
		t.Fatal(err)
	}
	if opened != 0 {
		t.Errorf("a query without citations opened the repository %d times", opened)
	}

	// Without JudgeWith, or with the rule off, nothing is marked.
	off := config.Default()
	off.Disabled["stale-path"] = true
	c.JudgeWith(off, func() rules.Repo { return repo })
	if res, _ := c.Query(QueryRequest{Query: "session"}); len(res.Results) == 0 || len(res.Results[0].Stale) != 0 {
		t.Errorf("with stale-path off: %+v", res.Results)
	}
}

// Stats count the entries whose citations the repository contradicts, and
// name each with its problems; a path the history never had (src/new.ts)
// or shows deleted (docs/old.md), information both, makes no entry stale.
func TestStatsCountStaleEntries(t *testing.T) {
	files := []rules.File{rules.NewFile(".memory/decisions.md", []byte(
		"# Decisions\n\n- Auth lives in `src/auth/session.ts` and `docs/gone.md`.\n- Use Postgres.\n- Keys rotate in `src/new.ts` as `docs/old.md` said.\n"))}
	repo := &staleRepo{refstest.Repo{Files: []string{"src/app.ts", "docs/adr.md", "lib/auth/session.ts"},
		Gone: map[string]refs.Move{"src/auth/session.ts": {To: "lib/auth/session.ts", Commit: "3f9c2a1b7e0d"},
			"docs/gone.md": {To: "docs/adr.md", Commit: "3f9c2a1b7e0d"}, "docs/old.md": {Commit: "3f9c2a1b7e0d"}}}}
	st := ComputeStats(files, config.Default(), repo)
	if len(st.Stale) != 1 || st.Stale[0].Entry.Line != 3 || len(st.Stale[0].Problems) != 2 {
		t.Fatalf("Stale = %+v, want entry 3 with two problems", st.Stale)
	}
	msg := st.Message("", "")
	if !strings.HasPrefix(msg, "3 memories; 0 duplicates, 0 conflicts, 1 stale entry.") ||
		!strings.Contains(msg, "\nstale: decisions.md:3 ") {
		t.Errorf("message:\n%s", msg)
	}
	if st := ComputeStats(files, config.Default(), nil); len(st.Stale) != 0 || strings.Contains(st.Message("", ""), "stale") {
		t.Errorf("without a repository: %+v", st.Stale)
	}
}
