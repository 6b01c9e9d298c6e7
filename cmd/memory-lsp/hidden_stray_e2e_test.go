package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One zero-width space pasted before a list item's text, through the
// binary in a git repository: check shows it and exits 0, a store with
// review off takes it; between two words it is still hidden text, an
// error, and refused (issue 27's files v17).
func TestStrayInvisibleCharacterThroughBinary(t *testing.T) {
	root := newGitRoot(t)
	file := writeMemory(t, root, "instructions.md", "# Instructions\n\n- \u200b项目使用 pnpm 管理依赖。\n")
	out, errs, code := runBinary(t, root, "", "check")
	if code != 0 || !strings.Contains(out, "info: invisible character \\u200b") {
		t.Errorf("check of a pasted zero-width space: exit %d, stdout %q, stderr %q; want information, exit 0", code, out, errs)
	}
	if err := os.WriteFile(file, []byte("# Instructions\n\n- Run the tests before\u200b pushing.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runBinary(t, root, "", "check"); code != 1 || !strings.Contains(out, "error: invisible character \\u200b") {
		t.Errorf("check of a zero-width space between words: exit %d, stdout %q; want an error", code, out)
	}

	off := filepath.Join(t.TempDir(), "off.json")
	if err := os.WriteFile(off, []byte(`{"review": "off"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runBinary(t, root, "", "store", "--config", off, "--category", "Quirk", "\u200b项目的构建需要 Go 1.23。"); code != 0 {
		t.Errorf("store of a pasted zero-width space: exit %d, stdout %q, stderr %q; want it stored", code, out, errs)
	}
	if _, errs, code := runBinary(t, root, "", "store", "--config", off, "--category", "Quirk", "Deploys need the\u200bVPN."); code != 1 || !strings.Contains(errs, "hidden text") {
		t.Errorf("store of a zero-width space inside the text: exit %d, stderr %q; want it refused", code, errs)
	}
}
