package text

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCommonPrefixAndSuffix holds the block-wise comparisons to a byte-wise
// one, across block boundaries (two copies of a 10 KB text, one changed
// at a random place or cut).
func TestCommonPrefixAndSuffix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		a := bytes.Repeat([]byte("- entry\n"), 1+r.IntN(1300))
		b := bytes.Clone(a)
		switch r.IntN(3) {
		case 0:
			b[r.IntN(len(b))] = 'x'
		case 1:
			b = b[r.IntN(len(b)):]
		default:
			b = b[:r.IntN(len(b))]
		}
		var pre, suf int
		for pre < min(len(a), len(b)) && a[pre] == b[pre] {
			pre++
		}
		for suf < min(len(a), len(b)) && a[len(a)-1-suf] == b[len(b)-1-suf] {
			suf++
		}
		if got := CommonPrefix(a, b); got != pre {
			t.Fatalf("CommonPrefix = %d, want %d", got, pre)
		}
		if got := CommonSuffix(a, b); got != suf {
			t.Fatalf("CommonSuffix = %d, want %d", got, suf)
		}
	}
}
