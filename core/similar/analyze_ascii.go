package similar

import (
	"strings"
	"sync"
)

// Byte classes of the ASCII pass.
const (
	bLower  = 1 << iota // a–z
	bUpper              // A–Z
	bDigit              // 0–9
	bHyphen             // kept inside keywords, dropped from Norm
	bSpace              // JavaScript whitespace: ends a raw token
	bStop               // . ! ? : at the end of a raw token end a sentence
)

var asciiClass = func() (c [128]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		c[b] = bLower
	}
	for b := 'A'; b <= 'Z'; b++ {
		c[b] = bUpper
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = bDigit
	}
	c['-'] = bHyphen
	for _, b := range "\t\n\v\f\r " {
		c[b] = bSpace
	}
	for _, b := range ".!?:" {
		c[b] = bStop
	}
	return c
}()

// asciiPass is the state of analyzeASCII's single pass. Its buffers are
// recycled through a pool: they are all Analyze would otherwise allocate
// besides the Text itself.
type asciiPass struct {
	table *wordTable // vocab().table, looked up once a text
	buf   []byte     // cleaned words back to back, then Norm
	norm  []byte
	keys  []sortSpan
	core  []sortSpan
	ws    []word
	nums  []string
	// at maps a keyword's start in buf to where the same bytes are in the
	// Text's string: in Norm for a word Norm spells the same (no hyphen, no
	// digit-dot-digit), else -1 until text places it after Norm.
	at []int32

	wordNorm int32 // where the open word starts in norm
	sameNorm bool  // norm spells the open word as buf does

	inWord                 bool
	wordStart              int32
	runes, letters, uppers int
	digits, firstUpper     bool
	sentenceHead           bool
	flips                  int
	vocab, orders          bool
	named                  int // words marked named
}

var asciiPool = sync.Pool{New: func() any { return new(asciiPass) }}

// analyzeASCII is Analyze for all-ASCII text, the common case: one pass over
// the bytes yields the words, keywords, Norm, values and sign that the general
// path gets from several passes over runes. It must agree with the general
// path exactly (TestAnalyzeASCIIMatchesGeneral); ok is false at the first
// non-ASCII byte, and the caller then runs the general path.
func analyzeASCII(s string) (*Text, bool) {
	p := asciiPool.Get().(*asciiPass)
	defer p.release()
	less, ok := p.scan(s)
	if !ok {
		return nil, false
	}
	return p.text(s, less), true
}

// scan makes the pass; less counts the comparators that say "less".
func (p *asciiPass) scan(s string) (less int, ok bool) {
	*p = asciiPass{buf: p.buf[:0], norm: p.norm[:0], keys: p.keys[:0], core: p.core[:0],
		ws: p.ws[:0], nums: p.nums[:0], at: p.at[:0], sentenceHead: true, table: vocab().table}
	lastStop := false
	rawStart, rawDigit := -1, false
	space := false // Norm owes a space before its next character
	var prev byte  // the previous raw byte, for digit-dot-digit in Norm
	// buf and norm grow a byte at a time: as locals, stored back once, they
	// stay in registers, and their headers are not written to the heap (with
	// a write barrier while the collector runs) for every byte.
	buf, norm := p.buf, p.norm
	defer func() { p.buf, p.norm = buf, norm }()
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return 0, false
		}
		cl := asciiClass[c]
		if cl&bSpace != 0 {
			p.flushWord(buf)
			if lastStop {
				p.sentenceHead = true
			}
			lastStop = false
			if rawDigit {
				if v := valueToken(s[rawStart:i]); statesValue(v) {
					p.nums = append(p.nums, v)
				}
			}
			rawStart, rawDigit = -1, false
			space = space || len(norm) > 0
			prev = c
			continue
		}
		if rawStart < 0 {
			rawStart = i
		}
		switch {
		case cl&(bLower|bDigit) != 0:
			p.openWord(norm, space)
			buf = p.wordByte(buf, c, false, cl&bDigit != 0)
			rawDigit = rawDigit || cl&bDigit != 0
			lastStop = false
			norm = normByte(norm, c, &space)
		case cl&bUpper != 0:
			c += 'a' - 'A'
			p.openWord(norm, space)
			buf = p.wordByte(buf, c, true, false)
			lastStop = false
			norm = normByte(norm, c, &space)
		case cl&bHyphen != 0:
			p.openWord(norm, space)
			buf = p.wordByte(buf, c, false, false)
			p.sameNorm = false // Norm drops it
			lastStop = false
		default:
			lastStop = cl&bStop != 0
			if (c == '.' || c == ',') && isDigitByte(prev) && i+1 < len(s) && isDigitByte(s[i+1]) {
				norm = normByte(norm, c, &space)
				p.sameNorm = false // the word does not have it
			}
			if c == '<' && lessAt(s, i) {
				less++
			}
		}
		prev = c
	}
	p.flushWord(buf)
	if rawDigit {
		if v := valueToken(s[rawStart:]); statesValue(v) {
			p.nums = append(p.nums, v)
		}
	}
	return less, true
}

// sortedInto writes the sorted set of src into dst (len(dst) ≥ len(src)) and
// returns it. Sorting a permutation and writing each string once keeps GC
// write barriers off the swaps.
func sortedInto(dst, src []string) []string {
	if len(src) > 32 {
		copy(dst, src)
		return sortedSet(dst)
	}
	var permArr [32]uint8
	perm := permArr[:len(src)]
	for i := range perm {
		perm[i] = uint8(i)
		for j := i; j > 0 && src[perm[j]] < src[perm[j-1]]; j-- {
			perm[j], perm[j-1] = perm[j-1], perm[j]
		}
	}
	n := 0
	for k, i := range perm {
		if k == 0 || src[i] != dst[n-1] {
			dst[n] = src[i]
			n++
		}
	}
	return dst[:n]
}

// release returns the buffers to the pool without the strings they point to.
func (p *asciiPass) release() {
	clear(p.nums)
	asciiPool.Put(p)
}

// valueToken is a raw token holding a digit, trimmed of the punctuation
// around it and lowercased ("(V2)," is "v2"); a substring of the text unless
// it has capitals.
func valueToken(tok string) string {
	a, b := 0, len(tok)
	for a < b && asciiClass[tok[a]]&(bLower|bUpper|bDigit) == 0 {
		a++
	}
	for b > a && asciiClass[tok[b-1]]&(bLower|bUpper|bDigit) == 0 {
		b--
	}
	tok = tok[a:b]
	for i := 0; i < len(tok); i++ {
		if asciiClass[tok[i]]&bUpper != 0 {
			return strings.ToLower(tok)
		}
	}
	return tok
}

func normByte(norm []byte, c byte, space *bool) []byte {
	if *space {
		norm = append(norm, ' ')
		*space = false
	}
	return append(norm, c)
}

// openWord notes, before a word's first byte, where norm will have it:
// after the space norm owes, if any.
func (p *asciiPass) openWord(norm []byte, space bool) {
	if p.inWord {
		return
	}
	p.wordNorm, p.sameNorm = int32(len(norm)), true
	if space {
		p.wordNorm++
	}
}

// wordByte adds c to the open word (opening one if need be) at the end of
// buf, p.buf's working copy, and returns buf.
func (p *asciiPass) wordByte(buf []byte, c byte, upper, digit bool) []byte {
	if !p.inWord {
		p.inWord, p.wordStart = true, int32(len(buf))
		p.runes, p.letters, p.uppers, p.digits, p.firstUpper = 0, 0, 0, false, false
	}
	if !digit && c != '-' {
		if p.letters == 0 {
			p.firstUpper = upper
		}
		p.letters++
		if upper {
			p.uppers++
		}
	}
	p.digits = p.digits || digit
	p.runes++
	return append(buf, c)
}

// flushWord closes the open word, at the end of buf (p.buf's working
// copy), exactly as tokenizer.flushWord does.
func (p *asciiPass) flushWord(buf []byte) {
	if !p.inWord {
		return
	}
	p.inWord = false
	sp := span{p.wordStart, int32(len(buf))}
	w := word{span: sp, flags: p.table.lookup(buf[sp.start:sp.end])}
	if w.flags&fFlip != 0 {
		p.flips++
	}
	w.key = p.runes > 2 && w.flags&fStop == 0
	if w.key {
		for int32(len(p.at)) < sp.end {
			p.at = append(p.at, -1)
		}
		if p.sameNorm {
			p.at[sp.start] = p.wordNorm
		}
		k := newSortSpan(buf, sp)
		p.keys = append(p.keys, k)
		if w.flags&(fFlip|fPartner|fConnective) != 0 || p.digits && isValueWord(buf[sp.start:sp.end]) {
			p.vocab = true
		} else {
			p.core = append(p.core, k)
			allCaps := p.letters >= 2 && p.uppers == p.letters
			w.named = !p.digits && (allCaps || p.firstUpper && !p.sentenceHead)
			if w.named {
				p.named++
			}
		}
	}
	if w.flags&(fConnective|fTrigger) != 0 {
		p.orders = true
	}
	if p.letters > 0 {
		p.sentenceHead = false
	}
	p.ws = append(p.ws, w)
}

// text builds the Text from the finished pass: one string, Norm followed by
// the keywords Norm does not spell (hyphenated ones), which every keyword is
// a view of.
func (p *asciiPass) text(s string, less int) *Text {
	t := &Text{Raw: s, Sign: 1}
	if (p.flips+less+assignedNoes(s))%2 == 1 {
		t.Sign = -1
	}
	t.hasOrder = p.orders || p.flips > 0 && hasOrderMark(s)
	keys := sortSpans(p.buf, p.keys)
	coreIsKeys := !p.vocab
	var core []sortSpan
	if p.vocab {
		core = sortSpans(p.buf, p.core)
	}
	var named []sortSpan
	if p.named > 0 {
		named = p.core[len(core):len(core)] // past core's room: p.core holds no more than core
		for _, w := range p.ws {
			if w.named {
				named = append(named, newSortSpan(p.buf, w.span))
			}
		}
		named = sortSpans(p.buf, named)
	}

	str := p.norm
	nNorm := len(str)
	for _, l := range [][]sortSpan{keys, core, named} {
		for _, k := range l {
			if p.at[k.start] < 0 {
				p.at[k.start] = int32(len(str))
				str = append(str, p.buf[k.start:k.end]...)
			}
		}
	}
	p.norm = str
	all := string(str)
	t.Norm = all[:nNorm]

	coreLen := len(core)
	if coreIsKeys {
		coreLen = len(keys)
	}
	alt, hasAlt := altOf(s, t.Norm, coreLen)
	n := len(keys) + len(core) + len(p.nums) + len(named)
	if hasAlt {
		n++
	}
	if n == 0 {
		return t
	}
	view := func(k sortSpan) string {
		at := p.at[k.start]
		return all[at : at+k.end-k.start]
	}
	l := make([]string, n)
	for i, k := range keys {
		l[i] = view(k)
	}
	end := len(keys)
	t.keysEnd, t.coreIsKeys = uint32(end), coreIsKeys
	for i, k := range core {
		l[end+i] = view(k)
	}
	end += len(core)
	t.coreEnd = uint32(end)
	if len(p.nums) > 0 {
		end += len(sortedInto(l[end:end+len(p.nums)], p.nums))
	}
	t.numsEnd = uint32(end)
	for i, k := range named {
		l[end+i] = view(k)
	}
	end += len(named)
	if hasAlt {
		l[end] = alt
		end++
		t.hasAlt = true
	}
	t.lists = l[:end:end]
	return t
}

// lookupWord is words[string(w)].
func lookupWord(w []byte) wordFlags { return vocab().table.lookup(w) }
