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

// strBlock carves a Text's short lists out of one array of exactly the
// strings they need: one allocation instead of four for a typical entry,
// and no unused room (a language server keeps a Text for every entry).
type strBlock []string

// take carves n strings out of the block.
func (b *strBlock) take(n int) []string {
	if n == 0 {
		return nil
	}
	s := (*b)[:n:n]
	*b = (*b)[n:]
	return s
}

// asciiPass is the state of analyzeASCII's single pass. Its buffers are
// recycled through a pool: they are all Analyze would otherwise allocate
// besides the Text itself.
type asciiPass struct {
	buf  []byte // cleaned words back to back, then Norm
	norm []byte
	keys []sortSpan
	core []sortSpan
	ws   []word
	nums []string

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
		ws: p.ws[:0], nums: p.nums[:0], sentenceHead: true}
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
				p.nums = append(p.nums, valueToken(s[rawStart:i]))
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
			buf = p.wordByte(buf, c, false, cl&bDigit != 0)
			rawDigit = rawDigit || cl&bDigit != 0
			lastStop = false
			norm = normByte(norm, c, &space)
		case cl&bUpper != 0:
			c += 'a' - 'A'
			buf = p.wordByte(buf, c, true, false)
			lastStop = false
			norm = normByte(norm, c, &space)
		case cl&bHyphen != 0:
			buf = p.wordByte(buf, c, false, false)
			lastStop = false
		default:
			lastStop = cl&bStop != 0
			if (c == '.' || c == ',') && isDigitByte(prev) && i+1 < len(s) && isDigitByte(s[i+1]) {
				norm = normByte(norm, c, &space)
			}
			if c == '<' && lessAt(s, i) {
				less++
			}
		}
		prev = c
	}
	p.flushWord(buf)
	if rawDigit {
		p.nums = append(p.nums, valueToken(s[rawStart:]))
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
	w := word{span: sp, flags: lookupWord(buf[sp.start:sp.end])}
	if w.flags&fFlip != 0 {
		p.flips++
	}
	w.key = p.runes > 2 && w.flags&fStop == 0
	if w.key {
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

// text builds the Text from the finished pass.
func (p *asciiPass) text(s string, less int) *Text {
	t := new(Text)
	nClean := len(p.buf)
	p.buf = append(p.buf, p.norm...)
	all := string(p.buf)
	clean := all[:nClean]
	t.Raw, t.Norm, t.Sign = s, all[nClean:], 1
	if (p.flips+less)%2 == 1 {
		t.Sign = -1
	}
	keys := sortSpans(p.buf, p.keys)
	var core []sortSpan
	n := len(keys) + len(p.nums) + p.named
	if p.vocab {
		core = sortSpans(p.buf, p.core)
		n += len(core)
	}
	blk := make(strBlock, n)
	t.Keys = blk.take(len(keys))
	for i, k := range keys {
		t.Keys[i] = clean[k.start:k.end]
	}
	if p.vocab {
		// an empty Core is still a non-nil slice here, as on the general path
		t.Core = blk.take(len(core))
		if t.Core == nil {
			t.Core = t.Keys[len(t.Keys):]
		}
		for i, k := range core {
			t.Core[i] = clean[k.start:k.end]
		}
	} else {
		t.Core = t.Keys
	}
	if len(p.nums) > 0 {
		t.Numbers = sortedInto(blk.take(len(p.nums)), p.nums)
	}
	t.hasOrder = p.orders || p.flips > 0 && hasCommaMark(s)
	if p.named > 0 {
		named := p.core[:0] // core is spent: reuse its room
		for _, w := range p.ws {
			if w.named {
				named = append(named, newSortSpan(p.buf, w.span))
			}
		}
		named = sortSpans(p.buf, named)
		t.Named = blk.take(len(named))
		for i, k := range named {
			t.Named[i] = clean[k.start:k.end]
		}
	}
	t.setKeys(s)
	return t
}

// lookupWord is words[string(w)].
func lookupWord(w []byte) wordFlags { return wordsTable.lookup(w) }
