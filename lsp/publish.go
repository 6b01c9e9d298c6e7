package lsp

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// publishDiagnostics is the hottest output of the server: with HackLM's
// limit of 40 a 10,000-entry file has over 13,000 diagnostics, republished
// on every keystroke. Building protocol.Diagnostic values and encoding them
// with encoding/json's reflection took about a third of the server's time
// per keystroke, so the notification is written here directly, byte for
// byte what json.Marshal makes of the protocol values (diagnostic() and
// protocol.PublishDiagnosticsParams stay the reference: the tests compare
// the two on every finding the rules produce and on hostile strings).

// mostSevereLast orders the findings of one line from the least severe to
// the most severe, keeping the order of findings on different lines. An
// editor that shows one sign or one message per line shows the last one
// (Neovim 0.7 without severity_sort does), so a hint never hides a warning
// or an error on the same line.
func mostSevereLast(ix *text.Index, findings []rules.Finding, own []int32) {
	// own is in offset order already: only runs on one line are reordered.
	for start := 0; start < len(own); {
		line := ix.Line(findings[own[start]].Span.Start)
		end := start + 1
		for end < len(own) && ix.Line(findings[own[end]].Span.Start) == line {
			end++
		}
		if end-start > 1 {
			slices.SortStableFunc(own[start:end], func(a, b int32) int {
				return cmp.Compare(findings[b].Severity, findings[a].Severity)
			})
		}
		start = end
	}
}

// parallelEncodeMin is the number of diagnostics from which a file's are
// encoded in two halves side by side: one core encoding the 13,000 of a
// 10,000-entry file under HackLM's limits left the other waiting
// (BenchmarkEncodePublish10k).
const parallelEncodeMin = 2048

// publishParams is the JSON of the PublishDiagnosticsParams of file i of
// v, whose findings are those of findings at the indexes in own, in offset
// order (reordered in place for display, see mostSevereLast; a finding whose
// position does not exist in its file is left out and logged), in parts to
// be sent one after the other: b with the params appended, or, for parallelEncodeMin diagnostics
// or more, b with the first half of them and a buffer (sized for per bytes
// a diagnostic) with the rest, encoded at the same time.
func (s *Server) publishParams(b []byte, v *view, i int, findings []rules.Finding, own []int32, per int) [][]byte {
	b = appendPublishStart(b, v.uri(i), v.versions[i])
	mostSevereLast(v.ix(i), findings, own)
	if len(own) < parallelEncodeMin {
		b, _ = s.appendDiagnostics(b, v, findings, own)
		return [][]byte{append(b, "]}"...)}
	}
	half := len(own) / 2
	var rest []byte
	var restN int
	var panicked any
	done := make(chan struct{})
	go func() {
		defer close(done)
		// raised again below, where the handler's recovery sees it
		defer func() { panicked = recover() }()
		rest, restN = s.appendDiagnostics(make([]byte, 0, 1+(len(own)-half)*per), v, findings, own[half:])
	}()
	b, n := s.appendDiagnostics(b, v, findings, own[:half])
	<-done
	if panicked != nil {
		panic(panicked)
	}
	if n > 0 && restN > 0 {
		b = append(b, ',')
	}
	return [][]byte{b, append(rest, "]}"...)}
}

// appendDiagnostics appends the diagnostics of the findings at the indexes
// in own, separated by commas, and says how many it appended.
func (s *Server) appendDiagnostics(b []byte, v *view, findings []rules.Finding, own []int32) ([]byte, int) {
	n := 0
	for _, k := range own {
		mark := len(b)
		if n > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = s.appendDiagnostic(b, v, findings[k]); err != nil {
			s.log.Errorf("%s: %v", v.files[findings[k].File].Path, err)
			b = b[:mark]
			continue
		}
		n++
	}
	return b, n
}

// appendPublishStart appends a PublishDiagnosticsParams up to the opening
// bracket of its diagnostics; version < 0 leaves the version out.
func appendPublishStart(b []byte, uri protocol.DocumentUri, version int32) []byte {
	b = append(b, `{"uri":`...)
	b = appendJSONString(b, string(uri))
	if version >= 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendUint(b, uint64(version), 10)
	}
	return append(b, `,"diagnostics":[`...)
}

// appendDiagnostic appends the JSON of diagnostic(v, f). On an error, which
// diagnostic() would return too, b is returned unchanged.
func (s *Server) appendDiagnostic(b []byte, v *view, f rules.Finding) ([]byte, error) {
	mark := len(b)
	r, err := toRange(v.ix(f.File), f.Span)
	if err != nil {
		return b[:mark], err
	}
	b = append(b, `{"range":`...)
	b = appendRange(b, r)
	b = append(b, `,"severity":`...)
	b = strconv.AppendInt(b, int64(severities[f.Severity]), 10)
	b = append(b, `,"code":`...)
	b = appendJSONString(b, f.Code)
	b = append(b, `,"source":`...)
	b = appendJSONString(b, Name)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, f.Message)
	if f.Traits().Unnecessary {
		b = append(b, `,"tags":[`...)
		b = strconv.AppendInt(b, int64(protocol.DiagnosticTagUnnecessary), 10)
		b = append(b, ']')
	}
	for i, rel := range f.Related {
		rr, err := toRange(v.ix(rel.File), rel.Span)
		if err != nil {
			return b[:mark], err
		}
		if i == 0 {
			b = append(b, `,"relatedInformation":[`...)
		} else {
			b = append(b, ',')
		}
		b = append(b, `{"location":{"uri":`...)
		b = appendJSONString(b, string(v.uri(rel.File)))
		b = append(b, `,"range":`...)
		b = appendRange(b, rr)
		b = append(b, `},"message":`...)
		b = appendJSONString(b, rel.Message)
		b = append(b, '}')
	}
	if len(f.Related) > 0 {
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func appendRange(b []byte, r protocol.Range) []byte {
	b = append(b, `{"start":`...)
	b = appendPosition(b, r.Start)
	b = append(b, `,"end":`...)
	b = appendPosition(b, r.End)
	return append(b, '}')
}

func appendPosition(b []byte, p protocol.Position) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendUint(b, uint64(p.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(p.Character), 10)
	return append(b, '}')
}

// appendJSONString appends s as encoding/json writes it. Quotes,
// backslashes and the three characters json.Marshal escapes for HTML (<, >,
// &) are escaped here as it escapes them; a string with anything else it
// rewrites (control characters, invalid UTF-8, U+2028, U+2029), which no
// message of ours holds, goes through json.Marshal itself.
func appendJSONString(b []byte, s string) []byte {
	mark := len(b)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
				return appendMarshalled(b[:mark], s)
			}
			i += size
			continue
		}
		var esc string
		switch {
		case c < 0x20:
			return appendMarshalled(b[:mark], s)
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '<':
			esc = `\u003c`
		case c == '>':
			esc = `\u003e`
		case c == '&':
			esc = `\u0026`
		default:
			i++
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonPlain marks the ASCII bytes appendJSONString copies as they are: the
// loop over a message's bytes is most of its cost, 13,000 messages a
// keystroke.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func appendMarshalled(b []byte, s string) []byte {
	enc, err := json.Marshal(s)
	if err != nil { // a string always encodes; keep the output valid regardless
		enc = []byte(`""`)
	}
	return append(b, enc...)
}

// diagnosticBytes is about the length of one encoded diagnostic (an
// over-limit warning with its message is ~300 bytes), to size each file's
// buffer once instead of growing it through a dozen copies.
const diagnosticBytes = 320
