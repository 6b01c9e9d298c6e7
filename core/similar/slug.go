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

// slugCand is a keyword that may go into a slug.
type slugCand struct {
	kebab string
	pos   int
	vocab bool
}

func slugBase(content string) string {
	var candArr [16]slugCand
	cands := slugCands(candArr[:0], content)
	slices.SortStableFunc(cands, func(a, b slugCand) int {
		if a.vocab != b.vocab {
			if a.vocab {
				return 1
			}
			return -1
		}
		return len(b.kebab) - len(a.kebab)
	})
	cands = cands[:min(3, len(cands))]
	slices.SortFunc(cands, func(a, b slugCand) int { return a.pos - b.pos })
	var slugArr [maxSlug + 1]byte
	slug := slugArr[:0]
	for _, c := range cands {
		n := len(slug) + len(c.kebab)
		if len(slug) > 0 {
			n++
		}
		if n > maxSlug {
			if len(slug) == 0 {
				return strings.TrimRight(c.kebab[:maxSlug], "-")
			}
			break
		}
		if len(slug) > 0 {
			slug = append(slug, '-')
		}
		slug = append(slug, c.kebab...)
	}
	if len(slug) == 0 {
		h := fnv.New32a()
		h.Write([]byte(content))
		return fmt.Sprintf("entry-%08x", h.Sum32())[:len("entry-")+6]
	}
	return string(slug)
}

// slugCands lists the distinct ASCII keywords of content in text order, as
// kebab-case. For ASCII text the keywords come from the one-pass scan, and a
// keyword that is already kebab-case (nearly all) is used as it is.
func slugCands(dst []slugCand, content string) []slugCand {
	var keys []string
	p := asciiPool.Get().(*asciiPass)
	defer p.release()
	if _, ok := p.scan(content); ok {
		clean := string(p.buf)
		keys = make([]string, len(p.keys))
		for i, k := range p.keys {
			keys[i] = clean[k.start:k.end]
		}
	} else {
		keys = tokenize(content, false).keys
	}
	var seen map[string]bool // only for long texts; short ones scan dst
	for _, k := range keys {
		if !isASCII(k) {
			continue
		}
		kb := k
		if !IsKebab(k) {
			if kb = Kebab(k); kb == "" {
				continue
			}
		}
		if seen != nil {
			if seen[kb] {
				continue
			}
			seen[kb] = true
		} else if slices.ContainsFunc(dst, func(c slugCand) bool { return c.kebab == kb }) {
			continue
		} else if len(dst) >= 32 {
			seen = map[string]bool{kb: true}
			for _, c := range dst {
				seen[c.kebab] = true
			}
		}
		vocab := words[k]&(fFlip|fPartner|fConnective) != 0
		dst = append(dst, slugCand{kb, len(dst), vocab})
	}
	return dst
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
