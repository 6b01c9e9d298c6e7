package text

import "sort"

// The unified diff of a cleanup plan compares files of tens of thousands
// of lines that may differ almost everywhere (pruning an over-limit file
// keeps a few dozen of 60,000 entries). Myers' algorithm with a stored
// trace needs memory quadratic in the number of differences (gigabytes
// there), so the script is found in linear space instead:
//
//   - equal prefixes and suffixes are taken off first;
//   - lines that occur exactly once on both sides are anchors, and the
//     longest run of them in the same order on both sides (patience
//     diffing) splits the problem into independent gaps;
//   - a gap without such anchors is split at the middle snake of Myers'
//     divide-and-conquer refinement, which keeps two vectors of the size of
//     the current difference, and recursed into;
//   - a gap whose difference exceeds maxSnakeCost is shown as replaced
//     whole, a valid if not minimal script, so no input costs more than
//     O((N+M)·maxSnakeCost) time.
//
// The script is valid for every input; it is minimal unless an anchor or
// the cost bound says otherwise, which a reader of a diff does not need.

// maxSnakeCost bounds the edit distance one middle-snake search explores.
const maxSnakeCost = 2048

type differ struct {
	a, b []int
	kept [][2]int // matched (i, j) pairs, in increasing order
	// bisectOnly leaves anchors out, for the test that holds the
	// middle-snake search to Myers' minimal scripts.
	bisectOnly bool
}

// script is the edit script of a and b as equal, delete and insert
// operations, deletions before insertions within each change.
func script(a, b []string) []op { return scriptWith(a, b, false) }

func scriptWith(a, b []string, bisectOnly bool) []op {
	ids := map[string]int{}
	intern := func(ls []string) []int {
		out := make([]int, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	d := &differ{a: intern(a), b: intern(b), bisectOnly: bisectOnly}
	d.diff(0, len(a), 0, len(b))
	var ops []op
	i, j := 0, 0
	emit := func(x, y int) {
		for ; i < x; i++ {
			ops = append(ops, op{opDelete, i, j})
		}
		for ; j < y; j++ {
			ops = append(ops, op{opInsert, i, j})
		}
	}
	for _, k := range d.kept {
		emit(k[0], k[1])
		ops = append(ops, op{opEqual, k[0], k[1]})
		i, j = k[0]+1, k[1]+1
	}
	emit(len(a), len(b))
	return ops
}

func (d *differ) keep(i, j int) { d.kept = append(d.kept, [2]int{i, j}) }

// diff matches a[a0:a1] against b[b0:b1], appending matched pairs in order.
func (d *differ) diff(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		d.keep(a0, b0)
		a0++
		b0++
	}
	s := 0
	for a1-s > a0 && b1-s > b0 && d.a[a1-1-s] == d.b[b1-1-s] {
		s++
	}
	a1, b1 = a1-s, b1-s
	if a0 < a1 && b0 < b1 && (d.bisectOnly || !d.patience(a0, a1, b0, b1)) {
		d.bisect(a0, a1, b0, b1)
	}
	for k := range s {
		d.keep(a1+k, b1+k)
	}
}

// patience splits the problem at the longest ordered run of lines unique
// on both sides; it reports false when there is none.
func (d *differ) patience(a0, a1, b0, b1 int) bool {
	type seen struct{ ca, cb, ia, ib int }
	count := map[int]*seen{}
	for i := a0; i < a1; i++ {
		c := count[d.a[i]]
		if c == nil {
			c = &seen{}
			count[d.a[i]] = c
		}
		c.ca++
		c.ia = i
	}
	for j := b0; j < b1; j++ {
		if c := count[d.b[j]]; c != nil {
			c.cb++
			c.ib = j
		}
	}
	var uniq [][2]int
	for _, c := range count {
		if c.ca == 1 && c.cb == 1 {
			uniq = append(uniq, [2]int{c.ia, c.ib})
		}
	}
	if len(uniq) == 0 {
		return false
	}
	sort.Slice(uniq, func(x, y int) bool { return uniq[x][0] < uniq[y][0] })
	anchors := longestIncreasing(uniq)
	pa, pb := a0, b0
	for _, an := range anchors {
		d.diff(pa, an[0], pb, an[1])
		d.keep(an[0], an[1])
		pa, pb = an[0]+1, an[1]+1
	}
	d.diff(pa, a1, pb, b1)
	return true
}

// longestIncreasing is the longest subsequence of pairs (sorted by their
// first value) whose second values increase (patience sorting, n log n).
func longestIncreasing(pairs [][2]int) [][2]int {
	tails := []int{} // index into pairs of the smallest tail of each length
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		k := sort.Search(len(tails), func(t int) bool { return pairs[tails[t]][1] >= p[1] })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([][2]int, len(tails))
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = pairs[k]
	}
	return out
}

// bisect splits the problem at its middle snake and recurses into both
// sides; a problem whose difference exceeds maxSnakeCost, or that would not
// shrink, is left as replaced whole.
func (d *differ) bisect(a0, a1, b0, b1 int) {
	x, y, u, v, ok := d.middleSnake(a0, a1, b0, b1)
	if !ok || (x == a0 && y == b0 && u == a0 && v == b0) || (x == a1 && y == b1) {
		return
	}
	d.diff(a0, x, b0, y)
	for i, j := x, y; i < u; i, j = i+1, j+1 {
		d.keep(i, j)
	}
	d.diff(u, a1, v, b1)
}

// middleSnake finds, as Myers' linear-space refinement does, a snake (a
// run of equal lines, possibly empty) from (x, y) to (u, v) on a shortest
// edit path, by running the search from both ends until they meet. ok is
// false when the ends have not met within maxSnakeCost differences.
func (d *differ) middleSnake(a0, a1, b0, b1 int) (x, y, u, v int, ok bool) {
	n, m := a1-a0, b1-b0
	delta := n - m
	odd := delta&1 != 0
	limit := min((n+m+1)/2, maxSnakeCost)
	off := limit + 1
	vf := make([]int, 2*limit+3) // furthest x of a forward path, by diagonal
	vb := make([]int, 2*limit+3) // the same for the reversed sequences
	for step := 0; step <= limit; step++ {
		for k := -step; k <= step; k += 2 {
			var px int
			if k == -step || k != step && vf[off+k-1] < vf[off+k+1] {
				px = vf[off+k+1]
			} else {
				px = vf[off+k-1] + 1
			}
			py := px - k
			sx := px
			for px < n && py < m && d.a[a0+px] == d.b[b0+py] {
				px++
				py++
			}
			vf[off+k] = px
			if kr := delta - k; odd && kr >= -(step-1) && kr <= step-1 && px+vb[off+kr] >= n {
				return a0 + sx, b0 + sx - k, a0 + px, b0 + py, true
			}
		}
		for kr := -step; kr <= step; kr += 2 {
			var px int
			if kr == -step || kr != step && vb[off+kr-1] < vb[off+kr+1] {
				px = vb[off+kr+1]
			} else {
				px = vb[off+kr-1] + 1
			}
			py := px - kr
			sx := px
			for px < n && py < m && d.a[a1-1-px] == d.b[b1-1-py] {
				px++
				py++
			}
			vb[off+kr] = px
			if k := delta - kr; !odd && k >= -step && k <= step && px+vf[off+k] >= n {
				return a1 - px, b1 - py, a1 - sx, b1 - (sx - kr), true
			}
		}
	}
	return 0, 0, 0, 0, false
}
