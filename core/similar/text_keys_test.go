package similar

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// TestTextKeys: exactKey and normCore, kept in one field, are what they
// were defined as: Norm, or for a text that normalises to nothing its
// trimmed lowercased raw form; Norm without the polarity words when Core is
// empty, else nothing.
func TestTextKeys(t *testing.T) {
	for _, s := range []string{
		"Use Postgres for the ledger.", "Do it", "Don't do it", "Never do it.", "not", "🎉", " 🚀 ", "",
		"   ", "Use Redis over Memcached.", "ログを出力しない", "设置禁止", "不", "v1.8 in eu-west-1", "Не делать",
		"A, не B", "-- -- --", "!!!",
	} {
		for _, x := range []*Text{Analyze(s), analyzeGeneral(s)} {
			wantKey := x.Norm
			if x.Norm == "" {
				wantKey = "\x00" + strings.ToLower(strings.TrimFunc(s, text.IsJSSpace))
			}
			wantCore := ""
			if len(x.Core) == 0 {
				wantCore = withoutVocabulary(x.Norm)
			}
			if x.exactKey() != wantKey || x.normCore() != wantCore {
				t.Errorf("%q: exactKey %q, normCore %q; want %q, %q", s, x.exactKey(), x.normCore(), wantKey, wantCore)
			}
		}
	}
	if n := unsafe.Sizeof(Text{}); n > 160 {
		t.Errorf("a Text is %d bytes: over the 160-byte size class", n)
	}
}
