package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkBulletMarker flags `* x`, `+ x`, `-x`, `-<TAB>x` and `1. x` at column
// 0: the writer meant an entry, HackLM reads nothing.
func checkBulletMarker(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for li, ln := range d.Lines {
			if ln.Kind != memfile.KindBullet {
				continue
			}
			line := string(d.LineText(li))
			mark, n := bulletMarker(line)
			var msg string
			switch {
			case mark == "-" && n == 1:
				msg = `"-" is not followed by a space: HackLM ignores this line`
			case mark == "-" && strings.Contains(line[1:n], "\t"):
				msg = `"-" is followed by a tab, not a space: HackLM ignores this line`
			default:
				msg = `list marker "` + mark + `" is not "- ": HackLM ignores this line`
			}
			fd := Finding{File: fi, Span: d.Body(li), Message: msg}
			if line[:n] != "- " {
				fd.Fixes = []Fix{{Title: `Use a "- " bullet`, Edits: in(fi, text.Edit{Start: ln.Span.Start, End: ln.Span.Start + n, New: "- "})}}
			}
			w.report(fd)
		}
	})
}

// bulletMarker returns a line's list marker ("*", "1.", "-") and how many
// bytes the marker and the blanks after it take. A glued `-x` is ("-", 1).
func bulletMarker(t string) (string, int) {
	i := 0
	switch {
	case t == "":
		return "", 0
	case t[0] == '-' || t[0] == '*' || t[0] == '+':
		i = 1
	default:
		for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(t) || (t[i] != '.' && t[i] != ')') {
			return "", 0
		}
		i++
	}
	j := i
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	return t[:i], j
}
