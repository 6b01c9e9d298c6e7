package similar

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/text"
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

// slugCand is a keyword that may go into a slug: its kebab-case form is
// buf[start:end] of the scan's buffer. Offsets rather than a slice keep the
// candidates free of pointers, so that the buffer may live on the stack.
type slugCand struct {
	start, end int32
	pos        int
	vocab      bool
}

func (c slugCand) len() int { return int(c.end - c.start) }

func slugBase(content string) string {
	// room for a typical entry, so that the buffers are made once
	sl := Slugger{q: quickScan{buf: make([]byte, 0, 192), ends: make([]int, 0, 24)}, cands: make([]slugCand, 0, 16)}
	return sl.Base(content)
}

// Slugger derives base slugs, keeping its buffers from one call to the
// next: the missing-slug rule derives one for every slug-less entry of a
// workspace. The zero value is ready to use; a Slugger is not for concurrent
// use.
type Slugger struct {
	q     quickScan
	cands []slugCand
}

// Base is the slug GenerateSlug derives from content before it looks at the
// slugs already taken: a function of the content alone, so a caller that
// checks the same entries again and again may keep it.
func (sl *Slugger) Base(content string) string {
	q := &sl.q
	all := slugCands(sl.cands[:0], content, q)
	sl.cands = all
	buf := q.buf
	// The first three of a stable sort by (polarity word last, longest
	// first), picked one by one; then in the order of the text (pos is the
	// index in all).
	var pickArr [3]int
	pick := pickArr[:0]
	for len(pick) < min(3, len(all)) {
		best := -1
		for k := range all {
			if slices.Contains(pick, k) {
				continue
			}
			if best < 0 || strongerSlugCand(all[k], all[best]) {
				best = k
			}
		}
		pick = append(pick, best)
	}
	slices.Sort(pick)
	var candsArr [3]slugCand
	cands := candsArr[:0]
	for _, k := range pick {
		cands = append(cands, all[k])
	}
	var slugArr [maxSlug + 1]byte
	slug := slugArr[:0]
	for _, c := range cands {
		kebab := buf[c.start:c.end]
		n := len(slug) + len(kebab)
		if len(slug) > 0 {
			n++
		}
		if n > maxSlug {
			if len(slug) == 0 {
				return strings.TrimRight(string(kebab[:maxSlug]), "-")
			}
			break
		}
		if len(slug) > 0 {
			slug = append(slug, '-')
		}
		slug = append(slug, kebab...)
	}
	if len(slug) == 0 {
		h := fnv.New32a()
		h.Write([]byte(content))
		return fmt.Sprintf("entry-%08x", h.Sum32())[:len("entry-")+6]
	}
	return string(slug)
}

// strongerSlugCand: a goes into a slug before b (on a tie, the earlier goes).
func strongerSlugCand(a, b slugCand) bool {
	if a.vocab != b.vocab {
		return !a.vocab
	}
	return a.len() > b.len()
}

// slugCands lists the distinct ASCII keywords of content in text order, as
// kebab-case, in q.buf. For ASCII text the keywords come from the one-pass
// scan, and a keyword that is already kebab-case (nearly all) is used where
// the scan left it.
func slugCands(dst []slugCand, content string, q *quickScan) []slugCand {
	if _, _, _, ok := q.scan(content, nil, nil, nil); ok {
		// ASCII: the quick scan yields exactly HackLM's keywords, distinct,
		// in text order, without analysing the whole text.
		prev := 0
		for _, end := range q.ends {
			dst = appendSlugCand(dst, &q.buf, prev, end, nil)
			prev = end
		}
		return dst
	}
	var seen map[string]bool // only for long texts; short ones scan dst
	for _, k := range tokenize(content, false).keys {
		if text.IsASCII(k) {
			start := len(q.buf)
			q.buf = append(q.buf, k...)
			dst = appendSlugCand(dst, &q.buf, start, len(q.buf), &seen)
		}
	}
	return dst
}

// secretLooking reports whether a kebab-case keyword holds a part that
// may be a credential (issue 27: a slug is never built from one, even
// from AWS's documented AKIAIOSFODNN7EXAMPLE): letters and digits
// alternating three times or more in eight characters or more
// ("hunter2secret42", "xk9mq2vplz"), or twice in sixteen or more
// ("akiaiosfodnn7example"). A word that carries a number once or twice
// stays ("utf8mb4", "sha256sum", "python311", "ubuntu2204",
// "rfc3339nano", "k8s"). The secret rule, which reads whole entries,
// refuses what is a credential; this only keeps one out of a slug.
func secretLooking(kb []byte) bool {
	for part := range bytes.SplitSeq(kb, []byte("-")) {
		turns := 0
		for i := 1; i < len(part); i++ {
			if isDigitByte(part[i]) != isDigitByte(part[i-1]) {
				turns++
			}
		}
		if len(part) >= 8 && turns >= 3 || len(part) >= 16 && turns >= 2 {
			return true
		}
	}
	return false
}

// appendSlugCand adds keyword (*buf)[start:end], as kebab-case, unless it is
// already there; a kebab form that differs is appended to *buf. seen, when
// not nil, switches the duplicate test to a map for long texts. Nothing is
// copied for a keyword that is already kebab-case, which nearly all are: the
// missing-slug rule generates a slug for every slug-less entry.
func appendSlugCand(dst []slugCand, buf *[]byte, start, end int, seen *map[string]bool) []slugCand {
	k := (*buf)[start:end]
	vocab := lookupWord(k)&(fFlip|fPartner|fConnective) != 0
	if !IsKebab(string(k)) {
		kb := Kebab(string(k))
		if len(kb) == 0 {
			return dst
		}
		start = len(*buf)
		*buf = append(*buf, kb...)
		end = len(*buf)
	}
	kb := (*buf)[start:end]
	if secretLooking(kb) {
		return dst // a slug is shown and committed wherever the entry is
	}
	switch {
	case seen != nil && *seen != nil:
		if (*seen)[string(kb)] {
			return dst
		}
		(*seen)[string(kb)] = true
	case slices.ContainsFunc(dst, func(c slugCand) bool { return string((*buf)[c.start:c.end]) == string(kb) }):
		return dst
	case seen != nil && len(dst) >= 32:
		*seen = map[string]bool{string(kb): true}
		for _, c := range dst {
			(*seen)[string((*buf)[c.start:c.end])] = true
		}
	}
	return append(dst, slugCand{int32(start), int32(end), len(dst), vocab})
}
