package directive

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// mtoken is one word of a line as the directive model reads it.
type mtoken struct {
	start, end int // bytes of the line
	// w is the word lower-cased, with look-alike letters folded to the
	// script the word is mostly written in
	w     string
	c     wordClass
	kind  tokenKind
	brk   breakKind // what stands between this token and the one before
	colon bool      // a colon follows
	cyr   bool      // written in Cyrillic (a head-initial language)
	// quoted: an opening quotation mark stands right before the token
	quoted bool
	// edge: an HTML comment opens or closes right before the token, which
	// ends a sentence: what a comment holds is not the visible text's
	// ("<!-- ai: yes --> Ship on Mondays")
	edge commentEdge
	// ra, rb are the token's characters in the folded line, for letter
	// spacing: single letters one character apart are one word
	ra, rb int
}

// commentEdge is which edge of an HTML comment stands before a token.
type commentEdge uint8

const (
	noEdge commentEdge = iota
	opensComment
	closesComment
)

type tokenKind uint8

const (
	tWord tokenKind = iota
	tHan
	tPath // a path, file name, ENV=value or shell word such as ~/.ssh
	tURL  // an address: scheme://, www., or user@host
	tFlag // a command-line option: -rf, --no-verify
)

type breakKind uint8

const (
	bNone     breakKind = iota
	bClause             // , : ( ) — |
	bSentence           // . ! ? ; 。
)

// foldedRunes is a line after foldBase: its characters, each with its
// byte span in the line; invisible characters are gone.
type foldedRunes struct {
	r        []rune
	at, stop []int
	// s is r as a string and so[i] the offset in s of r[i] (so[len(r)] =
	// len(s)), so that a word is a substring, not a new string
	s  string
	so []int
}

func foldRunes(line string) foldedRunes {
	if low, ok := appendFoldASCII(nil, line); ok {
		// an ASCII line keeps every offset: at, stop and so are the
		// identity (nil here, see span)
		r := make([]rune, len(low))
		for i, c := range low {
			r[i] = rune(c)
		}
		return foldedRunes{r: r, s: string(low)}
	}
	n := utf8.RuneCountInString(line)
	f := foldedRunes{r: make([]rune, 0, n), at: make([]int, 0, n), stop: make([]int, 0, n), so: make([]int, 0, n+1)}
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r = foldBase(r, size); r >= 0 {
			f.r = append(f.r, r)
			f.at = append(f.at, i)
			f.stop = append(f.stop, i+size)
			f.so = append(f.so, b.Len())
			b.WriteRune(r)
		}
		i += size
	}
	f.s = b.String()
	f.so = append(f.so, len(f.s))
	return f
}

// span returns the byte span in the line of the characters [a, b) and
// their folded text.
func (f foldedRunes) span(a, b int) (start, end int, w string) {
	if f.at == nil {
		return a, b, f.s[a:b]
	}
	return f.at[a], f.stop[b-1], f.s[f.so[a]:f.so[b]]
}

// tokenize reads a line into tokens: chunks between spaces; a chunk that
// is a path, address or option is one token, any other is split into
// words (a run of Han characters into the lexicon's words); a run of
// single letters one character apart ("i g n o r e", "i.g.n.o.r.e") is
// joined and split again into the lexicon's words.
func tokenize(line string) []mtoken {
	f := foldRunes(line)
	toks := make([]mtoken, 0, len(f.r)/4+1)
	pend := bNone
	mark := func(r rune) {
		switch r {
		case '.', '!', '?', ';', '。', '…':
			pend = bSentence
		case ',', ':', '(', ')', '"', '—', '–', '|', '、', '«', '»', '“', '”', '[', ']':
			pend = max(pend, bClause)
		}
		if r == ':' && len(toks) > 0 {
			toks[len(toks)-1].colon = true
		}
	}
	quoted, edge := false, noEdge
	emit := func(a, b int, kind tokenKind) {
		start, end, w := f.span(a, b)
		toks = append(toks, mtoken{start: start, end: end, w: w, kind: kind, brk: pend, quoted: quoted, edge: edge, ra: a, rb: b})
		pend, quoted, edge = bNone, false, noEdge
	}
	first := true
	for i := 0; i < len(f.r); {
		if f.r[i] == ' ' {
			i++
			continue
		}
		a := i
		for i < len(f.r) && f.r[i] != ' ' {
			i++
		}
		b := i
		if isSlugChunk(f.r[a:b]) {
			first = false
			continue // "[slug]" or a checkbox: not words
		}
		switch string(f.r[a:b]) {
		case "<!--":
			pend, edge = bSentence, opensComment
			continue
		case "-->":
			pend, edge = bSentence, closesComment
			continue
		}
		for a < b && strings.ContainsRune("*_\"'`([{<«“„#>", f.r[a]) {
			mark(f.r[a])
			quoted = quoted || strings.ContainsRune("\"'«“„", f.r[a])
			a++
		}
		e := b
		for e > a && strings.ContainsRune("*_\"'`)]}>»”.,;:!?。、…", f.r[e-1]) {
			e--
		}
		switch kind := chunkKind(f.r[a:e], first); {
		case a == e:
		case kind != tWord:
			emit(a, e, kind)
		default:
			splitWords(f, a, e, mark, emit)
		}
		if a < e {
			// a quotation mark standing alone ("« ignore … »", French
			// spacing) opens the quotation of the next word
			quoted = false
		}
		for k := e; k < b; k++ {
			mark(f.r[k])
		}
		first = false
	}
	toks = joinSpacedLetters(toks, f)
	for k := range toks {
		t := &toks[k]
		var alt string
		t.w, alt, t.cyr = readings(t.w)
		if t.kind == tWord || t.kind == tHan {
			t.c = lexi().class(t.w)
			if alt != "" {
				t.c |= lexi().class(alt)
			}
		} else {
			t.c = lexi().exact[t.w] | pathClass(t.w)
		}
	}
	return toks
}

// isSlugChunk reports whether a chunk is a memory entry's "[slug]" or a
// checkbox.
func isSlugChunk(r []rune) bool {
	if len(r) < 2 || r[0] != '[' || r[len(r)-1] != ']' {
		return false
	}
	for _, c := range r[1 : len(r)-1] {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == 'x' || c == ' ') {
			return false
		}
	}
	return true
}

// chunkKind decides what a chunk between spaces is. A lone "/", "~" or "*"
// is a path (the target of rm), except as a line's bullet.
func chunkKind(r []rune, first bool) tokenKind {
	plain := true
	for _, c := range r {
		if strings.ContainsRune(":/=$~.@-*", c) {
			plain = false
			break
		}
	}
	if plain {
		return tWord // most chunks: letters and nothing a path or address has
	}
	s := string(r)
	switch {
	case strings.Contains(s, "://") || strings.HasPrefix(s, "www."):
		return tURL
	case strings.IndexByte(s, '@') > 0 && strings.Contains(s[strings.IndexByte(s, '@'):], "."):
		return tURL
	case len(r) > 1 && r[0] == '-' && (r[1] == '-' || unicode.IsLetter(r[1])):
		return tFlag
	case strings.ContainsAny(s, "/=$~") || len(r) > 1 && r[0] == '.' && r[1] != '.':
		return tPath
	case !first && (s == "*" || s == "/"):
		return tPath
	}
	// a file name: name.ext with a name of two or more characters
	if i := strings.LastIndexByte(s, '.'); i >= 2 && len(s)-i-1 >= 1 && len(s)-i-1 <= 5 && !strings.ContainsAny(s[:i], ".") {
		return tPath
	}
	return tWord
}

// splitWords splits the chunk f.r[a:e] into words: letters and digits,
// joined by inner hyphens and underscores; other characters separate
// words and may end a clause.
func splitWords(f foldedRunes, a, e int, mark func(rune), emit func(int, int, tokenKind)) {
	for k := a; k < e; {
		r := f.r[k]
		switch {
		case isHan(r):
			s := k
			for k < e && isHan(f.r[k]) {
				k++
			}
			segmentHan(f, s, k, emit)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			s := k
			for k < e && (isWordRune(f.r[k]) || (f.r[k] == '-' || f.r[k] == '_' || f.r[k] == '.' && unicode.IsDigit(f.r[k-1])) && k+1 < e && isWordRune(f.r[k+1]) && k > s) {
				k++
			}
			emit(s, k, tWord)
		default:
			mark(r)
			k++
		}
	}
}

func isWordRune(r rune) bool { return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isHan(r) }

func isHan(r rune) bool { return r >= 0x2E80 && unicode.Is(unicode.Han, r) }

// segmentHan splits a run of Han characters into the lexicon's words.
func segmentHan(f foldedRunes, s, e int, emit func(int, int, tokenKind)) {
	for _, p := range hanWords(f.r[s:e]) {
		emit(s+p[0], s+p[1], tHan)
	}
}

// hanWords splits Han characters into the lexicon's words, longest first;
// characters between words are one piece.
func hanWords(r []rune) [][2]int {
	var out [][2]int
	other := -1
	for k := 0; k < len(r); {
		n := 0
		for l := min(lexi().hanMax, len(r)-k); l >= 1; l-- {
			if _, ok := lexi().exact[string(r[k:k+l])]; ok {
				n = l
				break
			}
		}
		if n == 0 {
			if other < 0 {
				other = k
			}
			k++
			continue
		}
		if other >= 0 {
			out = append(out, [2]int{other, k})
			other = -1
		}
		out = append(out, [2]int{k, k + n})
		k += n
	}
	if other >= 0 {
		out = append(out, [2]int{other, len(r)})
	}
	return out
}

// joinSpacedLetters joins runs of three or more one-letter words, each one
// character after the last ("i g n o r e", "i.g.n.o.r.e", "忽 略"), and
// splits the run again into the lexicon's words.
func joinSpacedLetters(toks []mtoken, f foldedRunes) []mtoken {
	// once a line spaces out its letters, a run of two is a word too
	// ("d e" in "c o n s i g n e s  d e  s é c u r i t é")
	least := 0
	for k := 0; k+2 < len(toks); k++ {
		if single(toks[k]) && single(toks[k+1]) && single(toks[k+2]) && toks[k+1].ra-toks[k].rb == 1 && toks[k+2].ra-toks[k+1].rb == 1 {
			least = 2
			break
		}
	}
	if least == 0 {
		return toks // no letters spaced out: most lines
	}
	var out []mtoken
	for k := 0; k < len(toks); {
		kind := toks[k].kind
		m := k + 1
		for m < len(toks) && toks[m].kind == kind && toks[m].rb-toks[m].ra == 1 && toks[m].ra-toks[m-1].rb == 1 {
			m++
		}
		if kind != tWord && kind != tHan || toks[k].rb-toks[k].ra != 1 || m-k < least {
			out = append(out, toks[k])
			k++
			continue
		}
		letters := make([]rune, 0, m-k)
		for _, t := range toks[k:m] {
			letters = append(letters, f.r[t.ra])
		}
		pieces := hanWords(letters)
		if kind == tWord {
			pieces = segmentLetters(letters)
		}
		for _, p := range pieces {
			t := toks[k+p[0]]
			t.end, t.rb = toks[k+p[1]-1].end, toks[k+p[1]-1].rb
			t.w = string(letters[p[0]:p[1]])
			t.colon = toks[k+p[1]-1].colon
			out = append(out, t)
		}
		k = m
	}
	return out
}

func single(t mtoken) bool { return (t.kind == tWord || t.kind == tHan) && t.rb-t.ra == 1 }

// segmentLetters splits letters into the lexicon's words, with as few
// letters outside a word as it can and then as few pieces; a stem may take
// up to four more letters (ignor+e, instruction+s). Letters outside words
// are joined into pieces of their own.
func segmentLetters(letters []rune) [][2]int {
	n := len(letters)
	type cell struct{ unknown, pieces, from int }
	best := make([]cell, n+1)
	for i := 1; i <= n; i++ {
		best[i] = cell{unknown: 1 << 30}
	}
	try := func(i, j, unknown int) {
		c := cell{best[i].unknown + unknown, best[i].pieces + 1, i}
		if c.unknown < best[j].unknown || c.unknown == best[j].unknown && c.pieces < best[j].pieces {
			best[j] = c
		}
	}
	for i := 0; i < n; i++ {
		try(i, i+1, 1)
		for j := i + 1; j <= n && j-i <= 24; j++ {
			exact, stem := lexi().known(translit(letters[i:j]))
			if exact {
				try(i, j, 0)
			}
			if stem {
				for x := j; x <= n && x <= j+4; x++ {
					try(i, x, 0)
				}
			}
		}
	}
	var cuts [][2]int
	for j := n; j > 0; j = best[j].from {
		cuts = append(cuts, [2]int{best[j].from, j})
	}
	// reverse, and join runs of letters no word took
	var out [][2]int
	for k := len(cuts) - 1; k >= 0; k-- {
		c := cuts[k]
		if l := len(out); l > 0 && c[1]-c[0] == 1 && out[l-1][1]-out[l-1][0] >= 1 && isLoose(letters, out[l-1]) {
			out[l-1][1] = c[1]
			continue
		}
		out = append(out, c)
	}
	return out
}

// isLoose reports whether the piece p of letters is no lexicon word.
func isLoose(letters []rune, p [2]int) bool {
	exact, stem := lexi().known(translit(letters[p[0]:p[1]]))
	return !exact && !stem
}

// translit is the word of letters as readings spells it.
func translit(letters []rune) string {
	w, _, _ := readings(string(letters))
	return w
}

// readings returns the forms of a word the lexicon is asked about. A word
// mixing Latin with Cyrillic or Greek letters is a disguise: it is read as
// Latin (w) and, when it holds Cyrillic, also as Cyrillic (alt). A word all
// in Cyrillic is Russian (w), or an English word spelt in look-alikes
// (alt). Digits among letters are read as the letters they imitate (alt).
func readings(raw string) (w, alt string, cyr bool) {
	var latin, cyril, greek, digits, other int
	for _, r := range raw {
		switch {
		case r < utf8.RuneSelf && unicode.IsLetter(r):
			latin++
		case unicode.IsDigit(r):
			digits++
		case unicode.Is(unicode.Cyrillic, r):
			cyril++
		case unicode.Is(unicode.Greek, r):
			greek++
		case r >= utf8.RuneSelf:
			other++
		}
	}
	switch {
	case cyril > 0 && latin == 0 && greek == 0:
		return raw, skeleton(raw, lookalikes, true), true
	case cyril+greek > 0:
		w = skeleton(raw, lookalikes, false)
		if cyril > 0 {
			alt = skeleton(raw, toCyrillic, false)
		}
		return w, alt, cyril > latin
	case digits > 0 && latin > 0:
		return raw, skeleton(raw, leet, false), false
	case other > 0:
		// accents, small capitals: also read without accents ("ignóralas")
		w = skeleton(raw, lookalikes, false)
		return w, stripMarks(w), false
	}
	return raw, "", false
}

// stripMarks returns s with the accents of its Latin letters taken off
// (é → e, ñ → n, ß stays), or "" when it has none to take.
func stripMarks(s string) string {
	var b []rune
	for i, r := range s {
		if c, ok := unaccented[r]; ok {
			if b == nil {
				b = []rune(s[:i])
			}
			r = c
		}
		if b != nil {
			b = append(b, r)
		}
	}
	return string(b)
}

// unaccented maps the accented Latin letters of French, German and Spanish
// to their base letters.
var unaccented = func() map[rune]rune {
	m := map[rune]rune{}
	for base, marked := range map[rune]string{'a': "àáâäã", 'c': "ç", 'e': "èéêë", 'i': "ìíîï", 'n': "ñ", 'o': "òóôöõ", 'u': "ùúûü", 'y': "ÿý"} {
		for _, r := range marked {
			m[r] = base
		}
	}
	return m
}()

// skeleton maps each character of s through m; with whole, it returns ""
// unless every letter mapped (an English word spelt in Cyrillic). s itself
// is returned when nothing maps, without a copy.
func skeleton(s string, m map[rune]rune, whole bool) string {
	mapped := false
	for _, r := range s {
		_, ok := m[r]
		if !ok && whole && unicode.IsLetter(r) {
			return "" // most Russian words: a letter with no Latin twin
		}
		mapped = mapped || ok
	}
	if !mapped {
		return s
	}
	b := make([]rune, 0, len(s))
	for _, r := range s {
		if c, ok := m[r]; ok {
			r = c
		} else if whole && unicode.IsLetter(r) {
			return ""
		}
		b = append(b, r)
	}
	return string(b)
}

// toCyrillic reads a Latin look-alike inside a Cyrillic word as the letter
// it imitates ("yдaли" with Latin y and a).
var toCyrillic = map[rune]rune{
	'a': 'а', 'c': 'с', 'e': 'е', 'o': 'о', 'p': 'р', 'x': 'х', 'y': 'у', 'k': 'к', 'm': 'м', 't': 'т', 'h': 'н', 'b': 'в',
}

// leet reads digits among letters as the letters they are drawn for.
var leet = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a'}

// pathClass is what a path-like token is worth protecting or keeping
// secret: the file-system root, the home folder, git's own folder, files
// that hold credentials.
func pathClass(p string) wordClass {
	switch strings.TrimRight(p, "/*") {
	case "", "~", "$home", "${home}", ".git", ".", "..":
		return wValuable
	}
	if strings.Contains(p, ".env") || strings.Contains(p, ".ssh") || strings.Contains(p, "id_rsa") || strings.Contains(p, "credentials") || strings.Contains(p, ".aws") || strings.Contains(p, ".npmrc") || strings.Contains(p, ".netrc") {
		return wSecret
	}
	if strings.HasPrefix(p, ".git/") || strings.HasPrefix(p, "$") && strings.Contains(p, "token") {
		return wValuable | wSecret
	}
	// the memory's own files (HackLM's categories, anything in .memory/)
	// and the files agents take their instructions from
	switch base := strings.TrimRight(p[strings.LastIndexByte(strings.TrimRight(p, "/"), '/')+1:], "/"); base {
	case "instructions.md", "decisions.md", "preferences.md", "quirks.md", "security.md", "memory.md",
		"claude.md", "agents.md", "gemini.md", "copilot-instructions.md", ".cursorrules", ".windsurfrules", ".clinerules":
		return wInstr
	case "workflows", ".github", ".gitlab-ci.yml", ".circleci", "jenkinsfile", ".pre-commit-config.yaml", ".husky":
		return wValuable | wChecks // what runs the checks
	default:
		if strings.Contains(p, ".memory/") {
			return wInstr
		}
	}
	return 0
}

// triggers holds the ASCII verbs and turn labels of the lexicon, whole
// words and stems: an ASCII line none of whose words is one or begins with
// one (and with no letter spacing) gives the model nothing to read
// (appendFoldASCII). A word's first three letters are looked up first; the
// few words that pass go through a Bloom filter (two bits of one 64-bit
// FNV-1a hash, 2^18 bits). Digits are read as the letters they imitate.
// It is built once and only read.
var triggers = sync.OnceValue(buildTriggers)

type triggerSet struct {
	exact, stem bloom // 2^18 bits each
	// stemLens has bit n set when some stem is n bytes long
	stemLens uint64
	// start says which first five letters a trigger word or stem of five
	// letters or more may begin with (a Bloom filter of one hash): most
	// words of a line fail here; a shorter word can only be an exact word
	start [1 << 16 / 64]uint64
	// tri says which first three bytes a trigger word may begin with (past
	// the word's end, 0), or a one-letter word; the anchor scan asks it
	// before reading the word
	tri [1 << 15 / 64]uint64
	// words are the ASCII trigger words and stems
	words []string
	// uexact, ustem and ustemLens are exact, stem and stemLens for the
	// words with letters beyond ASCII (Cyrillic, accented, Han), which
	// wakes looks for in lines that are not ASCII
	uexact, ustem bloom // 2^16 bits each
	ustemLens     uint64
	// weak, stmt and you sort the words above: a turn label or a noun of
	// instructions or rules (weak) is common in real memory ("# Security",
	// "User: …") and wakes the model only beside a colon or a word of you;
	// a word that declares rules void or outranked (stmt: "optional",
	// "apply", "priority") only beside such a noun; verbs wake it alone
	weak, stmt, you bloom
}

// wake is what the words of a line tell the trigger check, as bits.
type wake uint8

const (
	wakeStrong wake = 1 << iota // a verb, or spaced-out letters
	wakeWeak                    // a turn label, a noun of instructions or rules
	wakeStmt                    // void, apply, precedence
	wakeYou                     // a word of you
)

// wakes reports whether what a line's words told (seen), with or without a
// colon in the line, wakes the model.
func (w wake) wakes(colon func() bool) bool {
	return w&wakeStrong != 0 || w&wakeWeak != 0 && (w&(wakeYou|wakeStmt) != 0 || colon())
}

// kind sorts a trigger word by its hash.
func (t *triggerSet) kind(h uint64) wake {
	switch {
	case t.weak.has(h):
		return wakeWeak
	case t.stmt.has(h):
		return wakeStmt
	case t.you.has(h):
		return wakeYou
	}
	return wakeStrong
}

// begins reports whether a trigger word or stem may begin like w.
func (t *triggerSet) begins(w []byte) bool {
	if len(w) < 5 {
		return true
	}
	k := prefix5(w)
	return t.start[k/64]&(1<<(k%64)) != 0
}

// wakes reports whether a line that is not ASCII, folded by foldBase
// (and again through the look-alikes, for disguised English), may hold
// something for the model: a trigger word or stem of any script at the
// start of a word, a Han trigger word anywhere in a run of Han characters,
// or three one-character words in a row one character apart ("И Г Н",
// "忽 略 之"). Most lines of a Russian, Chinese or French memory file wake
// nothing and are not tokenized.
func (t *triggerSet) wakes(s string) bool {
	run, lastEnd := 0, -2
	var seen wake
	colon := func() bool { return strings.IndexByte(s, ':') >= 0 }
	for i := 0; i < len(s) && !seen.wakes(colon); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += size
			continue
		}
		start := i
		if isHan(r) {
			seen |= t.hanAt(s, i)
			i += size
		} else {
			h := uint64(fnvOffset)
			for i < len(s) {
				r, size = utf8.DecodeRuneInString(s[i:])
				if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') || isHan(r) {
					break
				}
				for k := i; k < i+size; k++ {
					h = fnvStep(h, s[k])
					n := k + 1 - start
					if n < 64 && (t.ustemLens|t.stemLens)&(1<<n) != 0 && (t.ustem.has(h) || t.stem.has(h)) {
						seen |= t.kind(h)
					}
				}
				i += size
			}
			if t.uexact.has(h) || t.exact.has(h) {
				seen |= t.kind(h)
			}
		}
		// a one-character word: a run of them spaces a word out
		if utf8.RuneCountInString(s[start:i]) == 1 && (i == len(s) || s[i] == ' ' || s[i] == '.' || s[i] == '-') {
			if lastEnd != start-1 {
				run = 0
			}
			if run++; run >= 3 {
				return true
			}
			lastEnd = i
		} else {
			run = 0
		}
	}
	return seen.wakes(colon)
}

// hanAt tells what the Han trigger words starting at s[i:] are.
func (t *triggerSet) hanAt(s string, i int) wake {
	var seen wake
	h := uint64(fnvOffset)
	for n := 0; n < lexi().hanMax && i < len(s); n++ {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isHan(r) {
			break
		}
		for k := i; k < i+size; k++ {
			h = fnvStep(h, s[k])
		}
		if t.uexact.has(h) {
			seen |= t.kind(h)
		}
		i += size
	}
	return seen
}

// maybe reports whether the word starting at i of a folded ASCII line may
// be a trigger word or a one-letter word, by its first three bytes.
func (t *triggerSet) maybe(s []byte, i int) bool {
	k := trigramAt(s, i)
	return t.tri[k/64]&(1<<(k%64)) != 0
}

// trigramAt packs the first three bytes of the word at s[i:] (0 past its
// end; i+1 is inside s), digits read as letters, into 15 bits.
func trigramAt(s []byte, i int) int {
	k := int(leetBytes[s[i]]&31)<<10 | int(leetBytes[s[i+1]]&31)<<5
	if !isWordByte(s[i+1]) {
		return k &^ (31 << 5) // a one-letter word
	}
	if i+2 < len(s) && isWordByte(s[i+2]) {
		k |= int(leetBytes[s[i+2]] & 31)
	}
	return k
}

// prefix5 hashes the first five bytes of a word, read as trigger words
// are, into 16 bits.
func prefix5(w []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range w[:5] {
		h = fnvStep(h, c)
	}
	return h >> 48
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvStep(h uint64, c byte) uint64 { return (h ^ uint64(leetByte(c))) * fnvPrime }

func leetByte(c byte) byte { return leetBytes[c] }

// leetBytes is leet as a table over bytes, for the trigger scan.
var leetBytes = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if r, ok := leet[rune(i)]; ok {
			t[i] = byte(r)
		}
	}
	return t
}()

// bloom is a Bloom filter of a power of two bits, two of them set per
// 64-bit hash.
type bloom []uint64

func (b bloom) keys(h uint64) (uint64, uint64) {
	mask := uint64(len(b))*64 - 1
	return h & mask, h >> 40 & mask
}

func (b bloom) set(h uint64) {
	k1, k2 := b.keys(h)
	b[k1/64] |= 1 << (k1 % 64)
	b[k2/64] |= 1 << (k2 % 64)
}

func (b bloom) has(h uint64) bool {
	k1, k2 := b.keys(h)
	return b[k1/64]&(1<<(k1%64)) != 0 && b[k2/64]&(1<<(k2%64)) != 0
}

func buildTriggers() *triggerSet {
	const strong, weak, stmt = wVerb, wRole | wInstr | wSafety | wRules, wApply | wVoid | wPrecede
	t := &triggerSet{exact: make(bloom, 1<<18/64), stem: make(bloom, 1<<18/64), uexact: make(bloom, 1<<16/64), ustem: make(bloom, 1<<16/64),
		weak: make(bloom, 1<<14/64), stmt: make(bloom, 1<<14/64), you: make(bloom, 1<<14/64)}
	for _, e := range lexicon {
		if e.c&(strong|weak|stmt|wYou) == 0 {
			continue
		}
		for _, w := range strings.Fields(e.words) {
			stem := strings.HasSuffix(w, "*")
			w = strings.TrimSuffix(w, "*")
			cl := lexi().exact[w]
			if stem {
				cl = lexi().stem[w]
			}
			ascii := true
			h := uint64(fnvOffset)
			for i := 0; i < len(w); i++ {
				ascii = ascii && w[i] < utf8.RuneSelf
				h = fnvStep(h, w[i])
			}
			if ascii {
				k := trigramAt([]byte(w+" "), 0)
				t.tri[k/64] |= 1 << (k % 64)
				if len(w) >= 5 {
					k := prefix5([]byte(w))
					t.start[k/64] |= 1 << (k % 64)
				} else if stem {
					panic("directive: an ASCII stem shorter than five letters: " + w)
				}
				t.words = append(t.words, w)
			}
			switch {
			case cl&strong != 0:
			case cl&weak != 0:
				t.weak.set(h)
			case cl&stmt != 0:
				t.stmt.set(h)
			default:
				t.you.set(h)
			}
			switch {
			case !ascii && stem && len(w) < 64:
				t.ustem.set(h)
				t.ustemLens |= 1 << len(w)
			case !ascii:
				t.uexact.set(h)
			case stem && len(w) < 64:
				t.stem.set(h)
				t.stemLens |= 1 << len(w)
			default:
				t.exact.set(h)
			}
		}
	}
	// A one-letter word may begin a run of spaced-out letters: its
	// trigram, the letter and a space, is a trigger's.
	for c := 0; c < 256; c++ {
		if isWordByte(byte(c)) && c != '-' {
			k := trigramAt([]byte{byte(c), ' '}, 0)
			t.tri[k/64] |= 1 << (k % 64)
		}
	}
	return t
}

// pairs returns the first two bytes (c0<<8|c1) a word the model reads
// around may begin with in a folded ASCII line: those of the trigger words
// and stems, with digits for the letters they imitate, and a letter or
// digit before any byte that ends a word (a one-letter word, which may
// begin a run of spaced-out letters).
func (t *triggerSet) pairs() []uint16 {
	var out []uint16
	digits := map[byte][]byte{}
	for d, l := range leet {
		digits[byte(l)] = append(digits[byte(l)], byte(d))
	}
	for _, w := range t.words {
		for _, a := range append([]byte{w[0]}, digits[w[0]]...) {
			for _, b := range append([]byte{w[1]}, digits[w[1]]...) {
				out = append(out, uint16(a)<<8|uint16(b))
			}
		}
	}
	for c := 0; c < 256; c++ {
		if !isWordByte(byte(c)) || c == '-' {
			continue
		}
		for e := 0; e < 256; e++ {
			if !isWordByte(byte(e)) {
				out = append(out, uint16(c)<<8|uint16(e))
			}
		}
	}
	return out
}

// at tells what the word of the folded ASCII line s that starts at i is: a
// trigger word (and which kind), or the first of three one-letter words
// one byte apart (strong).
func (t *triggerSet) at(s []byte, i int) wake {
	j := i
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	switch j - i {
	case 0:
		return 0
	case 1:
		single := func(k int) bool {
			return k < len(s) && isWordByte(s[k]) && s[k] != '-' && (k+1 == len(s) || !isWordByte(s[k+1]))
		}
		if single(i+2) && single(i+4) {
			return wakeStrong
		}
		return 0
	}
	if !t.begins(s[i:j]) {
		return 0
	}
	return t.word(s[i:j])
}

// word tells whether w is a trigger word or begins with a trigger stem,
// and which kind.
func (t *triggerSet) word(w []byte) wake {
	var seen wake
	h := uint64(fnvOffset)
	for n, c := range w {
		h = fnvStep(h, c)
		if n+1 < 64 && t.stemLens&(1<<(n+1)) != 0 && t.stem.has(h) {
			seen |= t.kind(h)
		}
	}
	if t.exact.has(h) {
		seen |= t.kind(h)
	}
	return seen
}

func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes are the bytes of a word in a folded ASCII line.
var wordBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_'
	}
	return t
}()
