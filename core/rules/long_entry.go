package rules

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkLongEntry flags entries over the configured length (HackLM's brevity
// score drops with length, so long entries are pruned first) and entries
// holding manySentences or more (dedup and pruning work on whole lines, so
// facts in one line live and die together).
func checkLongEntry(w *workspace) {
	// A message is made once for each length and sentence count it
	// states: a file of long entries has as many findings as entries, and
	// a copy of the message each held a large file's worth of bytes at the
	// language server's peak (issue 26).
	type about struct{ units, sentences int }
	messages := map[about]string{}
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for i := range d.Entries {
			e := &d.Entries[i]
			var a about
			if n := utf16Len(e.Content); n > w.cfg.LongEntry {
				a.units = n
			}
			if s := sentences(e.Content); s >= manySentences {
				a.sentences = s
			}
			if a == (about{}) {
				continue
			}
			msg, ok := messages[a]
			if !ok {
				var parts []string
				if a.units > 0 {
					parts = append(parts, fmt.Sprintf("is %d UTF-16 units long (limit %d)", a.units, w.cfg.LongEntry))
				}
				if a.sentences > 0 {
					parts = append(parts, fmt.Sprintf("holds %d sentences", a.sentences))
				}
				msg = "entry " + strings.Join(parts, " and ") + ": HackLM keeps short single facts longer and dedups them better"
				messages[a] = msg
			}
			w.report(Finding{File: fi, Span: entrySpan(e), Message: msg})
		}
	})
}

// manySentences is where an entry stops being a fact with its reason and
// context ("Use X. Y needs it. Z broke without it.") and becomes several
// facts: two and three sentences are how real teams write one (issue 28).
const manySentences = 4

// utf16Len is text.UTF16Len, counted without decoding for ASCII text: an
// ASCII byte is one UTF-16 unit.
func utf16Len(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return text.UTF16Len(s)
		}
	}
	return len(s)
}

// abbreviations end in a dot without ending a sentence (compared lower-case,
// without the final dot).
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true, "incl": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "no": true, "fig": true, "al": true,
	"eg": true, "ie": true, "resp": true, "esp": true,
}

// sentences counts the sentences of s: a sentence ends at ".", "!" or "?"
// followed by blanks and more text that does not start with a lower-case
// letter, or at "。", "！", "？" followed by more text. Dots inside numbers
// (1.8), paths (./a, a.md) and abbreviations (e.g., etc.) end nothing.
func sentences(s string) int {
	n := 1
	for i := 0; i < len(s); {
		// ASCII bytes other than . ! ? end nothing: pass them without
		// decoding (nearly every byte of an entry)
		if c := s[i]; c < utf8.RuneSelf && c != '.' && c != '!' && c != '?' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '。', '！', '？':
			if strings.TrimSpace(s[i:]) != "" {
				n++
			}
		case '.', '!', '?':
			if i >= len(s) || (s[i] != ' ' && s[i] != '\t') {
				continue
			}
			rest := strings.TrimLeft(s[i:], " \t")
			if rest == "" {
				continue
			}
			next, _ := utf8.DecodeRuneInString(rest)
			if unicode.IsLower(next) {
				continue
			}
			if r == '.' {
				before := s[:i-1]
				if strings.HasSuffix(before, ".") {
					continue // an ellipsis
				}
				word := before[strings.LastIndexAny(before, " \t(\"'")+1:]
				if utf8.RuneCountInString(word) <= 1 || abbreviations[strings.ToLower(word)] {
					continue
				}
			}
			n++
		}
	}
	return n
}
