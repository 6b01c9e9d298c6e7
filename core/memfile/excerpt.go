package memfile

import "github.com/memory-lsp/memory-lsp/core/text"

// Excerpted is one entry of a file known without the rest of it: its
// number among the file's entries and its line's bytes, which start at
// byte Start of the file and are line number Line.
type Excerpted struct {
	Entry int
	Start int
	Line  int
	Bytes []byte // the line without its LF
}

// Excerpt is a Document of a file of which only some entries were read
// (their lines found through an index): Entries and Lines are numbered as
// the file's, up to the last entry and line given, every entry and line
// given as Parse reads it (spans in the file's offsets) and the others
// zero; Src holds the given lines at their offsets and zeros elsewhere. It
// is for a reader that judges the given entries alone — a query's hits,
// checked against the repository — and must not pay a parse of the whole
// file (10 ms a 2 MB file). It does not rebuild the file, and edits made
// from it are meaningless. An entry whose line is not one returns false.
func Excerpt(entries []Excerpted, nEntries, nLines int) (*Document, bool) {
	d := &Document{Entries: make([]Entry, nEntries), Lines: make([]Line, nLines)}
	end := 0
	for _, x := range entries {
		end = max(end, x.Start+len(x.Bytes))
	}
	d.Src = make([]byte, end)
	for _, x := range entries {
		if x.Entry < 0 || x.Entry >= nEntries || x.Line < 1 || x.Line > nLines || x.Start < 0 {
			return nil, false
		}
		e, ok := EntryOfLine(x.Bytes, x.Start, x.Line)
		if !ok {
			return nil, false
		}
		copy(d.Src[x.Start:], x.Bytes)
		d.Entries[x.Entry] = e
		d.Lines[x.Line-1] = Line{Num: x.Line, Span: text.Span{Start: x.Start, End: x.Start + len(x.Bytes)}, HasLF: true, Kind: KindEntry, Entry: x.Entry}
	}
	return d, true
}
