package similar

import (
	"strings"
	"unicode/utf8"
)

// Analyze tokenises s once.
func Analyze(s string) *Text {
	tk := tokenize(s, true)
	t := &Text{Raw: s, Norm: Normalize(s), Sign: 1}
	if (tk.flips+comparatorFlips(s)+assignedNoes(s))%2 == 1 {
		t.Sign = -1
	}
	numbers := tk.numbers
	if len(numbers) > 1 {
		numbers = sortedSet(numbers)
	}
	t.hasOrder = tk.orders || tk.flips > 0 && hasOrderMark(s)
	var named []string
	for _, w := range tk.words {
		if w.named {
			named = append(named, tk.clean[w.start:w.end])
		}
	}
	if len(named) > 1 {
		named = sortedSet(named)
	}
	t.setLists(s, tk.keys, tk.core, numbers, named)
	return t
}

// withoutVocabulary drops the polarity and ordering words from a normalised
// text (and cuts the CJK ones out of CJK words).
func withoutVocabulary(norm string) string {
	var kept []string
	all := strings.Split(norm, " ")
	same := true // nothing cut: the result is norm, and shares its bytes
	v := vocab()
	for _, w := range all {
		if v.words[w]&(fFlip|fPartner|fConnective) != 0 {
			same = false
			continue
		}
		if r, _ := utf8.DecodeRuneInString(w); r >= 0x1100 {
			cut := cutCJKVocabulary(w)
			same = same && cut == w
			w = cut
		}
		if w != "" {
			kept = append(kept, w)
		} else {
			same = false
		}
	}
	if same {
		return norm
	}
	return strings.Join(kept, " ")
}

func cutCJKVocabulary(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); {
		if n, f, ok := cjkMatch([]byte(w[i:])); ok && f != 0 {
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(w[i:])
		b.WriteString(w[i : i+size])
		i += size
	}
	return b.String()
}
