package similar

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// maxSlug bounds a generated slug (before any "-2" suffix): long enough for
// three real words, short enough to keep the entry line readable.
const maxSlug = 40

// IsKebab reports whether s matches ^[a-z0-9]+(-[a-z0-9]+)*$.
func IsKebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-':
			if s[i-1] == '-' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Kebab converts an arbitrary slug to kebab-case ("My Slug_2" → "my-slug-2");
// "" when nothing usable is left.
func Kebab(s string) string {
	var b strings.Builder
	sep := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if sep && b.Len() > 0 {
				b.WriteByte('-')
			}
			sep = false
			b.WriteByte(c)
			continue
		}
		sep = true
	}
	return b.String()
}

// GenerateSlug derives a deterministic kebab-case slug from a content's
// strongest keywords; taken reports slugs already used in the file, and the
// result is never one of them.
//
// The strongest keywords are the longest (long words are the specific ones:
// "idempotent", "migrations"), ties going to the earlier, and polarity words
// ("keep", "dont") come after all others because they say nothing about the
// subject; the chosen words are written in the order of the text so the slug
// reads like it.
func GenerateSlug(content string, taken func(string) bool) string {
	base := slugBase(content)
	if taken == nil || !taken(base) {
		return base
	}
	for n := 2; ; n++ {
		if s := fmt.Sprintf("%s-%d", base, n); !taken(s) {
			return s
		}
	}
}

func slugBase(content string) string {
	type cand struct {
		kebab string
		pos   int
		vocab bool
	}
	var cands []cand
	seen := map[string]bool{}
	for _, k := range tokenize(content, false).keys {
		kb := Kebab(k)
		if !isASCII(k) || kb == "" || seen[kb] {
			continue
		}
		seen[kb] = true
		vocab := words[k]&(fFlip|fPartner|fConnective) != 0
		cands = append(cands, cand{kb, len(cands), vocab})
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.vocab != b.vocab {
			if a.vocab {
				return 1
			}
			return -1
		}
		return len(b.kebab) - len(a.kebab)
	})
	cands = cands[:min(3, len(cands))]
	slices.SortFunc(cands, func(a, b cand) int { return a.pos - b.pos })
	slug := ""
	for _, c := range cands {
		next := c.kebab
		if slug != "" {
			next = slug + "-" + c.kebab
		}
		if len(next) > maxSlug {
			if slug == "" {
				slug = strings.TrimRight(next[:maxSlug], "-")
			}
			break
		}
		slug = next
	}
	if slug == "" {
		h := fnv.New32a()
		h.Write([]byte(content))
		slug = fmt.Sprintf("entry-%08x", h.Sum32())[:len("entry-")+6]
	}
	return slug
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
