package text

// CodeSpan is an inline code span: Outer covers the backticks, Inner the
// content.
type CodeSpan struct{ Outer, Inner Span }

// CodeSpans returns the inline code spans of s (CommonMark: a run of n
// backticks closed by the next run of exactly n). An unclosed run is literal
// text. Runs are listed once and matched by length, so the cost stays
// linear however many runs are left unclosed.
func CodeSpans(s string) []CodeSpan {
	type run struct{ at, n int }
	var runs []run
	byLen := map[int][]int{} // run length → indexes into runs, in order
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := runOf(s, i, '`')
		byLen[n] = append(byLen[n], len(runs))
		runs = append(runs, run{i, n})
		i += n
	}
	var out []CodeSpan
	next := map[int]int{} // run length → position in byLen[length] not yet passed
	for i := 0; i < len(runs); i++ {
		r := runs[i]
		same := byLen[r.n]
		k := next[r.n]
		for k < len(same) && same[k] <= i {
			k++
		}
		next[r.n] = k
		if k == len(same) {
			continue // unclosed: literal backticks
		}
		c := runs[same[k]]
		out = append(out, CodeSpan{Outer: Span{r.at, c.at + c.n}, Inner: Span{r.at + r.n, c.at}})
		i = same[k]
	}
	return out
}

func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}
