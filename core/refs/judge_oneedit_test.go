package refs

import "testing"

// TestOneEditApartIsEditDistanceOne: the cheap test slipOf uses agrees with
// the edit distance on every pair of a small alphabet's short strings.
func TestOneEditApartIsEditDistanceOne(t *testing.T) {
	var words []string
	var grow func(prefix string)
	grow = func(prefix string) {
		words = append(words, prefix)
		if len(prefix) == 4 {
			return
		}
		for _, c := range "ab." {
			grow(prefix + string(c))
		}
	}
	grow("")
	for _, a := range words {
		for _, b := range words {
			if got, want := oneEditApart(a, b), editDistance(a, b) == 1; got != want {
				t.Fatalf("oneEditApart(%q, %q) = %v, editDistance says %v", a, b, got, want)
			}
		}
	}
}
