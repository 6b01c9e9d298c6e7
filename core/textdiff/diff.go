// Package textdiff renders the difference between two versions of a file as
// a unified diff, so that cleanup can show its plan before it writes anything.
package textdiff

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

// Lines splits text into lines, each keeping its terminator, so that a
// change of line ending shows up as a change.
func Lines(s string) []string {
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

// Unified returns a unified diff of old and new with the given context lines,
// or "" when they are equal.
func Unified(oldName, newName, oldText, newText string, context int) string {
	a, b := Lines(oldText), Lines(newText)
	ops := myers(a, b)
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

// myers computes a shortest edit script (Myers 1986, greedy forward search
// with a trace for backtracking). Memory files are small and edits few, so the
// O((N+M)·D) time is what matters, not the trace's O(D²) space.
func myers(a, b []string) []op {
	n, m := len(a), len(b)
	maxD := n + m
	offset := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		snapshot := make([]int, len(v))
		copy(snapshot, v)
		trace = append(trace, snapshot)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, d, offset)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, a, b []string, d, offset int) []op {
	x, y := len(a), len(b)
	var rev []op
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[offset+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, op{opEqual, x, y})
		}
		if x == prevX {
			y--
			rev = append(rev, op{opInsert, x, y})
		} else {
			x--
			rev = append(rev, op{opDelete, x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, op{opEqual, x, y})
	}
	ops := make([]op, len(rev))
	for i := range rev {
		ops[i] = rev[len(rev)-1-i]
	}
	return ops
}
