package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// maxFixRounds bounds the fix-all loops, as core's golden test does.
const maxFixRounds = 10

// TestFixArchives applies the fix of every testdata/fixes archive through
// the binary and compares each file with the archive's want/<path> (no
// section: unchanged). A fix "CODE/TITLE" is the SARIF fix of that title on
// the first CODE result, its replacements applied by byte range, and the
// editor's code action of that title on the first CODE diagnostic offering
// it, applied as an editor applies it (its edit to the open buffers, then
// its command). "fix: all" is the editor's fix-all action on every file,
// round after round, and then `check --fix` on the disk. The surfaces share
// one workspace: SARIF only reads it, and the editor's fixes change its
// buffers, never the disk (checked).
func TestFixArchives(t *testing.T) {
	for _, file := range archiveFiles(t, "fixes") {
		fx := loadArchive(t, file)
		t.Run(fx.Name, func(t *testing.T) {
			t.Parallel()
			if fx.Fix == "" {
				t.Fatal(`archive comment has no "fix:" line`)
			}
			if ok, why := replayable(fx); !ok {
				t.Skip(why)
			}
			ws := newArchiveWorkspace(t, fx)
			code, title, _ := strings.Cut(fx.Fix, "/")
			if fx.Fix != "all" && sarifListsFix(title) {
				t.Run("sarif", func(t *testing.T) { applySARIFFix(t, ws, code, title) })
			}
			t.Run("lsp", func(t *testing.T) {
				if fx.Fix == "all" {
					lspFixAll(t, ws)
				} else {
					lspFix(t, ws, code, title)
				}
			})
			ws.requireUnchanged(t, "the editor's fixes")
			if fx.Fix == "all" {
				t.Run("check --fix", func(t *testing.T) {
					ws.check(t, "--fix")
					compareFiles(t, fx, ws.readFiles(t))
				})
			}
		})
	}
}

// requireUnchanged stops the test if a file on disk no longer holds the
// archive's bytes after what.
func (ws *archiveWorkspace) requireUnchanged(t *testing.T, what string) {
	t.Helper()
	disk := ws.readFiles(t)
	for _, f := range ws.fx.Files {
		if !bytes.Equal(disk[f.Path], f.Data) {
			t.Fatalf("%s changed %s on disk:\n%s", what, f.Path, fixture.Escape(disk[f.Path]))
		}
	}
}

func lspFix(t *testing.T, ws *archiveWorkspace, code, title string) {
	s := startLSP(t, ws)
	for _, f := range ws.fx.Files {
		if s.uris[f.Path] == "" {
			continue
		}
		for _, d := range s.diagnostics(f.Path).Diagnostics {
			if d.Code != code {
				continue
			}
			actions := s.quickFixes(t, f.Path, d)
			if i := slices.IndexFunc(actions, func(a lspAction) bool { return a.Title == title }); i >= 0 {
				s.apply(t, actions[i])
				compareFiles(t, ws.fx, s.texts(t))
				return
			}
		}
	}
	t.Fatalf("no %s diagnostic offers the code action %q", code, title)
}

func lspFixAll(t *testing.T, ws *archiveWorkspace) {
	s := startLSP(t, ws)
	for round := 0; ; round++ {
		if round == maxFixRounds {
			t.Fatalf("fix-all did not settle after %d rounds", maxFixRounds)
		}
		applied := false
		for _, f := range ws.fx.Files {
			if s.uris[f.Path] == "" {
				continue
			}
			for _, a := range s.codeActions(t, f.Path, lsptest.R(0, 0, 0, 0), nil, "source.fixAll") {
				s.apply(t, a)
				applied = true
			}
		}
		if !applied {
			break
		}
	}
	compareFiles(t, ws.fx, s.texts(t))
}

func applySARIFFix(t *testing.T, ws *archiveWorkspace, code, title string) {
	files := ws.readFiles(t)
	for _, r := range ws.sarif(t).Runs[0].Results {
		if r.RuleID != code {
			continue
		}
		for _, x := range r.Fixes {
			if x.Description.Text != title {
				continue
			}
			for _, ch := range x.ArtifactChanges {
				p := ch.ArtifactLocation.path(t)
				src, ok := files[p]
				if !ok {
					t.Fatalf("the fix changes %s, which the archive does not hold", p)
				}
				// Replacements come in file order, each against the file as
				// it is: apply them from the last.
				for i := len(ch.Replacements) - 1; i >= 0; i-- {
					rp := ch.Replacements[i]
					off, n := rp.DeletedRegion.ByteOffset, rp.DeletedRegion.ByteLength
					if off == nil || n == nil || *off < 0 || *n < 0 || *off+*n > len(src) {
						t.Fatalf("%s: replacement %d has no byte range inside the file's %d bytes", p, i, len(src))
					}
					// The line and column region must name the same bytes,
					// for consumers that read it rather than the byte range.
					start, err1 := lsptest.Offset(string(src), lsptest.Position{Line: rp.DeletedRegion.StartLine - 1, Character: rp.DeletedRegion.StartColumn - 1})
					end, err2 := lsptest.Offset(string(src), lsptest.Position{Line: rp.DeletedRegion.EndLine - 1, Character: rp.DeletedRegion.EndColumn - 1})
					if err1 != nil || err2 != nil || start != *off || end != *off+*n {
						r := rp.DeletedRegion
						t.Errorf("%s: replacement %d: region %d:%d-%d:%d is bytes %d..%d (%v, %v), its byte range %d..%d",
							p, i, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn, start, end, err1, err2, *off, *off+*n)
					}
					inserted := ""
					if rp.InsertedContent != nil {
						inserted = rp.InsertedContent.Text
					}
					src = append(append(slices.Clone(src[:*off]), inserted...), src[*off+*n:]...)
				}
				files[p] = src
			}
			compareFiles(t, ws.fx, files)
			return
		}
	}
	t.Fatalf("no %s result has the fix %q", code, title)
}
