package similar

import (
	"strings"
	"unicode/utf8"
)

// Analyze tokenises s once.
func Analyze(s string) *Text {
	if t, ok := analyzeASCII(s); ok {
		return t
	}
	return analyzeGeneral(s)
}

// analyzeGeneral is Analyze for any text; analyzeASCII must agree with it.
func analyzeGeneral(s string) *Text {
	tk := tokenize(s, true)
	t := &Text{
		Raw:     s,
		Norm:    Normalize(s),
		Numbers: tk.numbers,
		Sign:    1,
	}
	if (tk.flips+comparatorFlips(s))%2 == 1 {
		t.Sign = -1
	}
	if len(t.Numbers) > 1 {
		t.Numbers = sortedSet(t.Numbers)
	}
	t.Keys, t.Core = tk.keys, tk.core
	t.hasOrder = tk.orders || tk.flips > 0 && hasCommaMark(s)
	for _, w := range tk.words {
		if w.named {
			t.Named = append(t.Named, tk.clean[w.start:w.end])
		}
	}
	if len(t.Named) > 1 {
		t.Named = sortedSet(t.Named)
	}
	t.setKeys(s)
	return t
}

// withoutVocabulary drops the polarity and ordering words from a normalised
// text (and cuts the CJK ones out of CJK words).
func withoutVocabulary(norm string) string {
	var kept []string
	for _, w := range strings.Split(norm, " ") {
		if words[w]&(fFlip|fPartner|fConnective) != 0 {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(w); r >= 0x1100 {
			w = cutCJKVocabulary(w)
		}
		if w != "" {
			kept = append(kept, w)
		}
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
