package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkSecret flags likely credentials anywhere in any memory file, entry or
// not: memory files are read by every agent and usually committed. The
// message names the kind and never repeats the secret.
func checkSecret(w *workspace) {
	w.parsedFiles(func(fi int, f *File) {
		for _, m := range w.secrets(fi) {
			span := text.Span{Start: m.Start, End: m.End}
			fd := Finding{File: fi, Span: span,
				Message: "likely credential (" + m.Kind + "): memory files are shared with every agent and usually committed; remove it and rotate it",
				Fixes:   hazardFixes(fi, f.Doc, pemBlock(f.Doc.Src, span), true)}
			if m.Throwaway {
				// a password its line gives for tests or a local setup
				// (secret.Match.Throwaway): shown, not counted, and still
				// a hazard no tool copies or rewrites
				fd.Message = "a password for tests or a local setup (" + m.Kind + "), shown, not counted: if it opens anything others reach, remove it and rotate it"
				w.reportAs(Information, fd)
				continue
			}
			w.report(fd)
		}
	})
}

// pemBlock widens the span of a private key's BEGIN line to its END line,
// when the lines between hold nothing but the key's base64 (and headers):
// deleting or replacing the first line alone would leave the key behind.
func pemBlock(src []byte, span text.Span) text.Span {
	begin := string(src[span.Start:span.End])
	if !strings.HasPrefix(begin, "-----BEGIN ") {
		return span
	}
	rest := string(src[span.End:])
	end := strings.Index(rest, "-----END ")
	if end < 0 {
		return span
	}
	for _, r := range rest[:end] {
		if !(r == '\n' || r == '\r' || r == '+' || r == '/' || r == '=' || r == ':' || r == '-' || r == ',' || r == ' ' ||
			'0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return span
		}
	}
	close := span.End + end + len("-----END ")
	if i := strings.Index(string(src[close:]), "-----"); i >= 0 && !strings.ContainsAny(string(src[close:close+i]), "\r\n") {
		return text.Span{Start: span.Start, End: close + i + len("-----")}
	}
	return span
}
