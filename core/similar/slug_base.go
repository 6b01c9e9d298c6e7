package similar

import "fmt"

// SlugBase is the slug GenerateSlug derives from content before it looks at
// the slugs already taken: a function of the content alone, so a caller that
// checks the same entries again and again may keep it.
func SlugBase(content string) string { return slugBase(content) }

// SlugFrom finishes GenerateSlug from a SlugBase: GenerateSlug(content, taken)
// == SlugFrom(SlugBase(content), taken).
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
