package memfile

// Excerpted is one entry of a file known without the rest of it: its
// number among the file's entries and its line's bytes, which start at
// byte Start of the file and are line number Line.
type Excerpted struct {
	Entry int
	Start int
	Line  int
	Bytes []byte // the line without its LF
}

// Excerpt is a Document of some entries of a file, read without the rest
// of it (their lines found through an index): its Entries are the ones
// given, in the order given, each as Parse reads it (spans in the file's
// offsets, line number the file's), and its Lines their lines, entry i on
// line i (LineIndex); it has no Src, every line ending in an LF. It is for a reader that judges the given entries by their own
// text, their file's path and their line numbers alone — a query's hits,
// checked against the repository — and must pay neither a parse of the
// whole file nor room for all of its entries, lines
// and bytes (6 MB zeroed for a hit near the end of a 20,000-entry file).
// It does not stand for the file: its entry numbers are its own, and
// edits made from it are meaningless. nEntries and nLines are the file's
// counts, which every entry given must fall within; an entry whose line
// is not one returns false.
func Excerpt(entries []Excerpted, nEntries, nLines int) (*Document, bool) {
	d := &Document{Entries: make([]Entry, len(entries)), Lines: make([]Line, len(entries))}
	for i, x := range entries {
		if x.Entry < 0 || x.Entry >= nEntries || x.Line < 1 || x.Line > nLines || x.Start < 0 {
			return nil, false
		}
		e, ok := EntryOfLine(x.Bytes, x.Start, x.Line)
		if !ok {
			return nil, false
		}
		e.LineIndex = i
		d.Entries[i] = e
		d.Lines[i] = Line{Num: x.Line, Span: e.LineSpan, HasLF: true, Kind: KindEntry, Entry: i}
	}
	return d, true
}
