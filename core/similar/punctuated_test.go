package similar

import (
	"strings"
	"testing"
	"unicode"
)

// wordsAndSigns is what samePunctuatedAside compares, written out: the
// definition its side-by-side reading is held to. Separators are dropped,
// but for one space between two digits ("1.8" is not "18"); "!" is a sign
// only before "=".
func wordsAndSigns(s string) string {
	rs := []rune(s)
	var out []rune
	sep := false
	for i, r := range rs {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("<>≤≥=≠", r) ||
			r == '!' && i+1 < len(rs) && rs[i+1] == '=') {
			sep = true
			continue
		}
		if sep && len(out) > 0 && unicode.IsDigit(out[len(out)-1]) && unicode.IsDigit(r) {
			out = append(out, ' ')
		}
		sep = false
		out = append(out, unicode.ToLower(r))
	}
	return string(out)
}

func FuzzSamePunctuatedAside(f *testing.F) {
	for _, p := range [][2]string{
		{"Wrap at eighty columns, not one hundred", "Wrap at eighty columns not one hundred"},
		{"RFC-7807", "RFC 7807"}, {"snake_case", "snake case"}, {"< 1000", "> 1000"},
		{"Use X.", "use x"}, {"", "..."}, {"...", "!!"}, {"a", "a"}, {"ÉTÉ", "été"}, {"\xff", "\xfe"},
		{"Не включайте", "не  включайте!"}, {"发布前更新", "发布前 更新"}, {"Java 1.8", "Java 18"},
		{"hard-code", "hardcode"}, {"a != b", "a ! = b"}, {"x!=y", "x!y"}, {"1 2", "12"}, {"٣.٤", "٣٤"},
	} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		want := a != b && wordsAndSigns(a) == wordsAndSigns(b) && wordsAndSigns(a) != ""
		if got := samePunctuatedAside(a, b); got != want {
			t.Errorf("samePunctuatedAside(%q, %q) = %v, want %v (%q / %q)", a, b, got, want, wordsAndSigns(a), wordsAndSigns(b))
		}
	})
}
