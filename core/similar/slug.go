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
	kebab []byte // into the scan's buffer, or its own copy
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
				return strings.TrimRight(string(c.kebab[:maxSlug]), "-")
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
	var q quickScan
	if _, _, _, ok := q.scan(content, nil, nil, nil); ok {
		// ASCII: the quick scan yields exactly HackLM's keywords, distinct,
		// in text order, without analysing the whole text.
		prev := 0
		for _, end := range q.ends {
			dst = appendSlugCand(dst, q.buf[prev:end], nil)
			prev = end
		}
		return dst
	}
	var seen map[string]bool // only for long texts; short ones scan dst
	for _, k := range tokenize(content, false).keys {
		if isASCII(k) {
			dst = appendSlugCand(dst, []byte(k), &seen)
		}
	}
	return dst
}

// appendSlugCand adds keyword k, as kebab-case, unless it is already there.
// seen, when not nil, switches the duplicate test to a map for long texts.
// Nothing is copied for a keyword that is already kebab-case, which nearly
// all are: the missing-slug rule generates a slug for every slug-less entry.
func appendSlugCand(dst []slugCand, k []byte, seen *map[string]bool) []slugCand {
	kb := k
	if !IsKebab(string(k)) {
		if kb = []byte(Kebab(string(k))); len(kb) == 0 {
			return dst
		}
	}
	switch {
	case seen != nil && *seen != nil:
		if (*seen)[string(kb)] {
			return dst
		}
		(*seen)[string(kb)] = true
	case slices.ContainsFunc(dst, func(c slugCand) bool { return string(c.kebab) == string(kb) }):
		return dst
	case seen != nil && len(dst) >= 32:
		*seen = map[string]bool{string(kb): true}
		for _, c := range dst {
			(*seen)[string(c.kebab)] = true
		}
	}
	vocab := lookupWord(k)&(fFlip|fPartner|fConnective) != 0
	return append(dst, slugCand{kb, len(dst), vocab})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
