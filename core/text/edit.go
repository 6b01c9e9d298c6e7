package text

import (
	"fmt"
	"sort"
)

// Edit replaces the bytes in [Start, End) with New. Core produces edits rather
// than rewritten files so that the language server can send them to an editor
// and the CLI can apply them to disk from the same value.
type Edit struct {
	Start int
	End   int
	New   string
}

// Apply returns src with every edit applied. Edits may come in any order but
// must not overlap (two insertions at the same offset keep their given order).
func Apply(src []byte, edits []Edit) ([]byte, error) {
	sorted, err := Sorted(edits, len(src))
	if err != nil {
		return nil, err
	}
	grow := 0
	for _, e := range sorted {
		grow += len(e.New) - (e.End - e.Start)
	}
	out := make([]byte, 0, len(src)+max(grow, 0))
	last := 0
	for _, e := range sorted {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// Sorted validates edits against a buffer of length n and returns them in
// application order.
func Sorted(edits []Edit, n int) ([]Edit, error) {
	sorted := make([]Edit, len(edits))
	copy(sorted, edits)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	prevEnd := 0
	for i, e := range sorted {
		if e.Start < 0 || e.End < e.Start || e.End > n {
			return nil, fmt.Errorf("edit [%d,%d) is outside the buffer (0..%d)", e.Start, e.End, n)
		}
		if i > 0 && e.Start < prevEnd {
			return nil, fmt.Errorf("edit [%d,%d) overlaps the previous edit ending at %d", e.Start, e.End, prevEnd)
		}
		prevEnd = e.End
	}
	return sorted, nil
}
