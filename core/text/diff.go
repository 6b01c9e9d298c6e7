package text

// The difference between two versions of a file, line by line: a unified
// diff, so that cleanup can show its plan before it writes anything, and
// the shortest edit script behind it, which the checker and the language
// server's edits also match lines with.

import (
	"fmt"
	"strings"
)

type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

type op struct {
	kind opKind
	a, b int // line indexes in old and new
}

// LinesWithEnds splits text into lines, each keeping its terminator, so that a
// change of line ending shows up as a change.
func LinesWithEnds(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// UnifiedDiff returns a unified diff of old and new with the given context lines,
// or "" when they are equal.
func UnifiedDiff(oldName, newName, oldText, newText string, context int) string {
	a, b := LinesWithEnds(oldText), LinesWithEnds(newText)
	ops := script(a, b)
	var out strings.Builder
	for i := 0; i < len(ops); {
		if ops[i].kind == opEqual {
			i++
			continue
		}
		// A hunk starts context lines before the change and runs until a
		// stretch of more than 2*context equal lines.
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != opEqual {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == opEqual {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
		}
		writeHunk(&out, ops[start:end], a, b)
		i = end
	}
	return out.String()
}

func writeHunk(out *strings.Builder, ops []op, a, b []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, o := range ops {
		if o.kind != opInsert {
			if aStart < 0 {
				aStart = o.a
			}
			aLen++
		}
		if o.kind != opDelete {
			if bStart < 0 {
				bStart = o.b
			}
			bLen++
		}
	}
	if aStart < 0 {
		aStart = ops[0].a - 1
	}
	if bStart < 0 {
		bStart = ops[0].b - 1
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(aStart, aLen), rangeOf(bStart, bLen))
	for _, o := range ops {
		line := ""
		if o.kind == opInsert {
			line = b[o.b]
		} else {
			line = a[o.a]
		}
		out.WriteByte(byte(o.kind))
		out.WriteString(strings.TrimSuffix(line, "\n"))
		out.WriteByte('\n')
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

func rangeOf(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// MatchLines finds a shortest edit script between a and b of at most maxD
// insertions and deletions and calls same(i, j) for every kept pair a[i] ==
// b[j]; it reports false, having called nothing, when the script is longer.
// Time O((len(a)+len(b))·D), space O(D²): it serves both the cleanup
// diff and the server's incremental check, which must give up early when a
// file changed too much to be worth matching.
func MatchLines(a, b []string, maxD int, same func(i, j int)) bool {
	n, m := len(a), len(b)
	maxD = min(maxD, n+m)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int // trace[d] is v[off-d : off+d+1] before step d
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				backtrack(a, b, trace, d, same)
				return true
			}
		}
	}
	return false
}

// backtrack walks the trace of Match from the end of both sequences.
func backtrack(a, b []string, trace [][]int, dEnd int, same func(i, j int)) {
	x, y := len(a), len(b)
	for d := dEnd; d > 0; d-- {
		tv := trace[d] // v before step d, indexed k+d
		at := func(k int) int { return tv[k+d] }
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			same(x, y)
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x--
		y--
		same(x, y)
	}
}
