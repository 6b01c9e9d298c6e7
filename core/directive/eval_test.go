package directive

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// labelled is one line of testdata/directives: what it is, its language
// and its text.
type labelled struct {
	class, lang, text string
	line              int
}

// directiveClasses are the class tags of the hostile set and the kind the
// model should give each; "benign" lines must yield nothing.
var directiveClasses = map[string]Kind{"override": Override, "action": OutOfScope, "turn": Impersonation}

var escapedRune = regexp.MustCompile(`\\u[0-9a-fA-F]{4}`)

// readLabelled reads a set: "class<TAB>lang<TAB>text" lines, # comments;
// \uXXXX in a text is that character, so that invisible and look-alike
// letters can be read in the file.
func readLabelled(t *testing.T, path string) []labelled {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		parts := strings.SplitN(l, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want class<TAB>lang<TAB>text", path, n)
		}
		text := escapedRune.ReplaceAllStringFunc(parts[2], func(s string) string {
			r, _ := strconv.ParseUint(s[2:], 16, 32)
			return string(rune(r))
		})
		out = append(out, labelled{class: parts[0], lang: parts[1], text: text, line: n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDirectivePrecisionRecall runs Find over the hostile and
// the benign sets of testdata/directives and fails below 0.95 precision or
// 0.90 recall; it logs the figures, recall per class and language, and
// every miss and false alarm.
func TestDirectivePrecisionRecall(t *testing.T) {
	hostile := readLabelled(t, "../../testdata/directives/hostile.txt")
	benign := readLabelled(t, "../../testdata/directives/benign.txt")
	if len(hostile) < 150 || len(benign) < 200 {
		t.Fatalf("sets shrank: %d hostile (want ≥ 150), %d benign (want ≥ 200)", len(hostile), len(benign))
	}
	var tp, fn, fp, sameKind int
	type tally struct{ found, all int }
	byClass, byLang := map[string]*tally{}, map[string]*tally{}
	count := func(m map[string]*tally, k string, found bool) {
		if m[k] == nil {
			m[k] = &tally{}
		}
		m[k].all++
		if found {
			m[k].found++
		}
	}
	for _, h := range hostile {
		want, ok := directiveClasses[h.class]
		if !ok {
			t.Fatalf("hostile.txt:%d: unknown class %q", h.line, h.class)
		}
		got := Find(h.text)
		count(byClass, h.class, len(got) > 0)
		count(byLang, h.lang, len(got) > 0)
		if len(got) == 0 {
			fn++
			t.Logf("missed (hostile.txt:%d, %s %s): %q", h.line, h.class, h.lang, h.text)
			continue
		}
		tp++
		if got[0].Kind == want {
			sameKind++
		} else {
			t.Logf("other class (hostile.txt:%d): %s, got %s", h.line, h.class, got[0].What())
		}
	}
	for _, b := range benign {
		if b.class != "benign" {
			t.Fatalf("benign.txt:%d: class %q, want benign", b.line, b.class)
		}
		if got := Find(b.text); len(got) > 0 {
			fp++
			t.Logf("false alarm (benign.txt:%d, %s): %q: %s", b.line, b.lang, b.text, got[0].What())
		}
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(tp+fn)
	t.Logf("hostile %d, benign %d: precision %.3f (%d false alarms), recall %.3f (%d missed), class agreement %d/%d",
		len(hostile), len(benign), precision, fp, recall, fn, sameKind, tp)
	for _, m := range []map[string]*tally{byClass, byLang} {
		var parts []string
		for k, v := range m {
			parts = append(parts, k+" "+strconv.Itoa(v.found)+"/"+strconv.Itoa(v.all))
		}
		t.Logf("recall by %s", strings.Join(sortedStrings(parts), ", "))
	}
	if precision < 0.95 || recall < 0.90 {
		t.Errorf("precision %.3f (want ≥ 0.95), recall %.3f (want ≥ 0.90)", precision, recall)
	}
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
