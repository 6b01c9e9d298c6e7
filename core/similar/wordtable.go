package similar

// wordTable is the words map as an open-addressing table probed with the
// bytes of a word: the tokenizer looks up every word of every text, and a Go
// map lookup with a converted key costs several times a probe here.
type wordTable struct {
	slots [1024]wordSlot // a power of two, at most a quarter full
}

type wordSlot struct {
	word  string
	flags wordFlags
}

// wordHash is FNV-1a.
func wordHash(w []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range w {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

func newWordTable(m map[string]wordFlags) *wordTable {
	t := new(wordTable)
	if 4*len(m) > len(t.slots) {
		panic("similar: word table too small")
	}
	for w, f := range m {
		i := wordHash([]byte(w)) & uint32(len(t.slots)-1)
		for t.slots[i].word != "" {
			i = (i + 1) & uint32(len(t.slots)-1)
		}
		t.slots[i] = wordSlot{w, f}
	}
	return t
}

// lookup is words[string(w)].
func (t *wordTable) lookup(w []byte) wordFlags {
	i := wordHash(w) & uint32(len(t.slots)-1)
	for {
		s := &t.slots[i]
		if s.word == "" {
			return 0
		}
		if s.word == string(w) {
			return s.flags
		}
		i = (i + 1) & uint32(len(t.slots)-1)
	}
}

// lookupWord is words[string(w)].
func lookupWord(w []byte) wordFlags { return vocab().table.lookup(w) }
