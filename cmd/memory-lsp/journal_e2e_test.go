package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// A store journals what it acknowledged beside the lock, and the journal
// stays out of git: a team that commits everything under .memory/ (and
// merges branches that both stored) never sees it.
func TestBinaryStoreJournalStaysOutOfGit(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{".memory/decisions.md": "# Decisions\n\n- Use Postgres for the ledger.\n"})
	r.Commit("2026-01-01", "memory")
	for _, content := range []string{"Tag every release from main.", "Use Postgres for the ledger."} {
		if out, errOut, code := runBinary(t, r.Dir, "", "store", "--category", "Decision", content); code != 0 {
			t.Fatalf("store: exit %d\n%s%s", code, out, errOut)
		}
	}
	recs, err := store.ReadJournal(filepath.Join(r.Dir, ".memory"))
	if err != nil || len(recs) != 2 || recs[0].Add != "- Tag every release from main." || recs[1].Add != "- Use Postgres for the ledger." || recs[0].By != "cli" {
		t.Fatalf("journal: %+v %v", recs, err)
	}
	// The provenance log is the team's to commit or ignore; the journal
	// is no one's.
	if st := r.Git("status", "--porcelain", "--untracked-files=all"); strings.TrimSpace(st) != "M .memory/decisions.md\n?? .memory/provenance.log" {
		t.Errorf("git status lists more than the memory file and the provenance log:\n%s", st)
	}
	// Once, however many stores.
	ex, _ := os.ReadFile(filepath.Join(r.Dir, ".git", "info", "exclude"))
	if strings.Count(string(ex), ".memory/.acked") != 1 {
		t.Errorf("git's exclude file:\n%s", ex)
	}
}
