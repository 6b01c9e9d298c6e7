package merge

import (
	"bytes"
	"strings"
)

// The git side of the driver: `init --git` writes these.
const (
	// Driver is the driver's name in .gitattributes and git config.
	Driver = "memory-lsp"
	// Pattern selects the memory files, relative to the .gitattributes
	// beside `.memory/`.
	Pattern = ".memory/*.md"
	// AttributesLine is the line .gitattributes needs.
	AttributesLine = Pattern + " merge=" + Driver
	// DriverName is git's merge.memory-lsp.name, shown by git in messages.
	DriverName = "memory-lsp entry merge"
	// DriverArgs follow the program in git's merge.memory-lsp.driver: base,
	// ours (where the result goes), theirs and the file's path.
	DriverArgs = " merge-driver %O %A %B %P"
	// DriverCommand is the driver when memory-lsp is on the PATH of whoever
	// runs git; otherwise init --git registers the binary's absolute path.
	DriverCommand = "memory-lsp" + DriverArgs
)

// AddAttributes returns .gitattributes content that routes Pattern to the
// driver, and whether it differs from cur. A file whose last line setting
// `merge` for Pattern already names the driver is left alone (later lines
// win in git, so an earlier one followed by `merge=union` is not enough);
// otherwise AttributesLine is appended, in the file's line ending, and
// nothing else changes.
func AddAttributes(cur []byte) ([]byte, bool) {
	merge := ""
	for _, line := range strings.Split(string(cur), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != Pattern {
			continue
		}
		for _, a := range f[1:] {
			switch {
			case a == "merge" || a == "-merge" || a == "!merge":
				merge = a
			case strings.HasPrefix(a, "merge="):
				merge = strings.TrimPrefix(a, "merge=")
			}
		}
	}
	if merge == Driver {
		return cur, false
	}
	eol := "\n"
	if bytes.Count(cur, []byte("\r\n"))*2 > bytes.Count(cur, []byte("\n")) {
		eol = "\r\n"
	}
	out := bytes.Clone(cur)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, eol...)
	}
	out = append(out, AttributesLine+eol...)
	return out, true
}
