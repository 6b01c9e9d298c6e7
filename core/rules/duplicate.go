package rules

import (
	"fmt"
	"strings"
)

// checkDuplicate flags an entry whose normalised text equals an earlier
// entry's in the same file: HackLM would never have stored it.
func checkDuplicate(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.exact < 0 {
			continue
		}
		r, o := refs[j], refs[b.exact]
		e, oe := w.entry(r), w.entry(o)
		d := w.files[r.file].Doc
		w.report(Finding{File: r.file, Span: entrySpan(e),
			Message: fmt.Sprintf("duplicate of line %d: the same text once normalised", w.entryLineNo(o)),
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the earlier entry"}},
			Fixes:   []Fix{deleteLineFix("Delete the duplicate", sameWording(e.Content, oe.Content), r.file, d, e.LineIndex)}})
	}
}

// sameWording reports whether deleting an entry that says b, beside one
// that says a, loses nothing: the same words but for case, spacing and a
// sentence's final mark. The normalisation that makes two texts duplicates
// drops punctuation and case everywhere, so "Pass -v to go test" / "Pass
// --v to go test" and "`rm -rf build`" / "`rm -rf /build`" are duplicates
// too, but fix-all must not delete either (a red team, issue 27): their
// delete is offered, not safe. Code spans are compared byte for byte.
func sameWording(a, b string) bool {
	pa, pb := strings.Split(a, "`"), strings.Split(b, "`")
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		x, y := pa[i], pb[i]
		if i%2 == 1 && i < len(pa)-1 {
			if x != y {
				return false // a code span
			}
			continue
		}
		if i == len(pa)-1 {
			x, y = strings.TrimRight(x, ".!?。！？ "), strings.TrimRight(y, ".!?。！？ ")
		}
		if strings.Join(strings.Fields(strings.ToLower(x)), " ") != strings.Join(strings.Fields(strings.ToLower(y)), " ") {
			return false
		}
	}
	return true
}
