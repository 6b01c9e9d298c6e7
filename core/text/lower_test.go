package text

import (
	"math/rand/v2"
	"testing"
)

// TestLowerASCII: ASCII capitals lowered, every other byte (other ASCII,
// UTF-8 and invalid bytes alike) kept, so that offsets stay the same.
func TestLowerASCII(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		want := make([]byte, len(b))
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			want[i] = c
		}
		if got := LowerASCII(string(b)); got != string(want) {
			t.Fatalf("LowerASCII(%q) = %q, want %q", b, got, want)
		}
	}
}
