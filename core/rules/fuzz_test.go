package rules

import (
	"bytes"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// FuzzCheck feeds arbitrary bytes to every rule, as an editor buffer or an
// agent's write can (the reference rules with a repository to judge against): Check must not panic, every finding's span and every
// fix's edits must lie inside their files and apply cleanly, every offset
// they hold must be a position (not inside a character or a CRLF: the
// editor, SARIF and the text output all speak in lines and columns), and the
// safe fixes must settle (FixAll reaches a state with nothing left to fix).
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"# Decisions\n\n- [a] Always run seeds in CI\n- [a] Never run seeds in CI\n* x\n-   \n",
		"\ufeff- [x]y\r\n- [] z\r- [ ] task\n  - nested\n- Use Postgres\n- use postgres!\n",
		"- AKIAIOSFODNN7EXAMPLQ is the key\n```\ncode\n```\nprose line\n",
		"- [My Slug] 发布前更新日志。再来一句。\n- 😀😀 emoji\n",
		"- Auth is in `./src/auth/session.ts:42`; run `cd web && make e2e` on Node 18.\n- `docs/adr/` and src/gone/x.ts\n",
	} {
		f.Add([]byte(s), []byte("# Notes\n- [a] x\n"))
	}
	cfg := config.Default()
	cfg.Limits[0], cfg.Limits[3] = 2, 2 // let over-limit fire on small inputs
	// a repository with moves, manifests and pins, for the reference rules
	repo := testRepo()
	check := func(files []File) []Finding { return CheckWithRepo(files, cfg, repo) }
	f.Fuzz(func(t *testing.T, decisions, other []byte) {
		files := []File{newFile(".memory/decisions.md", decisions), newFile(".memory/instructions.md", other), newFile(".memory/notes.md", other)}
		ixs := make([]*text.Index, len(files))
		for i, f := range files {
			ixs[i] = text.NewIndex(f.Doc.Src)
		}
		isPosition := func(what string, file int, offs ...int) {
			t.Helper()
			for _, off := range offs {
				if _, err := ixs[file].Position(off); err != nil {
					t.Fatalf("%s in %s: %v", what, files[file].Path, err)
				}
			}
		}
		for _, fd := range check(files) {
			src := files[fd.File].Doc.Src
			if fd.Span.Start < 0 || fd.Span.End < fd.Span.Start || fd.Span.End > len(src) {
				t.Fatalf("%s: span %v outside %d bytes", fd.Code, fd.Span, len(src))
			}
			isPosition(fd.Code+" span", fd.File, fd.Span.Start, fd.Span.End)
			for _, r := range fd.Related {
				isPosition(fd.Code+" related span", r.File, r.Span.Start, r.Span.End)
			}
			for _, fx := range fd.Fixes {
				by := map[int][]text.Edit{}
				for _, e := range fd.EditsOf(&fx, files) {
					by[e.File] = append(by[e.File], e.Edit)
					isPosition(fd.Code+" / "+fx.Title+" edit", e.File, e.Edit.Start, e.Edit.End)
				}
				for fi, es := range by {
					if _, err := text.Apply(files[fi].Doc.Src, es); err != nil {
						t.Fatalf("%s / %s: %v", fd.Code, fx.Title, err)
					}
				}
			}
		}
		for pass := 0; ; pass++ {
			edits := FixAll(files, check(files))
			if len(edits) == 0 {
				break
			}
			if pass == 20 {
				t.Fatalf("safe fixes did not settle after 20 passes")
			}
			for fi, es := range edits {
				out, err := text.Apply(files[fi].Doc.Src, es)
				if err != nil {
					t.Fatalf("FixAll: %v", err)
				}
				if bytes.Equal(out, files[fi].Doc.Src) {
					t.Fatalf("FixAll proposed edits that change nothing in %s", files[fi].Name)
				}
				files[fi].Doc = memfile.Parse(out)
			}
		}
	})
}
