package similar

import (
	"strings"
	"testing"
	"unicode"
)

// wordsAndSigns is what samePunctuatedAside compares, written out: the
// definition its side-by-side reading is held to.
func wordsAndSigns(s string) string {
	var out strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("<>≤≥=!≠", r) {
			if space && out.Len() > 0 {
				out.WriteByte(' ')
			}
			space = false
			out.WriteRune(unicode.ToLower(r))
		} else {
			space = true
		}
	}
	return out.String()
}

func FuzzSamePunctuatedAside(f *testing.F) {
	for _, p := range [][2]string{
		{"Wrap at eighty columns, not one hundred", "Wrap at eighty columns not one hundred"},
		{"RFC-7807", "RFC 7807"}, {"snake_case", "snake case"}, {"< 1000", "> 1000"},
		{"Use X.", "use x"}, {"", "..."}, {"...", "!!"}, {"a", "a"}, {"ÉTÉ", "été"}, {"\xff", "\xfe"},
		{"Не включайте", "не  включайте!"}, {"发布前更新", "发布前 更新"},
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
