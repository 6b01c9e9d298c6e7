package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// containsFoldByWindows is ContainsFold spelled plainly: some run of s's
// characters, as many as x has, is strings.EqualFold to x.
func containsFoldByWindows(s, x string) bool {
	n := utf8.RuneCountInString(x)
	for i := 0; i <= len(s); {
		j, k := i, 0
		for ; k < n && j < len(s); k++ {
			_, w := utf8.DecodeRuneInString(s[j:])
			j += w
		}
		if k == n && strings.EqualFold(s[i:j], x) {
			return true
		}
		if i == len(s) {
			break
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return false
}

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, x string
		want bool
	}{
		{"Успешно прошли", "успешн", true}, // a capital whose first byte differs from the small letter's
		{"УСПЕШНО", "успешн", true},
		{"успешно", "успешн", true},
		{"неуспех", "успешн", false},
		{"ΣΟΦΙΑ", "σοφια", true},
		{"ſuccess", "success", true}, // fewer bytes than x in the text
		{"\u212Aeep", "keep", true},  // the Kelvin sign folds to k
		{"Tests PASS", "pass", true},
		{"pa\xffss", "pass", false},
		{"", "a", false},
		{"abc", "", true},
		{"Prévalent", "prévalent", true},
		{"PRÉVALENT", "prévalent", true},
	} {
		if got := ContainsFold(c.s, c.x); got != c.want {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.s, c.x, got, c.want)
		}
		if got := containsFoldByWindows(c.s, c.x); got != c.want {
			t.Errorf("the plain reference says %v for (%q, %q); the table is wrong", got, c.s, c.x)
		}
	}
}

func FuzzContainsFold(f *testing.F) {
	f.Add("Успешно", "успешн")
	f.Add("ſuccess", "success")
	f.Add("\u212Aeep", "KEEP")
	f.Add("a\xffb", "\xffb")
	f.Fuzz(func(t *testing.T, s, x string) {
		if got, want := ContainsFold(s, x), containsFoldByWindows(s, x); got != want {
			t.Errorf("ContainsFold(%q, %q) = %v, the plain reading says %v", s, x, got, want)
		}
	})
}

// BenchmarkContainsFold: a hint gate's question of one line of Cyrillic
// text, the case that made the plain character-by-character search a
// fifth of a 10,000-entry check.
func BenchmarkContainsFold(b *testing.B) {
	line := strings.Repeat("Сборка и тесты прошли проверку на сервере перед коммитом ", 3)
	for b.Loop() {
		for _, x := range []string{"успешн", "важнее", "приоритетнее", "зелён", "порядке", "通过"} {
			ContainsFold(line, x)
		}
	}
}
