package similar

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/memory-lsp/memory-lsp/internal/hacklm"
)

func TestKeywords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// ASCII: HackLM's exact result
		{"don't", []string{"dont"}},
		{"Don’t use-any", []string{"dont", "use-any"}},
		{"x86_64", []string{"x8664"}},
		{"The API is used by all of them", []string{"api"}},
		{"📦 Vendored crates live in third_party", []string{"crates", "live", "thirdparty", "vendored"}},
		{"photos — always.", []string{"photos"}},
		// Unicode letters are kept, accents are not folded
		{"Café naïve ÉCOLE", []string{"café", "naïve", "école"}},
		{"Résumé", []string{"résumé"}},
		{"Включайте сжатие логов", []string{"включайте", "логов", "сжатие"}},
		{"Не на да", nil}, // short words are dropped by rune count, not bytes
		{"live\u00adness zero\u200bwidth", []string{"liveness", "zerowidth"}},
		// CJK: bigrams, a lone character stands for itself, no length filter
		{"发布前更新", []string{"前更", "发布", "布前", "更新"}},
		{"中", []string{"中"}},
		{"發布、更新", []string{"更新", "發布"}},
		{"JSON形式abc", []string{"abc", "json", "形式"}},
		{"Nginx の設定は", []string{"nginx", "の設", "定は", "設定"}},
		{"한국어 문장", []string{"국어", "문장", "한국"}},
	}
	for _, tt := range tests {
		if got := Keywords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Keywords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Use snake_case  for\tPython!  ", "use snakecase for python"},
		{"auto-scaling", "autoscaling"},
		{"Java 1.8", "java 1.8"},
		{"Java 18", "java 18"},
		{"1,000 rows. End.", "1,000 rows end"},
		{"v1. 2", "v1 2"},
		{"Live\u00adness", "liveness"},
		{"📦 Vendored", "vendored"},
		{"发布 前", "发布 前"},
		{"Résumé", "résumé"},
		{"!!!", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// asciiAlphabet leans on the characters the two tokenisers treat specially.
const asciiAlphabet = "abcdeXYZ019 -_'.,!\t\"/<>()"

func randomASCII(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(40) {
		if rng.IntN(8) == 0 {
			b.WriteString([]string{"the ", "always ", "dont ", "use ", "NEVER ", "1.8 ", "x86_64 ", "📦", "—", "\u00a0"}[rng.IntN(10)])
			continue
		}
		b.WriteByte(asciiAlphabet[rng.IntN(len(asciiAlphabet))])
	}
	return b.String()
}

// TestASCIIParity: on text whose letters are ASCII, Keywords is HackLM's, and
// Normalize is HackLM's unless a dot or comma sits between two digits.
func TestASCIIParity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		s := randomASCII(rng)
		if got, want := Keywords(s), hacklm.Keywords(s); !slices.Equal(got, want) {
			t.Fatalf("Keywords(%q) = %q, HackLM %q", s, got, want)
		}
		if got, want := Normalize(s), hacklm.Normalize(s); got != want && !hasDigitPunctDigit(s) {
			t.Fatalf("Normalize(%q) = %q, HackLM %q", s, got, want)
		}
	}
}

func hasDigitPunctDigit(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == ',') && isDigitByte(s[i-1]) && isDigitByte(s[i+1]) {
			return true
		}
	}
	return false
}

func FuzzASCIIParity(f *testing.F) {
	for _, s := range []string{"don't use-any", "x86_64 the API", "Java 1.8", "📦 a—b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range s {
			if r >= 0x80 && (isCJK(r) || isWordRuneForTest(r)) {
				return
			}
		}
		if got, want := Keywords(s), hacklm.Keywords(s); !slices.Equal(got, want) {
			t.Fatalf("Keywords(%q) = %q, HackLM %q", s, got, want)
		}
	})
}

func isWordRuneForTest(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}
