package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
)

// TestReversalClaimsThroughTheBinary: in a git repository, a negation said
// against a word that means one replaces the old entry with no reversal
// claimed (nothing in conflicts.log, no "reverses" in the reply), while a
// negation moved to the other sentence of the same words, which a skip used
// to drop, replaces the old entry and is logged as the reversal it is.
func TestReversalClaimsThroughTheBinary(t *testing.T) {
	cases := []struct {
		name, old, new string
		logged         bool
	}{
		{"negation in other words", "Use the `stable` toolchain, prevent using `nightly` toolchains.", "Use the stable toolchain; do not use nightly toolchains.", false},
		{"negation moved to the other sentence", "Build on Linux runners; never build on macOS runners.", "Never build on Linux runners; build on macOS runners.", true},
		{"Portuguese não", "Use o pnpm para instalar dependências.", "Não use o pnpm para instalar dependências.", true},
		// an aside that rejects code (real instruction files): detail,
		// unless the old entry used the rejected code
		{"code aside adds detail", "Always run `npm run fmt:fix` before commits.", "Always run `npm run fmt:fix` (not `npm run lint:fix`) before commits.", false},
		{"code aside rejects the old code", "Run `npm run lint:fix` before commits.", "Always run `npm run fmt:fix` (not `npm run lint:fix`) before commits.", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := gittest.New(t)
			r.Write(map[string]string{".memory/instructions.md": "# Instructions\n\n- Run gofmt.\n- " + c.old + "\n"})
			r.Commit("2026-01-01", "memory")
			out, errOut, code := runBinary(t, r.Dir, "", "store", "--category", "Instruction", c.new)
			if code != 0 {
				t.Fatalf("store: exit %d\n%s%s", code, out, errOut)
			}
			file, err := os.ReadFile(filepath.Join(r.Dir, ".memory", "instructions.md"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(file), c.old) || !strings.Contains(string(file), "- "+c.new+"\n") {
				t.Fatalf("instructions.md after the store:\n%s\nwant %q in place of %q", file, c.new, c.old)
			}
			_, logErr := os.Stat(filepath.Join(r.Dir, ".memory", "conflicts.log"))
			if logged := logErr == nil; logged != c.logged || strings.Contains(out, "reverses") != c.logged {
				t.Fatalf("conflicts.log written %v, reply %q; want a reversal claimed: %v", logged, out, c.logged)
			}
		})
	}
}
