package similar

import "fmt"

// SlugFrom finishes GenerateSlug from the base slug of a content
// (Slugger.Base): GenerateSlug(content, taken) == SlugFrom(base, taken).
func SlugFrom(base string, taken func(string) bool) string {
	if taken == nil || !taken(base) {
		return base
	}
	for n := 2; ; n++ {
		if s := fmt.Sprintf("%s-%d", base, n); !taken(s) {
			return s
		}
	}
}
