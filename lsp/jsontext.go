package lsp

import (
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// openParams is protocol.DidOpenTextDocumentParams with the text decoded
// once, into bytes. encoding/json decodes a string with escapes into a
// buffer and then copies that into the string, and a document wants bytes:
// three copies of the file beside the frame where one will do, at the
// server's peak when the file is large (issue 26).
type openParams struct {
	TextDocument openItem `json:"textDocument"`
}

type openItem struct {
	URI        protocol.DocumentUri `json:"uri"`
	LanguageID string               `json:"languageId"`
	Version    protocol.Integer     `json:"version"`
	Text       jsonText             `json:"text"`
}

// jsonText is a JSON string decoded to its UTF-8 bytes as encoding/json
// decodes it into a string: escapes resolved, and every invalid UTF-8 byte
// or unpaired UTF-16 surrogate replaced by U+FFFD.
type jsonText []byte

var errNotString = errors.New("not a JSON string")

func (t *jsonText) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = nil
		return nil
	}
	out, ok := unquoteJSON(b)
	if !ok {
		// not valid JSON string syntax: encoding/json tells what is wrong
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		return errNotString
	}
	*t = out
	return nil
}

// unquoteJSON decodes the JSON string literal b (quotes included) into a
// new slice of exactly its length; ok is false when b is not one.
func unquoteJSON(b []byte) (out []byte, ok bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return nil, false
	}
	body := b[1 : len(b)-1]
	n, ok := unquotedLen(body)
	if !ok {
		return nil, false
	}
	out = make([]byte, 0, n)
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			r, w := unescape(body[i:])
			out = utf8.AppendRune(out, r)
			i += w
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, w := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && w == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, body[i:i+w]...)
			}
			i += w
		}
	}
	return out, true
}

// unquotedLen is the length of the decoded body, or ok false when body
// holds a bare quote, a control character or a malformed escape.
func unquotedLen(body []byte) (n int, ok bool) {
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '"' || c < 0x20:
			return 0, false
		case c == '\\':
			if i+1 >= len(body) {
				return 0, false
			}
			switch body[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := hex4(body[i+2:]); !ok {
					return 0, false
				}
			default:
				return 0, false
			}
			r, w := unescape(body[i:])
			n += utf8.RuneLen(r)
			i += w
		case c < utf8.RuneSelf:
			n++
			i++
		default:
			r, w := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && w == 1 {
				n += utf8.RuneLen(utf8.RuneError)
			} else {
				n += w
			}
			i += w
		}
	}
	return n, true
}

// unescape decodes the well-formed escape at the start of b: the rune and
// the bytes it took. A \u escape of a high surrogate followed by a \u
// escape of a low one is one rune; an unpaired surrogate is U+FFFD.
func unescape(b []byte) (rune, int) {
	switch b[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, _ := hex4(b[2:])
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if r2, ok := hex4(b[8:]); ok {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return dec, 12
				}
			}
		}
		return utf8.RuneError, 6
	}
	return rune(b[1]), 2 // '"', '\\', '/'
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
