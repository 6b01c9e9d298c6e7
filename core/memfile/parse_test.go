package memfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// want is one expected entry: HackLM's lineNumber, slug presence, slug, content.
type want struct {
	line    int
	hasSlug bool
	slug    string
	content string
}

func e(line int, content string) want       { return want{line: line, content: content} }
func s(line int, slug, content string) want { return want{line, true, slug, content} }
func kinds(ks ...Kind) []Kind               { return ks }
func none() []want                          { return nil }
func entries(ws ...want) []want             { return ws }

func checkEntries(t *testing.T, d *Document, ws []want) {
	t.Helper()
	if len(d.Entries) != len(ws) {
		t.Errorf("got %d entries, want %d:", len(d.Entries), len(ws))
		for _, g := range d.Entries {
			t.Logf("  got line %d slug(%v)=%q content=%q", g.Line, g.HasSlug, g.Slug, g.Content)
		}
	}
	for i := 0; i < min(len(d.Entries), len(ws)); i++ {
		g, w := d.Entries[i], ws[i]
		if g.Line != w.line || g.HasSlug != w.hasSlug || g.Slug != w.slug || g.Content != w.content {
			t.Errorf("entry %d: got line %d slug(%v)=%q content=%q; want line %d slug(%v)=%q content=%q",
				i, g.Line, g.HasSlug, g.Slug, g.Content, w.line, w.hasSlug, w.slug, w.content)
		}
	}
}

// Kind value meaning "do not check this line's kind" in the tables below.
const anyKind Kind = 255

func checkKinds(t *testing.T, d *Document, ks []Kind) {
	t.Helper()
	if ks == nil {
		return
	}
	if len(d.Lines) != len(ks) {
		t.Errorf("got %d lines, want %d", len(d.Lines), len(ks))
	}
	for i := 0; i < min(len(d.Lines), len(ks)); i++ {
		if ks[i] != anyKind && d.Lines[i].Kind != ks[i] {
			t.Errorf("line %d %q: kind %v, want %v", i+1, d.LineText(i), d.Lines[i].Kind, ks[i])
		}
	}
}

const (
	E  = KindEntry
	B  = KindBlank
	H  = KindHeading
	BD = KindBareDash
	BU = KindBullet
	IN = KindIndented
	F  = KindFence
	C  = KindCode
	BP = KindBoilerplate
	P  = KindProse
	X  = anyKind
)

// TestParseQuirks is spec §2 case by case. Expectations come from the spec
// text, not from running the parser. kinds lists every line (including the
// empty line after a final LF); X means "not checked".
func TestParseQuirks(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		entries []want
		kinds   []Kind
	}{
		// --- BOM (§1: kept as U+FEFF; §2: hides the first entry; B12)
		{"bom hides first entry", "\ufeff- [first] hidden\n- [second] shown\n",
			entries(s(2, "second", "shown")), kinds(X, E, B)},
		{"bom before heading", "\ufeff# Decisions\n\n- [d] x\n",
			entries(s(3, "d", "x")), kinds(H, B, E, B)},
		{"bom alone", "\ufeff", none(), kinds(B)},
		{"bom not on line 1 is content", "- a\n\ufeff- b\n- \ufeffc\n",
			entries(e(1, "a"), e(3, "c")), kinds(E, X, E, B)},

		// --- CRLF (trailing CR trimmed by JS trim)
		{"crlf file", "# Quirks\r\n\r\nMemories stored by HackLM Memory.\r\n\r\n- [crlf-slug] content one\r\n- plain two\r\n- [s]\r\n",
			entries(s(5, "crlf-slug", "content one"), e(6, "plain two"), e(7, "[s]")),
			kinds(H, B, BP, B, E, E, E, B)},
		{"crlf no final newline", "- [a] b\r\n- c\r",
			entries(s(1, "a", "b"), e(2, "c")), kinds(E, E)},
		{"crlf lines number by LF", "\r\n\r\n- x\r\n", entries(e(3, "x")), kinds(B, B, E, B)},

		// --- CR inside a line truncates
		{"cr mid-line", "- a\rb", entries(e(1, "a")), kinds(E)},
		{"cr mid-line with slug", "- [s] x\ry z\n", entries(s(1, "s", "x")), kinds(E, B)},
		{"cr right after slug bracket", "- [s]\rx\n", entries(e(1, "[s]")), kinds(E, B)},
		{"cr after slug whitespace", "- [s] \rx\n", entries(e(1, "[s]")), kinds(E, B)},
		{"lone cr is not a line break", "- a\r- b\n", entries(e(1, "a")), kinds(E, B)},

		// --- bare dashes and empty contents
		{"dash three spaces", "-   ", entries(e(1, "")), kinds(E)},
		{"dash two spaces", "-  \n", entries(e(1, "")), kinds(E, B)},
		{"dash two spaces crlf", "-  \r\n", entries(e(1, "")), kinds(E, B)},
		{"dash space tab", "- \t\n", entries(e(1, "")), kinds(E, B)},
		{"dash space nbsp", "- \u00a0\n", entries(e(1, "")), kinds(E, B)},
		{"dash space alone", "- ", none(), kinds(BD)},
		{"dash space alone with lf", "- \n", none(), kinds(BD, B)},
		{"dash alone", "-", none(), kinds(BD)},
		{"dash alone with lf", "-\n", none(), kinds(BD, B)},
		{"dash space cr", "- \r", none(), kinds(BD)},
		{"dash space crlf", "- \r\n", none(), kinds(BD, B)},
		{"dash space u2028", "- \u2028\n", none(), kinds(X, B)},
		{"dash space u2028 text", "- \u2028x\n", none(), kinds(X, B)},
		{"dash space u2029 text", "- \u2029x\n", none(), kinds(X, B)},

		// --- slug forms
		{"slug", "- [slug] content", entries(s(1, "slug", "content")), kinds(E)},
		{"slug spaced", "- [ spaced ] x", entries(s(1, " spaced ", "x")), kinds(E)},
		{"slug glued", "- [s]x", entries(e(1, "[s]x")), kinds(E)},
		{"slug empty brackets", "- [] x", entries(e(1, "[] x")), kinds(E)},
		{"slug alone", "- [slug]", entries(e(1, "[slug]")), kinds(E)},
		{"slug alone trailing spaces", "- [slug]   ", entries(e(1, "[slug]")), kinds(E)},
		{"slug extra bracket", "- [a]b] c", entries(e(1, "[a]b] c")), kinds(E)},
		{"slug wiki", "- [[wiki]] x", entries(e(1, "[[wiki]] x")), kinds(E)},
		{"slug with open bracket inside", "- [[a] x", entries(s(1, "[a", "x")), kinds(E)},
		{"slug two spaces", "- [x]  two spaces", entries(s(1, "x", "two spaces")), kinds(E)},
		{"slug tab", "- [s]\tx", entries(s(1, "s", "x")), kinds(E)},
		{"slug nbsp", "- [s]\u00a0x", entries(s(1, "s", "x")), kinds(E)},
		{"slug ideographic space", "- [s]\u3000x", entries(s(1, "s", "x")), kinds(E)},
		{"slug feff", "- [s]\ufeffx", entries(s(1, "s", "x")), kinds(E)},
		{"slug mixed whitespace run", "- [s] \t\u00a0\u2003x y", entries(s(1, "s", "x y")), kinds(E)},
		{"slug nel is not whitespace", "- [s]\u0085x", entries(e(1, "[s]\u0085x")), kinds(E)},
		{"slug zwsp is not whitespace", "- [s]\u200bx", entries(e(1, "[s]\u200bx")), kinds(E)},
		{"slug u2028 ends tail", "- [s]\u2028x", entries(e(1, "[s]")), kinds(E)},
		{"slug u2028 after space", "- [s] \u2028x", entries(e(1, "[s]")), kinds(E)},
		{"checkbox", "- [ ] task\n- [x] done\n", entries(s(1, " ", "task"), s(2, "x", "done")), kinds(E, E, B)},
		{"slug capitals dots", "- [My.Slug_1 + x] c", entries(s(1, "My.Slug_1 + x", "c")), kinds(E)},
		{"slug content keeps brackets", "- [a] [b] c", entries(s(1, "a", "[b] c")), kinds(E)},
		{"slug content trailing ws trimmed", "- [a] c \t\u3000", entries(s(1, "a", "c")), kinds(E)},
		{"extra spaces before slug", "-  [s] x", entries(s(1, "s", "x")), kinds(E)},
		{"slug only whitespace content", "- [s]    ", entries(e(1, "[s]")), kinds(E)},
		{"duplicate slugs all returned", "- [a] one\n- [a] two\n- [a] one\n",
			entries(s(1, "a", "one"), s(2, "a", "two"), s(3, "a", "one")), kinds(E, E, E, B)},

		// --- non-entries at column 0 and indented
		{"indented", "  - x\n\t- y\n   1. z\n", none(), kinds(IN, IN, IN, B)},
		{"other bullets", "* x\n+ x\n1. x\n2) x\n-x\n-\tx\n", none(), kinds(BU, BU, BU, BU, BU, BU, B)},
		{"rules and flags are prose", "---\n--flag\n", none(), kinds(P, P, B)},
		{"prose", "Just some text.\n", none(), kinds(P, B)},
		{"single characters", "x\n#\n -\n*\n\u00a0-\n", none(), kinds(P, H, P, P, P, B)},
		{"dash nbsp is not an entry", "-\u00a0x\n", none(), kinds(BU, B)},

		// --- whitespace sets
		{"tabs trimmed", "- \tx\t\n- \t\tx y\t \n", entries(e(1, "x"), e(2, "x y")), kinds(E, E, B)},
		{"vt ff trimmed", "- \vx\f", entries(e(1, "x")), kinds(E)},
		{"nbsp trimmed", "- \u00a0x\u00a0", entries(e(1, "x")), kinds(E)},
		{"ideographic space trimmed", "- \u3000y\u3000", entries(e(1, "y")), kinds(E)},
		{"zs trimmed", "- \u1680\u2000\u200a\u202f\u205fz\u2000", entries(e(1, "z")), kinds(E)},
		{"nel not trimmed", "- \u0085x\u0085", entries(e(1, "\u0085x\u0085")), kinds(E)},
		{"mvs not trimmed", "- \u180ex\u180e", entries(e(1, "\u180ex\u180e")), kinds(E)},
		{"zwsp not trimmed", "- \u200bx\u200b", entries(e(1, "\u200bx\u200b")), kinds(E)},
		{"feff trimmed inside a line", "- \ufeffx\ufeff", entries(e(1, "x")), kinds(E)},
		{"feff in middle kept", "- a\ufeffb", entries(e(1, "a\ufeffb")), kinds(E)},
		{"u2028 truncates", "- a\u2028b", entries(e(1, "a")), kinds(E)},
		{"u2029 truncates", "- a\u2029b", entries(e(1, "a")), kinds(E)},
		{"u2028 after trailing space", "- a \u2028b", entries(e(1, "a")), kinds(E)},

		// --- structure HackLM ignores
		{"headings", "# Title\n## 2026-01-01\n### [2026-04-10] x\n  # indented heading\n- # not a heading\n",
			entries(e(5, "# not a heading")), kinds(H, H, H, H, E, B)},
		{"hacklm file", "# Decisions\n\nMemories stored by HackLM Memory.\n\n- [d] x\n\n- [e] y\n",
			entries(s(5, "d", "x"), s(7, "e", "y")), kinds(H, B, BP, B, E, B, E, B)},
		{"fence", "```text\n- inside fence\nplain\n```\n- after\n~~~\n# code\n~~~\n",
			entries(e(2, "inside fence"), e(5, "after")), kinds(F, E, C, F, E, F, C, F, B)},
		{"blank lines", "\n \n\t\n\u00a0\n\r\n", none(), kinds(B, B, B, B, B, B)},

		// --- file ends
		{"no final newline", "- a\n- [b] c", entries(e(1, "a"), s(2, "b", "c")), kinds(E, E)},
		{"final newline", "- a\n", entries(e(1, "a")), kinds(E, B)},
		{"empty file", "", none(), kinds(B)},
		{"only lf", "\n", none(), kinds(B, B)},

		// --- non-ASCII and invalid UTF-8
		{"astral and cjk", "- [emoji] 😀 用户\n", entries(s(1, "emoji", "😀 用户")), kinds(E, B)},
		{"invalid utf8 content", "- \xff\xfe bad\n", entries(e(1, "\xff\xfe bad")), kinds(E, B)},
		{"invalid utf8 slug", "- [s\xc3] x\xe2\x82\n", entries(s(1, "s\xc3", "x\xe2\x82")), kinds(E, B)},
		{"invalid utf8 lone byte", "- \xc3", entries(e(1, "\xc3")), kinds(E)},
		{"truncated nbsp is not space", "- \xc2x", entries(e(1, "\xc2x")), kinds(E)},
		{"truncated u2028 does not end tail", "- a\xe2\x80b", entries(e(1, "a\xe2\x80b")), kinds(E)},
		{"surrogate bytes", "- \xed\xa0\x80 x", entries(e(1, "\xed\xa0\x80 x")), kinds(E)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse([]byte(tt.src))
			if got := d.Render(); string(got) != tt.src {
				t.Errorf("Render = %q", got)
			}
			checkInvariants(t, d)
			checkEntries(t, d, tt.entries)
			checkKinds(t, d, tt.kinds)
		})
	}
}

// TestKindString covers every kind's name.
func TestKindString(t *testing.T) {
	want := map[Kind]string{E: "entry", B: "blank", H: "heading", BD: "bare-dash", BU: "bullet",
		IN: "indented", F: "fence", C: "code", BP: "boilerplate", P: "prose"}
	for k, name := range want {
		if k.String() != name {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), name)
		}
	}
}

// TestIsJSSpaceExhaustive compares text.IsJSSpace with ECMAScript's definition on
// every code point: WhiteSpace (TAB VT FF SP NBSP ZWNBSP + Unicode Zs) plus
// LineTerminator (LF CR LS PS).
func TestIsJSSpaceExhaustive(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		var want bool
		switch r {
		case '\t', '\v', '\f', ' ', 0xA0, 0xFEFF, '\n', '\r', 0x2028, 0x2029:
			want = true
		default:
			want = unicode.Is(unicode.Zs, r)
		}
		if got := text.IsJSSpace(r); got != want {
			t.Errorf("text.IsJSSpace(%U) = %v, want %v", r, got, want)
		}
	}
}

func TestTrimJS(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{" \t\n\v\f\r", ""},
		{"\ufeffx\ufeff", "x"},
		{"\u0085x\u0085", "\u0085x\u0085"},
		{"\u00a0\u3000x y\u2028\u2029", "x y"},
		{"\xffx\xff", "\xffx\xff"},
		{" \xc2", "\xc2"},
		{"\u200bx", "\u200bx"},
	}
	for _, tt := range tests {
		if got := TrimJS(tt.in); got != tt.want {
			t.Errorf("TrimJS(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLineText checks LineText against the spans.
func TestLineText(t *testing.T) {
	d := Parse([]byte("a\r\nb\n\nc"))
	want := []string{"a\r", "b", "", "c"}
	for i, w := range want {
		if got := string(d.LineText(i)); got != w {
			t.Errorf("LineText(%d) = %q, want %q", i, got, w)
		}
	}
}

// --- testdata/parse fixtures ---------------------------------------------

const fixtureDir = "../../testdata/parse"

// fixture is one case of testdata/parse/expected.json.
type fixture struct {
	Quirk string `json:"quirk"`
	Spec  string `json:"spec"`
	// Escaped means every slug and content is written with Go escapes
	// (\xff, \u2028 …) to be unquoted first: JSON strings cannot hold invalid UTF-8.
	Escaped bool `json:"escaped"`
	// Entries are [line, slug|null, content] as in the shared corpus.
	Entries []corpusEntry `json:"entries"`
	// Kinds, when present, names every line's kind ("" = not checked).
	Kinds []string `json:"kinds"`
}

func TestParseFixtures(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(fixtureDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases map[string]fixture
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[filepath.Base(f)] = true
		if _, ok := cases[filepath.Base(f)]; !ok {
			t.Errorf("%s has no case in expected.json", f)
		}
	}
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	byName := map[string]Kind{}
	for k := range kindNames {
		byName[Kind(k).String()] = Kind(k)
	}
	for _, name := range names {
		fx := cases[name]
		t.Run(name, func(t *testing.T) {
			if !seen[name] {
				t.Fatalf("expected.json names %s, which does not exist", name)
			}
			src, err := os.ReadFile(filepath.Join(fixtureDir, name))
			if err != nil {
				t.Fatal(err)
			}
			d := Parse(src)
			if !bytes.Equal(d.Render(), src) {
				t.Error("Render(Parse(x)) != x")
			}
			checkInvariants(t, d)
			ws := make([]want, 0, len(fx.Entries))
			for _, ce := range fx.Entries {
				w := want{line: ce.Line, hasSlug: ce.HasSlug, slug: ce.Slug, content: ce.Content}
				if fx.Escaped {
					w.slug, w.content = unescape(t, w.slug), unescape(t, w.content)
				}
				ws = append(ws, w)
			}
			checkEntries(t, d, ws)
			if fx.Kinds != nil {
				ks := make([]Kind, len(fx.Kinds))
				for i, n := range fx.Kinds {
					k, ok := byName[n]
					switch {
					case n == "":
						k = anyKind
					case !ok:
						t.Fatalf("unknown kind %q", n)
					}
					ks[i] = k
				}
				checkKinds(t, d, ks)
			}
		})
	}
}

func unescape(t *testing.T, s string) string {
	t.Helper()
	u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	if err != nil {
		t.Fatalf("unescaping %q: %v", s, err)
	}
	return u
}
