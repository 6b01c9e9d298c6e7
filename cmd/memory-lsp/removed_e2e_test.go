package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestRemovedFactsStayInTheLog: a store under a slug another fact holds
// replaces it (HackLM's upsert) and a full category evicts its
// lowest-scoring entry; each removed entry is named in the reply and kept,
// as written, in the provenance log's record of the write, so a fact an
// agent was told is stored is never gone from the repository.
func TestRemovedFactsStayInTheLog(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{".memory/decisions.md": "# Decisions\n\n- [db] Use Postgres for the ledger.\n- Ship on Tuesdays.\n"})
	r.Commit("2026-01-01", "memory")
	settings := filepath.Join(t.TempDir(), "settings.json")
	writeTestFile(t, settings, []byte(`{"review": "off", "categoryLimit": {"Decision": 2}}`))
	log := func() []memory.Provenance { l, _ := provenanceLog(t, r.Dir); return l }

	const backups = "Nightly backups run at 02:00 and are kept for a week."
	out, errOut, code := runBinary(t, r.Dir, "", "store", "--config", settings, "--category", "Decision", "--slug", "db", backups)
	if code != 0 || !strings.Contains(out, `replaced: "Use Postgres for the ledger."`) {
		t.Fatalf("store under a held slug: exit %d\n%s%s", code, out, errOut)
	}
	if l := log(); len(l) != 1 || l[0].Content != backups || l[0].Replaced != "Use Postgres for the ledger." || l[0].ReplacedSlug != "db" {
		t.Fatalf("provenance of the upsert %+v, want the replaced entry as written", l)
	}

	const third = "Feature flags live in LaunchDarkly, not in env files."
	out, errOut, code = runBinary(t, r.Dir, "", "store", "--config", settings, "--category", "Decision", third)
	if code != 0 || !strings.Contains(out, "category full") {
		t.Fatalf("store into a full category: exit %d\n%s%s", code, out, errOut)
	}
	l := log()
	if len(l) != 2 || l[1].Content != third || l[1].Evicted != backups || l[1].EvictedSlug != "db" || l[1].Replaced != "" {
		t.Fatalf("provenance of the eviction %+v, want the evicted entry as written", l)
	}
	file, _ := os.ReadFile(filepath.Join(r.Dir, ".memory", "decisions.md"))
	if strings.Contains(string(file), backups) || !strings.Contains(out, `removed the lowest-scoring entry "`+backups+`"`) {
		t.Errorf("evicted entry still in the file or not named in the reply\n%s\n%s", file, out)
	}
}

// TestRemovedSecretStaysOutOfTheLog: an entry written by hand with a
// credential, replaced through its slug, is withheld from the log, which
// is committed and outlives the entry.
func TestRemovedSecretStaysOutOfTheLog(t *testing.T) {
	const token = "ghp_" + "R7vQ2mXk9pLz4TnB8sWc1YhJ5dFg3KeA0uVo"
	r := gittest.New(t)
	r.Write(map[string]string{".memory/security.md": "# Security\n\n- [ci-token] The CI bot token is " + token + ".\n"})
	r.Commit("2026-01-01", "memory")
	out, errOut, code := runBinary(t, r.Dir, "", "store", "--category", "Security", "--slug", "ci-token", "The CI bot token lives in the vault under ci/bot.")
	if code != 0 {
		t.Fatalf("store: exit %d\n%s%s", code, out, errOut)
	}
	l, b := provenanceLog(t, r.Dir)
	if len(l) != 1 || l[0].Replaced != "[withheld: the entry held a likely secret]" || l[0].ReplacedSlug != "ci-token" || strings.Contains(string(b), token) {
		t.Fatalf("provenance %+v: want the replaced entry without its token\n%s", l, b)
	}
}

// TestRemovedPrivateKeyStaysOutOfTheLog: a hand-written entry holding a
// private key, evicted from a full category, is withheld whole: cutting the
// detected header alone left the key's body in the log (a red team's).
func TestRemovedPrivateKeyStaysOutOfTheLog(t *testing.T) {
	const body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"
	r := gittest.New(t)
	r.Write(map[string]string{".memory/quirks.md": "# Quirks\n\n- The deploy key is -----BEGIN RSA PRIVATE KEY----- " + body + " -----END RSA PRIVATE KEY-----\n"})
	r.Commit("2026-01-01", "memory")
	settings := filepath.Join(t.TempDir(), "settings.json")
	writeTestFile(t, settings, []byte(`{"review": "off", "categoryLimit": {"Quirk": 1}}`))
	out, errOut, code := runBinary(t, r.Dir, "", "store", "--config", settings, "--category", "Quirk", "The staging database restarts every night at 03:00.")
	if code != 0 || !strings.Contains(out, "category full") {
		t.Fatalf("store into a full category: exit %d\n%s%s", code, out, errOut)
	}
	l, b := provenanceLog(t, r.Dir)
	if len(l) != 1 || l[0].Evicted != "[withheld: the entry held a likely secret]" || strings.Contains(string(b), body) {
		t.Fatalf("provenance %+v: want the evicted key withheld\n%s", l, b)
	}
}

// provenanceLog is the provenance log of the repository at dir, read and
// as written.
func provenanceLog(t *testing.T, dir string) ([]memory.Provenance, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".memory", memory.ProvenanceLog))
	if err != nil {
		t.Fatalf("the provenance log: %v", err)
	}
	return memory.ParseProvenance(b), b
}
