package similar

import (
	"slices"
	"strconv"
	"strings"
)

// exactVerdict is what Classify says of two texts of one exact class.
var exactVerdict = Verdict{Action: Skip, Similarity: 1, Exact: true, Kind: KindDuplicate, Reason: "identical text"}

// Exact is Classify's first test: an exact duplicate has the same
// normalised text, the same effective sign and the same values. It is an
// equivalence, which is why Pairs can report an exact class of n texts with
// n−1 pairs instead of n(n−1)/2.
func Exact(a, b *Text) bool {
	return a.exactKey() == b.exactKey() && a.effectiveSign() == b.effectiveSign() && slices.Equal(a.Numbers(), b.Numbers())
}

// ExactClass is a key two texts share exactly when Exact holds.
func ExactClass(t *Text) string {
	return t.exactKey() + "\x00" + strconv.Itoa(t.effectiveSign()) + "\x00" + strings.Join(t.Numbers(), "\x00")
}

// ExactStars pairs each text that is an exact duplicate of an earlier one
// with the earliest text of its exact class, sorted by (I, J): the exact
// pairs of Pairs and of a Checker's update (see Pairs).
func ExactStars(texts []*Text) []Pair {
	members := make([]int32, len(texts))
	for i := range members {
		members[i] = int32(i)
	}
	out := exactStars(nil, texts, members)
	sortPairs(out)
	return out
}

// ExactStarsAfter is ExactStars(texts) after an edit, given kept, the exact
// pairs of the texts before it whose both ends are still there (renumbered,
// order kept), and touched, the texts that came in or went. A class none of
// whose texts came or went has the same earliest text and the same pairs;
// the classes sharing an exactKey with a touched text are paired afresh.
// An editor's check then scans the texts once without hashing each.
func ExactStarsAfter(texts []*Text, kept []Pair, touched []*Text) []Pair {
	keys := make(map[string]bool, len(touched))
	for _, t := range touched {
		keys[t.exactKey()] = true
	}
	out := make([]Pair, 0, len(kept))
	for _, p := range kept {
		if !keys[texts[p.J].exactKey()] {
			out = append(out, p)
		}
	}
	var members []int32
	for i, t := range texts {
		if keys[t.exactKey()] {
			members = append(members, int32(i))
		}
	}
	out = exactStars(out, texts, members)
	sortPairs(out)
	return out
}

// exactStars appends, for members (ascending), the pair of each text with
// the earliest member of its exact class, unsorted. The classes sharing an
// exactKey are few (they differ in sign or values), so each key keeps a short
// list of its classes' first members.
func exactStars(out []Pair, texts []*Text, members []int32) []Pair {
	firsts := make(map[string][]int32, len(members))
	for _, j := range members {
		tj := texts[j]
		fs := firsts[tj.exactKey()]
		k := slices.IndexFunc(fs, func(f int32) bool { return Exact(texts[f], tj) })
		if k < 0 {
			firsts[tj.exactKey()] = append(fs, j)
			continue
		}
		out = append(out, Pair{I: int(fs[k]), J: int(j), Verdict: exactVerdict})
	}
	return out
}

// twinNodes collapses the members of a group before the candidate search:
// a node is the texts that agree in everything the search reads (exactKey,
// normCore, keyword and Core sets) and in sign and values, so all of a node
// is one exact class and a node is a candidate of another exactly when its
// first text is. Within a node, twins are texts with the same raw content,
// whose analyses, and so verdicts, are the same. A thousand copies of one
// entry are then one node of one twin: their candidates are found once and
// judged once per pair of twins, not once per pair of copies.
type twinNodes struct {
	texts  []*Text
	node   []int32     // node[i]: the node of member i, by its first member
	next   []int32     // next[i]: the next member of i's node, -1 at the end
	last   []int32     // last[f]: the last member so far of the node first f
	size   []int32     // size[f]: the number of members of the node first f
	twins  [][][]int32 // twins of a node with more than one member, by first
	firsts []int32     // the first member of each node, ascending
}

func newTwinNodes(texts []*Text, members []int32) *twinNodes {
	tn := &twinNodes{texts: texts, node: make([]int32, len(texts)), next: make([]int32, len(texts)),
		last: make([]int32, len(texts)), size: make([]int32, len(texts))}
	byKey := make(map[string][]int32, len(members))
	for _, j := range members {
		tj := texts[j]
		fs := byKey[tj.exactKey()]
		k := slices.IndexFunc(fs, func(f int32) bool { return sameNode(texts[f], tj) })
		tn.next[j] = -1
		if k < 0 {
			byKey[tj.exactKey()] = append(fs, j)
			tn.node[j], tn.last[j], tn.size[j] = j, j, 1
			tn.firsts = append(tn.firsts, j)
			continue
		}
		f := fs[k]
		tn.node[j] = f
		tn.next[tn.last[f]] = j
		tn.last[f] = j
		tn.size[f]++
	}
	return tn
}

// sameNode: a and b are one exact class and the candidate search cannot
// tell them apart.
func sameNode(a, b *Text) bool {
	return Exact(a, b) && a.normCore() == b.normCore() &&
		slices.Equal(a.Keys(), b.Keys()) && slices.Equal(a.Core(), b.Core())
}

// twinsOf lists the twins of node f, each its members ascending, in the
// order of their first members.
func (tn *twinNodes) twinsOf(f int32) [][]int32 {
	if tn.next[f] < 0 {
		return [][]int32{{f}}
	}
	if tn.twins == nil {
		tn.twins = make([][][]int32, len(tn.texts))
	}
	if tn.twins[f] == nil {
		at := map[string]int{}
		var ts [][]int32
		for m := f; m >= 0; m = tn.next[m] {
			k, ok := at[tn.texts[m].Raw]
			if !ok {
				k = len(ts)
				at[tn.texts[m].Raw] = k
				ts = append(ts, nil)
			}
			ts[k] = append(ts[k], m)
		}
		tn.twins[f] = ts
	}
	return tn.twins[f]
}

// judge appends the related pairs between the members of nodes a and b
// (a ≠ b), which the candidate search offered as a pair of first members,
// and says how many times it called Classify. Pairs of one exact class are
// left to exactStars. Each pair of twins is classified at most once in each
// direction (the earlier text is the old one), whatever the number of
// copies.
func (tn *twinNodes) judge(out []Pair, a, b int32, th Thresholds) ([]Pair, int) {
	n := 0
	for _, ta := range tn.twinsOf(a) {
		for _, tb := range tn.twinsOf(b) {
			x, y := tn.texts[ta[0]], tn.texts[tb[0]]
			if Exact(x, y) {
				continue
			}
			var fwd, back Verdict // x old and y new, and the other way
			if ta[0] < tb[len(tb)-1] {
				fwd = Classify(x, y, th)
				n++
			}
			if tb[0] < ta[len(ta)-1] {
				back = Classify(y, x, th)
				n++
			}
			if !fwd.Related() && !back.Related() {
				continue
			}
			for _, i := range ta {
				for _, j := range tb {
					switch {
					case i < j && fwd.Related():
						out = append(out, Pair{I: int(i), J: int(j), Verdict: fwd})
					case j < i && back.Related():
						out = append(out, Pair{I: int(j), J: int(i), Verdict: back})
					}
				}
			}
		}
	}
	return out, n
}
