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

// LogsPattern selects the logs memory-lsp and HackLM append to in
// `.memory/` (provenance.log, conflicts.log, cleanup.log): git's own union
// driver keeps both sides' lines, so two branches that both appended merge
// without a conflict.
const LogsPattern = ".memory/*.log"

// LogsLine is the .gitattributes line for the logs.
const LogsLine = LogsPattern + " merge=union"

// Attributes are the .gitattributes lines init --git needs, each a pattern
// and its merge driver.
var Attributes = [][2]string{{Pattern, Driver}, {LogsPattern, "union"}}

// AddAttributes returns .gitattributes content that routes each pattern of
// Attributes to its driver, and the lines it added. A file whose last line
// setting `merge` for a pattern already names its driver is left alone for
// it (later lines win in git, so an earlier one followed by another driver
// is not enough); otherwise the line is appended, in the file's line
// ending, and nothing else changes.
func AddAttributes(cur []byte) ([]byte, []string) {
	eol := "\n"
	if bytes.Count(cur, []byte("\r\n"))*2 > bytes.Count(cur, []byte("\n")) {
		eol = "\r\n"
	}
	out := bytes.Clone(cur)
	var added []string
	for _, a := range Attributes {
		if mergeOf(out, a[0]) == a[1] {
			continue
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, eol...)
		}
		line := a[0] + " merge=" + a[1]
		out = append(out, line+eol...)
		added = append(added, line)
	}
	return out, added
}

// mergeOf is the merge attribute the last line for pattern sets in a
// .gitattributes file ("" when none does).
func mergeOf(data []byte, pattern string) string {
	merge := ""
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != pattern {
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
	return merge
}
