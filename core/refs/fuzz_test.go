package refs

import (
	"testing"
	"unicode/utf8"
)

// FuzzExtract holds Extract to its promises on any input: no panic; every
// span inside the text, non-empty and on rune boundaries; the value span
// inside the reference; references in order and never overlapping; and the
// values read from the text, not made up; and parsePath's shortcut for bare
// words reads every token as the full reading does.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"Auth lives in `src/auth/session.ts:42`; run `cd web && npm run build` on Node 18 or newer.",
		"Branch from `main`: `feat/`, `fix/`, `docs/`",
		"`make -C api -j 4 V=1 lint test` and `pnpm --dir web test`",
		"回写三份文档：ET-项目待办事项.md（唯一待办）、docs/interface-contract.md",
		"https://example.com/a/b.md ~/x.md /abs/y.md `*.tmp` <name> {id} ... …",
		"``make `x` `` ``` src/a.go ``` `unclosed src/b.ts",
		"react@^18.2.0 postgres:16-alpine go1.22.3 python3.11 Python >= 3.10,",
		"Run `npm test` in `web/`. Run `pnpm run e2e` inside apps/site/ first.",
		"\xff\xfe`\x00src/\xffa.ts` Node \xc3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tk := range tokens(text, 0, len(text)) {
			for _, mode := range []pathMode{inProse, inCode} {
				if tok := text[tk.start:tk.end]; !sameReading(tok, mode) {
					t.Fatalf("%q (mode %d) reads differently with the bare-word shortcut", tok, mode)
				}
			}
		}
		rs := Extract(text)
		// Boundaries of the decoder's walk: an invalid byte is a rune of its own.
		boundary := make([]bool, len(text)+1)
		for i := 0; i < len(text); {
			boundary[i] = true
			_, w := utf8.DecodeRuneInString(text[i:])
			i += w
		}
		boundary[len(text)] = true
		end := 0
		for i, r := range rs {
			if r.Start < end || r.Start >= r.End || r.End > len(text) {
				t.Fatalf("ref %d span [%d,%d) after %d in %d bytes: %+v", i, r.Start, r.End, end, len(text), r)
			}
			if r.ValueStart < r.Start || r.ValueEnd > r.End || r.ValueStart >= r.ValueEnd {
				t.Fatalf("ref %d value [%d,%d) outside [%d,%d)", i, r.ValueStart, r.ValueEnd, r.Start, r.End)
			}
			for _, at := range []int{r.Start, r.End, r.ValueStart, r.ValueEnd} {
				if !boundary[at] {
					t.Fatalf("ref %d cuts a rune at %d", i, at)
				}
			}
			end = r.End
			switch r.Kind {
			case Path:
				if r.Path == "" || r.Path[0] == '/' {
					t.Fatalf("ref %d: path %q", i, r.Path)
				}
			case Command:
				if r.Target == "" || r.Tool == 0 || text[r.ValueStart:r.ValueEnd] != r.Target {
					t.Fatalf("ref %d: target %q, value %q", i, r.Target, text[r.ValueStart:r.ValueEnd])
				}
			case Version:
				if r.Subject == "" || text[r.ValueStart:r.ValueEnd] != r.Version {
					t.Fatalf("ref %d: version %q of %q, value %q", i, r.Version, r.Subject, text[r.ValueStart:r.ValueEnd])
				}
			default:
				t.Fatalf("ref %d: kind %v", i, r.Kind)
			}
		}
	})
}
