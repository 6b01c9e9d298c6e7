package search

// A light, deterministic English stemmer.
//
// It is a trimmed Porter stemmer: steps 1a (plurals), 1b (-ed/-ing with the
// e-restoring fix-ups), 1c (y→i), 5a (final e) and 5b (-ll), plus two
// conservative extras: -ly (long words only) and -ment (when at least five
// letters remain). The Porter steps 2–4 (-ational, -izer, -ive …) are left out
// on purpose: they conflate too much for a search box.
//
// The design goal is that every inflection of a word lands on the same stem:
// cache, caches, cached, caching → "cache"; use, uses, used, using → "us";
// build, builds, building → "build"; run, runs, running → "run". Stems are
// index keys, not words; only their equality matters.
//
// Only words made of ASCII letters a–z, longer than two letters, are stemmed.
// Anything else (digits, versions, other scripts) is returned unchanged.

// stem stems w in place and returns the result, which shares w's storage and
// is never longer than w. w must be lower-case.
func stem(w []byte) []byte {
	if len(w) <= 2 {
		return w
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return w
		}
	}

	// Step 1a: plurals.
	switch {
	case hasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case hasSuffix(w, "ies"):
		w = w[:len(w)-2] // queries → queri, tries → tri
	case hasSuffix(w, "ss"), hasSuffix(w, "us"), hasSuffix(w, "is"):
		// class, status, analysis: not plurals.
	case hasSuffix(w, "s") && len(w) >= 4:
		w = w[:len(w)-1] // has, was, gas, yes stay
	}

	// Step 1b: -eed, -ed, -ing.
	switch {
	case hasSuffix(w, "eed"):
		if measure(w[:len(w)-3]) > 0 {
			w = w[:len(w)-1] // agreed → agree; need, speed stay
		}
	case hasSuffix(w, "ed") && hasVowel(w[:len(w)-2]):
		w = fixup(w[:len(w)-2])
	case hasSuffix(w, "ing") && hasVowel(w[:len(w)-3]):
		w = fixup(w[:len(w)-3]) // string, thing, ring stay
	}

	// -ly on long words: automatically → automatic, quickly → quick.
	// Leaves apply/supply (-ply), family/easily (-ily) and short words alone.
	switch {
	case hasSuffix(w, "ically") && len(w) >= 8:
		w = w[:len(w)-4]
	case hasSuffix(w, "ly") && len(w) >= 6 && !hasSuffix(w, "ply") && !hasSuffix(w, "ily"):
		w = w[:len(w)-2]
	}

	// -ment when at least five letters remain: deployment → deploy,
	// development → develop; comment, document, moment, argument stay.
	if hasSuffix(w, "ment") && len(w)-4 >= 5 {
		w = w[:len(w)-4]
	}

	// Step 1c: y → i after at least two letters (query/queries → queri,
	// try/tries/tried → tri). "by", "my" are too short to reach here.
	if len(w) >= 3 && w[len(w)-1] == 'y' {
		w[len(w)-1] = 'i'
	}

	// Step 5a: final e (cache stays: c-v-c; use → us, configure → configur).
	if len(w) >= 3 && w[len(w)-1] == 'e' {
		base := w[:len(w)-1]
		if m := measure(base); m > 1 || (m == 1 && !endsCVC(base)) {
			w = base
		}
	}

	// Step 5b: -ll after a long stem: install → instal, controll(ing) → control.
	if len(w) >= 2 && w[len(w)-1] == 'l' && w[len(w)-2] == 'l' && measure(w) > 1 {
		w = w[:len(w)-1]
	}
	return w
}

// fixup is Porter's step 1b tail, applied after removing -ed or -ing.
func fixup(w []byte) []byte {
	switch {
	case hasSuffix(w, "at"), hasSuffix(w, "bl"), hasSuffix(w, "iz"):
		return append(w, 'e') // created → create, enabled → enable
	case endsDouble(w):
		switch w[len(w)-1] {
		case 'l', 's', 'z':
			return w // installed → install, passed → pass
		}
		return w[:len(w)-1] // running → run, committed → commit
	case measure(w) == 1 && endsCVC(w):
		return append(w, 'e') // caching → cache, hoped → hope
	}
	return w
}

func hasSuffix(w []byte, suf string) bool {
	return len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf
}

// isCons reports whether w[i] is a consonant in Porter's sense: not a vowel,
// and 'y' is a consonant only at the start or after a vowel.
func isCons(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isCons(w, i-1)
	}
	return true
}

// measure is Porter's m: the number of vowel-consonant sequences in
// [C](VC)^m[V].
func measure(w []byte) int {
	n, i := 0, 0
	for i < len(w) && isCons(w, i) {
		i++
	}
	for i < len(w) {
		for i < len(w) && !isCons(w, i) {
			i++
		}
		if i >= len(w) {
			break
		}
		for i < len(w) && isCons(w, i) {
			i++
		}
		n++
	}
	return n
}

func hasVowel(w []byte) bool {
	for i := range w {
		if !isCons(w, i) {
			return true
		}
	}
	return false
}

// endsCVC: consonant-vowel-consonant at the end, the last not w, x or y.
func endsCVC(w []byte) bool {
	n := len(w)
	if n < 3 || !isCons(w, n-3) || isCons(w, n-2) || !isCons(w, n-1) {
		return false
	}
	switch w[n-1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

func endsDouble(w []byte) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isCons(w, n-1)
}
