package memory

import (
	"bytes"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// appendEntry adds an entry at the end of the file, following the file's own
// layout: HackLM separates appended entries with a blank line, hand-written
// files usually do not, and a store must not reformat either kind.
func appendEntry(d *memfile.Document, line string) text.Edit {
	nl := d.EOL()
	src := d.Src
	var b bytes.Buffer
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteString(nl)
	}
	if needsBlankBefore(d) {
		b.WriteString(nl)
	}
	b.WriteString(line)
	b.WriteString(nl)
	return text.Edit{Start: len(src), End: len(src), New: b.String()}
}

// needsBlankBefore decides whether the new entry gets a blank line before it:
// yes after a heading or prose, and after entries when the file separates its
// entries with blank lines; no when the file already ends with a blank line or
// keeps its entries on consecutive lines.
func needsBlankBefore(d *memfile.Document) bool {
	last := lastNonBlank(d, len(d.Lines)-1)
	if last < 0 {
		return false
	}
	if lastTextLine(d) > last {
		return false // the file already ends with a blank line
	}
	if d.Lines[last].Kind != memfile.KindEntry {
		return true
	}
	adjacent, separated := 0, 0
	prev := -1
	hackLMHeader := false
	for i, ln := range d.Lines {
		if ln.Kind == memfile.KindBoilerplate {
			hackLMHeader = true
		}
		if ln.Kind != memfile.KindEntry {
			continue
		}
		if prev >= 0 {
			if prev == i-1 {
				adjacent++
			} else if lastNonBlank(d, i-1) == prev {
				separated++
			}
		}
		prev = i
	}
	// With too few entries to tell, a file HackLM created gets HackLM's spacing.
	return separated > adjacent || (separated == adjacent && hackLMHeader)
}

// lastTextLine is the index of the last line that ends with a terminator or
// has text: a final empty "line" after the last LF does not count.
func lastTextLine(d *memfile.Document) int {
	n := len(d.Lines) - 1
	if n > 0 && !d.Lines[n].HasLF && d.Lines[n].Span.Len() == 0 {
		return n - 1
	}
	return n
}

func lastNonBlank(d *memfile.Document, from int) int {
	for i := from; i >= 0; i-- {
		if d.Lines[i].Kind != memfile.KindBlank {
			return i
		}
	}
	return -1
}
