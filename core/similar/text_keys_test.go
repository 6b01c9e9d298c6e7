package similar

import (
	"fmt"
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
		x := Analyze(s)
		wantKey := x.Norm
		if x.Norm == "" {
			wantKey = "\x00" + strings.ToLower(strings.TrimFunc(s, text.IsJSSpace))
		}
		wantCore := ""
		if len(x.Core()) == 0 {
			wantCore = withoutVocabulary(x.Norm)
		}
		if x.exactKey() != wantKey || x.normCore() != wantCore {
			t.Errorf("%q: exactKey %q, normCore %q; want %q, %q", s, x.exactKey(), x.normCore(), wantKey, wantCore)
		}
	}
}

// TestTextSize: a language server keeps a Text for every entry; its header
// stays in the 80-byte size class.
func TestTextSize(t *testing.T) {
	if n := unsafe.Sizeof(Text{}); n > 80 {
		t.Errorf("a Text is %d bytes: over the 80-byte size class", n)
	}
}

// TestTextListsDoNotAlias: the lists share one array, so each is handed out
// without room past its end; appending to one must leave the others as
// they were.
func TestTextListsDoNotAlias(t *testing.T) {
	for _, s := range []string{"Never use YAML v1.2 over JSON in eu-west-1 for Postgres", "Use Postgres for the ledger.", "日志 不 使用 v2"} {
		x := Analyze(s)
		before := fmt.Sprintf("%q %q %q %q %q", x.Keys(), x.Core(), x.Numbers(), x.Named(), x.alt())
		for _, l := range [][]string{x.Keys(), x.Core(), x.Numbers(), x.Named()} {
			_ = append(l, "clobbered")
		}
		if after := fmt.Sprintf("%q %q %q %q %q", x.Keys(), x.Core(), x.Numbers(), x.Named(), x.alt()); after != before {
			t.Errorf("%q: appending to a list changed the Text: %s, was %s", s, after, before)
		}
	}
}
