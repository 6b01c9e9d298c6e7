package text

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// checkScript fails unless ops turn a into b: every line of a is kept or
// deleted once, every line of b kept or inserted once, in order, and kept
// lines are equal.
func checkScript(t *testing.T, a, b []string, ops []op) int {
	t.Helper()
	i, j, edits := 0, 0, 0
	for _, o := range ops {
		switch o.kind {
		case opEqual:
			if o.a != i || o.b != j || a[i] != b[j] {
				t.Fatalf("bad equal %+v at %d,%d", o, i, j)
			}
			i++
			j++
		case opDelete:
			if o.a != i {
				t.Fatalf("bad delete %+v at %d", o, i)
			}
			i++
			edits++
		case opInsert:
			if o.b != j {
				t.Fatalf("bad insert %+v at %d", o, j)
			}
			j++
			edits++
		}
	}
	if i != len(a) || j != len(b) {
		t.Fatalf("script covers %d/%d and %d/%d lines", i, len(a), j, len(b))
	}
	return edits
}

// lcs is the length of a longest common subsequence, by dynamic programming.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func randomLines(r *rand.Rand, n, alphabet int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("l%d\n", r.IntN(alphabet))
	}
	return out
}

// On small random inputs the script is valid; the middle-snake search
// alone (no anchors, which trade minimality for speed) is minimal, as
// Myers' algorithm is.
func TestScriptValidAndMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		alphabet := 2 + n%7
		a, b := randomLines(r, r.IntN(40), alphabet), randomLines(r, r.IntN(40), alphabet)
		checkScript(t, a, b, script(a, b))
		edits := checkScript(t, a, b, scriptWith(a, b, true))
		if want := len(a) + len(b) - 2*lcs(a, b); edits != want {
			t.Fatalf("case %d: %d edits, the minimum is %d\na=%q\nb=%q", n, edits, want, a, b)
		}
	}
}

// The shapes that broke the stored-trace Myers: a file pruned to a few
// lines, everything different, everything the same, thousands of identical
// lines. Memory stays linear: a 60,000-line file pruned to 40 lines.
func TestScriptLargeInputs(t *testing.T) {
	const n = 60000
	big := make([]string, n)
	for i := range big {
		big[i] = fmt.Sprintf("- entry %d about something\n", i)
	}
	var pruned []string
	for i := 0; i < n; i += n / 40 {
		pruned = append(pruned, big[i])
	}
	other := make([]string, n)
	for i := range other {
		other[i] = fmt.Sprintf("- another %d\n", i)
	}
	same := make([]string, n)
	for i := range same {
		same[i] = "- the same line\n"
	}
	cases := []struct {
		name string
		a, b []string
	}{
		{"pruned", big, pruned},
		{"all different", big, other},
		{"all the same", same, same[:n/2]},
		{"identical lines and one change", same, append(append(append([]string{}, same[:n/2]...), "- x\n"), same[n/2+1:]...)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ops := script(c.a, c.b)
			runtime.ReadMemStats(&after)
			checkScript(t, c.a, c.b, ops)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 200<<20 {
				t.Errorf("allocated %d MiB", grew>>20)
			}
		})
	}
	if d := UnifiedDiff("a", "b", strings.Join(big, ""), strings.Join(pruned, ""), 1); strings.Count(d, "\n-") != n-len(pruned) {
		t.Errorf("the unified diff of the pruned file does not delete %d lines", n-len(pruned))
	}
}
