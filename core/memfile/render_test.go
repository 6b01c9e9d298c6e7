package memfile

// Render returns the document's bytes, rebuilt from its lines. The tests
// hold the parser to Render(Parse(x)) == x: no byte is outside a line or
// its line feed, and no line overlaps another.
func (d *Document) Render() []byte {
	out := make([]byte, 0, len(d.Src))
	for _, ln := range d.Lines {
		out = append(out, d.Src[ln.Span.Start:ln.Span.End]...)
		if ln.HasLF {
			out = append(out, '\n')
		}
	}
	return out
}
