package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A password its line gives for tests or a local setup, through the binary
// in a git repository, as agents and CI run it: the store holds it for a
// person (review flagged, the default) and refuses it with review off;
// check shows it as information and exits 0. A credential for a system
// others reach is refused and fails check (issue 27's files v15).
func TestThrowawayPasswordThroughBinary(t *testing.T) {
	root := newGitRoot(t)
	if _, errs, code := runBinary(t, root, "", "init"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errs)
	}
	decisions := filepath.Join(root, ".memory", "decisions.md")
	before, err := os.ReadFile(decisions)
	if err != nil {
		t.Fatal(err)
	}
	const local = "Run `php artisan db:seed`; the seeded user is test@test.com with password Qz7rT2p!xW."
	const live = "The staging admin password is Qz7rT2p!xW."

	out, errs, code := runBinary(t, root, "", "store", "--category", "Decision", local)
	if code != 0 || !strings.Contains(out, "Held for review, not stored") || !strings.Contains(out, "a password for tests or a local setup") {
		t.Fatalf("store of a local password: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, _, _ := runBinary(t, root, "", "review"); !strings.Contains(out, local) {
		t.Errorf("review does not list the held write:\n%s", out)
	}
	off := filepath.Join(t.TempDir(), "off.json")
	if err := os.WriteFile(off, []byte(`{"review": "off"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runBinary(t, root, "", "store", "--config", off, "--category", "Decision", local); code != 1 || !strings.Contains(errs, "for tests or a local setup") {
		t.Errorf("store with review off: exit %d, stderr %q; want it refused", code, errs)
	}
	if _, errs, code := runBinary(t, root, "", "store", "--category", "Decision", live); code != 1 || !strings.Contains(errs, "contains a password;") {
		t.Errorf("store of a staging password: exit %d, stderr %q; want it refused", code, errs)
	}
	if got, _ := os.ReadFile(decisions); string(got) != string(before) {
		t.Fatalf("a held or refused store changed decisions.md:\n%s", got)
	}

	if err := os.WriteFile(decisions, append(before, []byte("- "+local+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runBinary(t, root, "", "check")
	if code != 0 || !strings.Contains(out, "info: a password for tests or a local setup (password)") {
		t.Errorf("check of a local password: exit %d, stdout %q, stderr %q; want information, exit 0", code, out, errs)
	}
	if err := os.WriteFile(decisions, append(before, []byte("- "+live+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runBinary(t, root, "", "check"); code != 1 || !strings.Contains(out, "error: likely credential (password)") {
		t.Errorf("check of a staging password: exit %d, stdout %q; want an error, exit 1", code, out)
	}
}
