package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// jsonTextProblem says what in raw JSON is not text, or "": a byte that is
// not part of a UTF-8 character, or an escape of half a UTF-16 surrogate
// pair without its other half. encoding/json turns both into U+FFFD without
// a word, so a store would keep a character the caller never sent; the
// check reads the bytes as they came. A U+FFFD sent as such (its UTF-8
// bytes or "\ufffd") is text and passes. raw need not be valid JSON: the
// scan reads only what is between quotes.
func jsonTextProblem(raw []byte) string {
	in := false
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case !in:
			in = c == '"'
			i++
		case c == '"':
			in = false
			i++
		case c == '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				r, ok := hex4(raw, i+2)
				switch {
				case ok && r >= 0xD800 && r <= 0xDBFF:
					if lo, ok := escapeAt(raw, i+6); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						i += 12
						continue
					}
					return fmt.Sprintf(`\u%04x is half of a UTF-16 surrogate pair, without its other half`, r)
				case ok && r >= 0xDC00 && r <= 0xDFFF:
					return fmt.Sprintf(`\u%04x is half of a UTF-16 surrogate pair, without its other half`, r)
				}
			}
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && n == 1 {
				return notCharacter(c)
			}
			i += n
		}
	}
	return ""
}

// escapeAt reads a \uXXXX escape at raw[i:].
func escapeAt(raw []byte, i int) (rune, bool) {
	if i+1 >= len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
		return 0, false
	}
	return hex4(raw, i+2)
}

// hex4 reads the four hexadecimal digits at raw[i:].
func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// textError names the top-level field of the JSON object raw whose value is
// not text, and why. raw is an object DecodeArgs has read.
func textError(raw []byte, problem string) *InputError {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err == nil {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break
			}
			if p := jsonTextProblem(v); p != "" {
				name, _ := key.(string)
				return &InputError{Field: name, Problem: name + " is not valid UTF-8: " + p}
			}
		}
	}
	// Only a field's name can hold it: the argument cannot be named.
	return &InputError{Field: "arguments", Problem: "an argument's name is not valid UTF-8: " + problem}
}

// notUTF8 says which byte of s, a string that is not valid UTF-8, is not.
func notUTF8(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return notCharacter(s[i])
		}
		i += n
	}
	return ""
}

func notCharacter(b byte) string {
	return fmt.Sprintf("byte 0x%02X is not part of any character", b)
}
