package refs

import "sort"

// nearest returns up to k names closest to target by edit distance, nearest
// first (ties by name). A name that contains the target or is contained in
// it counts as one edit away (`e2e` → `test:e2e`). Names more than
// max(2, len(target)/2) edits away are left out: a list of unrelated names
// does not help.
func nearest(target string, names []string, k int) []string {
	type scored struct {
		name string
		d    int
	}
	var c []scored
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] || n == target {
			continue
		}
		seen[n] = true
		d := editDistance(target, n)
		if d > 1 && (containsFold(n, target) || containsFold(target, n)) {
			d = 1
		}
		if d > max(2, len(target)/2) {
			continue
		}
		c = append(c, scored{n, d})
	}
	sort.Slice(c, func(i, j int) bool {
		if c[i].d != c[j].d {
			return c[i].d < c[j].d
		}
		return c[i].name < c[j].name
	})
	out := make([]string, 0, min(k, len(c)))
	for i := 0; i < len(c) && i < k; i++ {
		out = append(out, c[i].name)
	}
	return out
}

func containsFold(s, sub string) bool {
	if sub == "" || len(sub) > len(s) {
		return false
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFoldASCII(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// editDistance is the Levenshtein distance over bytes (names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
