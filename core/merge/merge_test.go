package merge

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

const hackHeader = "# Decision\n\nMemories stored by HackLM Memory.\n\n"

var mergeCases = []struct {
	name               string
	base, ours, theirs string
	want               string
	conflicts          []Conflict
}{
	// additions
	{name: "both append different slugged entries",
		base:   "# Decisions\n\n- [a] Use PostgreSQL 16.\n",
		ours:   "# Decisions\n\n- [a] Use PostgreSQL 16.\n- [b] Deploy on Fridays never.\n",
		theirs: "# Decisions\n\n- [a] Use PostgreSQL 16.\n- [c] Tag releases with semver.\n",
		want:   "# Decisions\n\n- [a] Use PostgreSQL 16.\n- [b] Deploy on Fridays never.\n- [c] Tag releases with semver.\n"},
	{name: "both append unslugged entries",
		base:   "- Keep it simple.\n",
		ours:   "- Keep it simple.\n- Ours one.\n- Ours two.\n",
		theirs: "- Keep it simple.\n- Theirs one.\n- Theirs two.\n",
		want:   "- Keep it simple.\n- Ours one.\n- Ours two.\n- Theirs one.\n- Theirs two.\n"},
	{name: "HackLM appends with blank lines",
		base:   hackHeader + "\n- A first.\n",
		ours:   hackHeader + "\n- A first.\n\n- B ours.\n",
		theirs: hackHeader + "\n- A first.\n\n- C theirs.\n",
		want:   hackHeader + "\n- A first.\n\n- B ours.\n- C theirs.\n"},
	{name: "theirs inserts in the middle, ours appends",
		base:   "- [a] A.\n- [z] Z.\n",
		ours:   "- [a] A.\n- [z] Z.\n- [o] O.\n",
		theirs: "- [a] A.\n- [m] M.\n- [z] Z.\n",
		want:   "- [a] A.\n- [m] M.\n- [z] Z.\n- [o] O.\n"},
	{name: "both insert after the same entry: ours first",
		base:   "- [a] A.\n- [z] Z.\n",
		ours:   "- [a] A.\n- [o] O.\n- [z] Z.\n",
		theirs: "- [a] A.\n- [t] T.\n- [z] Z.\n",
		want:   "- [a] A.\n- [o] O.\n- [t] T.\n- [z] Z.\n"},
	{name: "theirs adds before the first entry",
		base:   "# T\n\n- [a] A.\n",
		ours:   "# T\n\n- [a] A.\n- [o] O.\n",
		theirs: "# T\n\n- [f] First.\n- [a] A.\n",
		want:   "# T\n\n- [f] First.\n- [a] A.\n- [o] O.\n"},
	{name: "both add the identical entry: once",
		base:   "- [a] A.\n",
		ours:   "- [a] A.\n- [n] New fact.\n",
		theirs: "- [a] A.\n- [n] New fact.\n",
		want:   "- [a] A.\n- [n] New fact.\n"},
	{name: "both add the identical entry among others: once",
		base:   "- [a] A.\n",
		ours:   "- [a] A.\n- [o] O.\n- Same new fact.\n",
		theirs: "- [a] A.\n- Same new fact.\n- [t] T.\n",
		want:   "- [a] A.\n- [o] O.\n- Same new fact.\n- [t] T.\n"},
	{name: "both add the same text, theirs with a slug: the slugged line once",
		base:   "- [a] A.\n",
		ours:   "- [a] A.\n- Use pnpm.\n",
		theirs: "- [a] A.\n- [pnpm] use pnpm\n",
		want:   "- [a] A.\n- [pnpm] use pnpm\n"},
	{name: "both add the same text under different slugs: ours once",
		base:   "- [a] A.\n",
		ours:   "- [a] A.\n- [pnpm] Use pnpm.\n",
		theirs: "- [a] A.\n- [package-manager] Use pnpm.\n",
		want:   "- [a] A.\n- [pnpm] Use pnpm.\n"},
	{name: "slug dropped on theirs, text changed on ours: both changes",
		base:   "- [x] Use tabs.\n- B.\n",
		ours:   "- [x] Use tabs in Go.\n- B.\n- C.\n",
		theirs: "- Use tabs.\n- B.\n",
		want:   "- Use tabs in Go.\n- B.\n- C.\n"},
	{name: "both add the same slug with different texts: conflict",
		base:      "# D\n\n- [a] A.\n",
		ours:      "# D\n\n- [a] A.\n- [db] Use PostgreSQL.\n",
		theirs:    "# D\n\n- [a] A.\n- [db] Use SQLite.\n",
		want:      "# D\n\n- [a] A.\n- [db] Use PostgreSQL.\n- [db] Use SQLite.\n",
		conflicts: []Conflict{{Slug: "db", Ours: 4, Theirs: 5}}},

	// changes
	{name: "changed on theirs only",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n- [b] B.\n- [c] C.\n",
		theirs: "- [a] A changed.\n- [b] B.\n",
		want:   "- [a] A changed.\n- [b] B.\n- [c] C.\n"},
	{name: "changed on ours only",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n- [b] B changed.\n",
		theirs: "- [a] A.\n- [b] B.\n- [c] C.\n",
		want:   "- [a] A.\n- [b] B changed.\n- [c] C.\n"},
	{name: "changed identically on both sides: once",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A two.\n- [b] B.\n- [o] O.\n",
		theirs: "- [a] A two.\n- [b] B.\n",
		want:   "- [a] A two.\n- [b] B.\n- [o] O.\n"},
	{name: "same slug changed differently: both kept, conflict",
		base:      "# Decisions\n\n- [db] Use PostgreSQL 15.\n- [ci] Run CI on every push.\n",
		ours:      "# Decisions\n\n- [db] Use PostgreSQL 16.\n- [ci] Run CI on every push.\n",
		theirs:    "# Decisions\n\n- [db] Use MySQL 8.\n- [ci] Run CI on every push.\n",
		want:      "# Decisions\n\n- [db] Use PostgreSQL 16.\n- [db] Use MySQL 8.\n- [ci] Run CI on every push.\n",
		conflicts: []Conflict{{Slug: "db", Ours: 3, Theirs: 4}}},
	{name: "changes differing only by case and final punctuation: ours, no conflict",
		base:   "- [a] use tabs\n",
		ours:   "- [a] Use tabs.\n",
		theirs: "- [a] use  tabs!\n",
		want:   "- [a] Use tabs.\n"},
	{name: "cosmetic change on ours, real change on theirs: theirs",
		base:   "- [a] use tabs\n",
		ours:   "- [a] Use tabs.\n",
		theirs: "- [a] Use spaces.\n",
		want:   "- [a] Use spaces.\n"},
	{name: "slug renamed on ours, text changed on theirs: both changes",
		base:   "- [old] Use tabs.\n",
		ours:   "- [indent] Use tabs.\n",
		theirs: "- [old] Use tabs in Go files.\n",
		want:   "- [indent] Use tabs in Go files.\n"},
	{name: "slug added on ours, unchanged on theirs",
		base:   "- Use tabs.\n- B.\n",
		ours:   "- [tabs] Use tabs.\n- B.\n",
		theirs: "- Use tabs.\n- B.\n- C.\n",
		want:   "- [tabs] Use tabs.\n- B.\n- C.\n"},
	{name: "slug renamed differently on both sides: ours",
		base:   "- [x] Use tabs.\n",
		ours:   "- [tabs] Use tabs.\n",
		theirs: "- [indent] Use tabs.\n",
		want:   "- [tabs] Use tabs.\n"},
	{name: "unslugged entry edited on theirs is a delete and an add",
		base:   "- A.\n- B.\n- C.\n",
		ours:   "- A.\n- B.\n- C.\n- D.\n",
		theirs: "- A.\n- B, better.\n- C.\n",
		want:   "- A.\n- B, better.\n- C.\n- D.\n"},
	{name: "formatting change on theirs: taken",
		base:   "-  [a]   A.\n- [b] B.\n",
		ours:   "-  [a]   A.\n- [b] B.\n- [c] C.\n",
		theirs: "- [a] A.\n- [b] B.\n",
		want:   "- [a] A.\n- [b] B.\n- [c] C.\n"},

	// deletions
	{name: "deleted on theirs, unchanged on ours: deleted",
		base:   "- [a] A.\n- [b] B.\n- [c] C.\n",
		ours:   "- [a] A.\n- [b] B.\n- [c] C.\n- [d] D.\n",
		theirs: "- [a] A.\n- [c] C.\n",
		want:   "- [a] A.\n- [c] C.\n- [d] D.\n"},
	{name: "deleted on ours, unchanged on theirs: deleted",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n",
		theirs: "- [a] A.\n- [b] B.\n- [c] C.\n",
		want:   "- [a] A.\n- [c] C.\n"},
	{name: "deleted on theirs, changed on ours: the change",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n- [b] B, revised.\n",
		theirs: "- [a] A.\n- [n] N.\n",
		want:   "- [a] A.\n- [b] B, revised.\n- [n] N.\n"},
	{name: "deleted on ours, changed on theirs: the change, in place",
		base:   "- [a] A.\n- [b] B.\n- [c] C.\n",
		ours:   "- [a] A.\n- [c] C.\n- [o] O.\n",
		theirs: "- [a] A.\n- [b] B, revised.\n- [c] C.\n",
		want:   "- [a] A.\n- [b] B, revised.\n- [c] C.\n- [o] O.\n"},
	{name: "deleted on ours, only reformatted on theirs: deleted",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n- [o] O.\n",
		theirs: "- [a] A.\n-  [b]  B\n",
		want:   "- [a] A.\n- [o] O.\n"},
	{name: "deleted on both sides",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n- [o] O.\n",
		theirs: "- [a] A.\n- [t] T.\n",
		want:   "- [a] A.\n- [o] O.\n- [t] T.\n"},
	{name: "a deleted entry between blank lines takes one blank with it",
		base:   hackHeader + "\n- A.\n\n- B.\n\n- C.\n",
		ours:   hackHeader + "\n- A.\n\n- B.\n\n- C.\n\n- D.\n",
		theirs: hackHeader + "\n- A.\n\n- C.\n",
		want:   hackHeader + "\n- A.\n\n- C.\n\n- D.\n"},

	// reorderings
	{name: "theirs reorders and changes: ours' order, theirs' change",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [a] A.\n- [b] B.\n- [c] C.\n",
		theirs: "- [b] B2.\n- [a] A.\n",
		want:   "- [a] A.\n- [b] B2.\n- [c] C.\n"},
	{name: "ours reorders, theirs appends: after ours' last entry",
		base:   "- [a] A.\n- [b] B.\n",
		ours:   "- [b] B.\n- [a] A.\n",
		theirs: "- [a] A.\n- [b] B.\n- [c] C.\n",
		want:   "- [b] B.\n- [a] A.\n- [c] C.\n"},
	{name: "duplicate slug in the base: occurrences are separate entries",
		base:   "- [db] First.\n- [db] Second.\n",
		ours:   "- [db] First.\n- [db] Second.\n- [x] X.\n",
		theirs: "- [db] First.\n- [db] Second, revised.\n",
		want:   "- [db] First.\n- [db] Second, revised.\n- [x] X.\n"},

	// layout
	{name: "CRLF file: added lines take CRLF",
		base:   "# D\r\n\r\n- [a] A.\r\n",
		ours:   "# D\r\n\r\n- [a] A.\r\n- [b] B.\r\n",
		theirs: "# D\r\n\r\n- [a] A, revised.\r\n- [c] C.\r\n",
		want:   "# D\r\n\r\n- [a] A, revised.\r\n- [b] B.\r\n- [c] C.\r\n"},
	{name: "theirs converted to LF: ours' CRLF stays",
		base:   "- [a] A.\r\n- [b] B.\r\n",
		ours:   "- [a] A.\r\n- [b] B.\r\n- [o] O.\r\n",
		theirs: "- [a] A.\n- [b] B.\n- [t] T.\n",
		want:   "- [a] A.\r\n- [b] B.\r\n- [o] O.\r\n- [t] T.\r\n"},
	{name: "CRLF conflict",
		base:      "- [a] A.\r\n",
		ours:      "- [a] A1.\r\n",
		theirs:    "- [a] A2.\r\n",
		want:      "- [a] A1.\r\n- [a] A2.\r\n",
		conflicts: []Conflict{{Slug: "a", Ours: 1, Theirs: 2}}},
	{name: "BOM kept from ours",
		base:   bom + "# D\n\n- [a] A.\n",
		ours:   bom + "# D\n\n- [a] A.\n- [b] B.\n",
		theirs: "# D\n\n- [a] A.\n- [c] C.\n",
		want:   bom + "# D\n\n- [a] A.\n- [b] B.\n- [c] C.\n"},
	{name: "no BOM in ours: none added",
		base:   "# D\n\n- [a] A.\n",
		ours:   "# D\n\n- [a] A.\n- [b] B.\n",
		theirs: bom + "# D\n\n- [a] A.\n- [c] C.\n",
		want:   "# D\n\n- [a] A.\n- [b] B.\n- [c] C.\n"},
	{name: "BOM hiding the first entry stays as it was",
		base:   bom + "- [a] A.\n",
		ours:   bom + "- [a] A.\n- [b] B.\n",
		theirs: bom + "- [a] A.\n- [c] C.\n",
		want:   bom + "- [a] A.\n- [b] B.\n- [c] C.\n"},
	{name: "no final newline in ours stays so",
		base:   "- [a] A.",
		ours:   "- [a] A.\n- [b] B.",
		theirs: "- [a] A.\n- [c] C.\n",
		want:   "- [a] A.\n- [b] B.\n- [c] C."},
	{name: "add/add of a new file: one title, both entries",
		base:   "",
		ours:   hackHeader + "\n- [a] A.\n",
		theirs: "# Decisions\n\n- [b] B.\n",
		want:   hackHeader + "\n- [a] A.\n- [b] B.\n"},
	{name: "ours has no entries: theirs' go after a blank line",
		base:   "# Decisions\n",
		ours:   "# Decisions\nA note.\n",
		theirs: "# Decisions\n- [b] B.\n",
		want:   "# Decisions\nA note.\n\n- [b] B.\n"},
	{name: "theirs' new section travels with its entries",
		base:   "# D\n\n- [a] A.\n",
		ours:   "# D\n\n- [a] A.\n- [o] O.\n",
		theirs: "# D\n\n- [a] A.\n\n## Frontend\n\n- [f] F.\n",
		want:   "# D\n\n- [a] A.\n- [o] O.\n\n## Frontend\n\n- [f] F.\n"},
	{name: "ours' non-entry lines kept, theirs' removal of them ignored",
		base:   "# D\n\nSome prose.\n\n- [a] A.\n",
		ours:   "# D\n\nSome prose.\n\n- [a] A.\n- [o] O.\n",
		theirs: "# D\n\n- [a] A.\n",
		want:   "# D\n\nSome prose.\n\n- [a] A.\n- [o] O.\n"},
	{name: "insertion does not cross a heading",
		base:   "# D\n\n- [a] A.\n\n## Old\n- [z] Z.\n",
		ours:   "# D\n\n- [a] A.\n\n## Old\n- [z] Z.\n- [o] O.\n",
		theirs: "# D\n\n- [a] A.\n- [t] T.\n\n## Old\n- [z] Z.\n",
		want:   "# D\n\n- [a] A.\n- [t] T.\n\n## Old\n- [z] Z.\n- [o] O.\n"},

	// one side unchanged: that is git's job, but the driver may still be asked
	{name: "theirs unchanged", base: "- a\n", ours: "- a\n- b\n", theirs: "- a\n", want: "- a\n- b\n"},
	{name: "ours unchanged", base: "- a\n", ours: "- a\n", theirs: "- a\r\n- c\r\n", want: "- a\r\n- c\r\n"},
}

func TestMerge(t *testing.T) {
	for _, c := range mergeCases {
		t.Run(c.name, func(t *testing.T) {
			got := Merge([]byte(c.base), []byte(c.ours), []byte(c.theirs))
			if string(got.Data) != c.want {
				t.Errorf("merged:\n%q\nwant:\n%q", got.Data, c.want)
			}
			if !reflect.DeepEqual(got.Conflicts, c.conflicts) {
				t.Errorf("conflicts %+v, want %+v", got.Conflicts, c.conflicts)
			}
			checkValid(t, got, []byte(c.ours), []byte(c.theirs))
		})
	}
}

// checkValid holds a result to the promises every merge keeps: no conflict
// markers, every line one of ours' or theirs' lines (endings aside), a blank
// line, or an entry whose slug and text each come from ours or theirs, and
// conflict lines that carry the conflict's slug.
func checkValid(t *testing.T, r Result, ours, theirs []byte) {
	t.Helper()
	if bytes.Contains(r.Data, []byte("<<<<<<<")) && !bytes.Contains(ours, []byte("<<<<<<<")) && !bytes.Contains(theirs, []byte("<<<<<<<")) {
		t.Errorf("conflict markers in the result:\n%s", r.Data)
	}
	lines := map[string]bool{}
	slugs, texts := map[string]bool{"": true}, map[string]bool{}
	for _, src := range [][]byte{ours, theirs} {
		d := memfile.Parse(trimBOM(src))
		for i := range d.Lines {
			lines[strings.TrimRight(body(d, i), "\r")] = true
		}
		for _, e := range d.Entries {
			slugs[e.Slug] = true
			texts[e.Content] = true
		}
	}
	d := memfile.Parse(trimBOM(r.Data))
	for i := range d.Lines {
		b := strings.TrimRight(body(d, i), "\r")
		if lines[b] || strings.TrimSpace(b) == "" {
			continue
		}
		if ei := d.Lines[i].Entry; ei >= 0 && slugs[d.Entries[ei].Slug] && texts[d.Entries[ei].Content] {
			continue
		}
		t.Errorf("line %d %q is in neither input", i+1, b)
	}
	for _, c := range r.Conflicts {
		for _, n := range []int{c.Ours, c.Theirs} {
			if n < 1 || n > len(d.Lines) || d.Lines[n-1].Entry < 0 || d.Entries[d.Lines[n-1].Entry].Slug != c.Slug {
				t.Errorf("conflict %+v: line %d is not an entry with slug %q", c, n, c.Slug)
			}
		}
	}
}

// TestMergeSidesAgree: when both sides hold the same bytes, or one side is
// the base, the merge is the other side byte for byte.
func TestMergeSidesAgree(t *testing.T) {
	for _, c := range mergeCases {
		for _, x := range []string{c.ours, c.theirs} {
			if got := Merge([]byte(c.base), []byte(x), []byte(x)).Data; string(got) != x {
				t.Errorf("%s: Merge(base, x, x) = %q, want %q", c.name, got, x)
			}
			if got := Merge([]byte(c.base), []byte(c.base), []byte(x)).Data; string(got) != x {
				t.Errorf("%s: Merge(base, base, x) = %q, want %q", c.name, got, x)
			}
			if got := Merge([]byte(c.base), []byte(x), []byte(c.base)).Data; string(got) != x {
				t.Errorf("%s: Merge(base, x, base) = %q, want %q", c.name, got, x)
			}
		}
	}
}

// TestMergeKeepsEveryAddition: every entry either side added (by slug or
// text) is in the result, whichever side is ours.
func TestMergeKeepsEveryAddition(t *testing.T) {
	for _, c := range mergeCases {
		for _, swap := range []bool{false, true} {
			o, th := c.ours, c.theirs
			if swap {
				o, th = th, o
			}
			got := memfile.Parse(trimBOM(Merge([]byte(c.base), []byte(o), []byte(th)).Data))
			have := map[string]bool{}
			for _, e := range got.Entries {
				have[Norm(e.Content)] = true
			}
			base := map[string]bool{}
			for _, e := range memfile.Parse(trimBOM([]byte(c.base))).Entries {
				base[Norm(e.Content)] = true
			}
			for _, side := range []string{o, th} {
				for _, e := range memfile.Parse(trimBOM([]byte(side))).Entries {
					if n := Norm(e.Content); !base[n] && !have[n] && !strings.Contains(c.name, "cosmetic") && !strings.Contains(c.name, "differing only") {
						t.Errorf("%s (swapped %v): added %q is lost", c.name, swap, e.Content)
					}
				}
			}
		}
	}
}

func TestNorm(t *testing.T) {
	for in, want := range map[string]string{
		"Use tabs.":               "use tabs",
		"  use\t tabs  !! ":       "use tabs",
		"Use C++.":                "use c++",
		"Use C.":                  "use c",
		"Pass --force, always;":   "pass --force, always",
		"Why not Redis?":          "why not redis?",
		"Java 1.8.":               "java 1.8",
		"ÉCRIRE EN FRANÇAIS。":     "écrire en français",
		"nbsp\u00a0and\u3000ideo": "nbsp and ideo",
		"":                        "",
	} {
		if got := Norm(in); got != want {
			t.Errorf("Norm(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzMerge(f *testing.F) {
	for _, c := range mergeCases {
		f.Add(c.base, c.ours, c.theirs)
	}
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		r := Merge([]byte(base), []byte(ours), []byte(theirs))
		checkValid(t, r, []byte(ours), []byte(theirs))
		if bytes.HasPrefix([]byte(ours), []byte(bom)) != bytes.HasPrefix(r.Data, []byte(bom)) && base != ours {
			t.Errorf("BOM not kept from ours")
		}
	})
}
