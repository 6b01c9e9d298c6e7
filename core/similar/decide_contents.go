package similar

import "math"

// DecideContents is Decide over raw contents, with the same result as
// Decide(new, AnalyzeAll(contents), th) but without analysing every entry.
//
// A store into a category of thousands of entries would otherwise spend most
// of its time analysing entries that cannot matter. For an ASCII entry one
// cheap pass gives HackLM's keywords exactly — and so the exact similarity —
// plus two necessary conditions for the other verdicts: an exact duplicate
// must have the same letters and digits in the same order, and a reversal
// must share at least reversalMin of the new text's Core. Only entries that
// pass one of those tests (and non-ASCII entries) are analysed in full; the
// rest are a Store at their exact similarity, which is what Classify returns.
func DecideContents(new *Text, contents []string, th Thresholds) (match int, v Verdict) {
	if len(new.Keys()) == 0 || len(new.Core()) == 0 || new.Norm == "" {
		// Nothing cheap can rule an entry out: compare everything.
		texts := make([]*Text, len(contents))
		for i, c := range contents {
			texts[i] = Analyze(c)
		}
		return Decide(new, texts, th)
	}
	alnum := alnumOf(new.Norm)
	coreNeed := storeFloor(new)
	verdicts := make([]Verdict, len(contents))
	judge := func(from, to int) {
		var q quickScan
		for i := from; i < to; i++ {
			sim, inCore, sameAlnum, ok := q.scan(contents[i], new.Keys(), new.Core(), alnum)
			if ok && !sameAlnum && sim < th.Update && sim < th.Skip && inCore < coreNeed {
				verdicts[i] = Verdict{Action: Store, Similarity: sim}
			} else {
				verdicts[i] = StoreVerdict(Analyze(contents[i]), new, th)
			}
		}
	}
	parallel(len(contents), judge)
	return strongest(verdicts)
}

// coreCandidates is how many of a Core of n words an entry must hold to be
// a candidate reversal.
func coreCandidates(n int) int { return int(math.Ceil(coreCandidateMin*float64(n) - 1e-9)) }

// storeFloor is how many of new's Core words an entry must hold before
// Classify can call it more than a Store at a similarity below both
// thresholds: a candidate reversal (coreCandidates), or a swap, which
// shares all of new's Core but one or two words, and two at least
// (swapCandidate).
func storeFloor(new *Text) int {
	need := coreCandidates(len(new.Core()))
	if n := len(new.Core()); n >= 3 && n <= swapCoreMax(2) {
		need = min(need, max(2, n-2))
	}
	return need
}

// strongest is the decision of a store over each entry's verdict. The
// reduction stays in file order, so ties and the first exact duplicate come
// out as in Decide.
func strongest(verdicts []Verdict) (match int, v Verdict) {
	match, v = -1, Verdict{Action: Store}
	for i, cv := range verdicts {
		if cv.Exact {
			return i, cv
		}
		if stronger(cv, v) {
			match, v = i, cv
		}
	}
	return match, v
}

// alnumOf keeps the ASCII letters and digits of a normalised text: equal
// normalised texts have equal letter-and-digit sequences.
func alnumOf(norm string) []byte {
	out := make([]byte, 0, len(norm))
	for i := 0; i < len(norm); i++ {
		if c := norm[i]; 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c >= 0x80 {
			out = append(out, c)
		}
	}
	return out
}

// quickScan reads one ASCII content the way HackLM extracts keywords
// (lowercase; keep a–z, 0–9 and '-'; split on whitespace; longer than two
// characters; not a stop word). Its buffers are reused across contents, and
// nothing is allocated per content: this loop runs once per entry of the
// category on every store.
type quickScan struct {
	buf  []byte // the content's distinct keywords, back to back
	ends []int  // ends[i] is where keyword i ends in buf
}

// scan returns the Jaccard of content's keywords with keys, how many of core
// are among them, and whether content's letters and digits equal alnum. ok is
// false for a content that is not ASCII, which the caller must analyse.
func (q *quickScan) scan(content string, keys, core []string, alnum []byte) (sim float64, inCore int, sameAlnum, ok bool) {
	q.buf, q.ends = q.buf[:0], q.ends[:0]
	inKeys, pos, start := 0, 0, 0
	sameAlnum = true
	for i := 0; i <= len(content); i++ {
		c := byte(' ')
		if i < len(content) {
			c = content[i]
		}
		switch {
		case c >= 0x80:
			return 0, 0, false, false
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			if q.endWord(start) {
				t := q.buf[start:]
				if member(keys, t) {
					inKeys++
					if member(core, t) {
						inCore++
					}
				}
			}
			start = len(q.buf)
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if pos >= len(alnum) || alnum[pos] != c {
				sameAlnum = false
			}
			pos++
			q.buf = append(q.buf, c)
		} else if c == '-' {
			q.buf = append(q.buf, c)
		}
	}
	sameAlnum = sameAlnum && pos == len(alnum)
	if inKeys == 0 {
		return 0, inCore, sameAlnum, true
	}
	return float64(inKeys) / float64(len(keys)+len(q.ends)-inKeys), inCore, sameAlnum, true
}

// endWord closes the word buf[start:]: it is kept (and true returned) if it
// is a keyword not seen before in this content, else dropped from buf.
func (q *quickScan) endWord(start int) bool {
	t := q.buf[start:]
	if len(t) <= 2 || lookupWord(t)&fStop != 0 {
		q.buf = q.buf[:start]
		return false
	}
	prev := 0
	for _, end := range q.ends {
		if string(q.buf[prev:end]) == string(t) {
			q.buf = q.buf[:start]
			return false
		}
		prev = end
	}
	q.ends = append(q.ends, len(q.buf))
	return true
}

// member reports whether t is in the sorted slice; keyword lists are short,
// so a linear scan beats a binary search.
func member(sorted []string, t []byte) bool {
	for _, s := range sorted {
		if s == string(t) {
			return true
		}
	}
	return false
}
