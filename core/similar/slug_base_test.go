package similar

import "testing"

// TestSlugFromBase: the two halves make GenerateSlug.
func TestSlugFromBase(t *testing.T) {
	g := newEntryGen(3, 200)
	taken := map[string]bool{}
	isTaken := func(s string) bool { return taken[s] }
	for range 2000 {
		c := g.next()
		want := GenerateSlug(c, isTaken)
		if got := SlugFrom(slugBase(c), isTaken); got != want {
			t.Fatalf("%q: SlugFrom(slugBase) = %q, GenerateSlug = %q", c, got, want)
		}
		if got, want := SlugFrom(slugBase(c), nil), GenerateSlug(c, nil); got != want {
			t.Fatalf("%q, nothing taken: %q, want %q", c, got, want)
		}
		taken[want] = true
	}
}
