package memory

import (
	"strings"
	"unicode"
)

// WithArticle puts "a" or "an" before a noun phrase as it is said aloud:
// "an AWS access key id", "an npm token", "a GitHub token", "a JSON Web
// Token". An initialism (all capitals, or a short word without vowels) is
// read letter by letter, so its first letter's name decides.
func WithArticle(phrase string) string {
	word, _, _ := strings.Cut(phrase, " ")
	if word == "" {
		return phrase
	}
	first := unicode.ToLower([]rune(word)[0])
	an := strings.ContainsRune("aeiou", first)
	if isInitialism(word) {
		an = strings.ContainsRune("aefhilmnorsx", first)
	}
	if an {
		return "an " + phrase
	}
	return "a " + phrase
}

func isInitialism(w string) bool {
	if len(w) > 5 {
		return false
	}
	upper, vowel := true, false
	for _, r := range w {
		if !unicode.IsUpper(r) {
			upper = false
		}
		if strings.ContainsRune("aeiouAEIOU", r) {
			vowel = true
		}
	}
	return upper || !vowel
}
