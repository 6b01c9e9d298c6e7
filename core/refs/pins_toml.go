package refs

import (
	"strings"
)

// The TOML manifests (pyproject.toml, Cargo.toml, rust-toolchain.toml) are
// read line by line: a [table] header sets the table, `key = value` lines
// are its keys, and an array that goes on over several lines is followed to
// its closing bracket. That is all the shape version pins take.

// tomlEntry is one `key = value` of a TOML file.
type tomlEntry struct {
	table, key string
	line       int
	value      string       // the value's text on the key's line
	strs       []tomlString // the strings of the value, across the lines of an array
}

type tomlString struct {
	s    string
	line int
}

// tomlEntries reads the key/value lines of src, in order.
func tomlEntries(src []byte) []tomlEntry {
	var out []tomlEntry
	table := ""
	var open *tomlEntry // an array still open on a later line
	depth := 0
	for num, line := range lines(src) {
		if open != nil {
			depth = tomlStrings(line, num, depth, &open.strs)
			if depth <= 0 {
				out = append(out, *open)
				open = nil
			}
			continue
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table = tomlTable(t)
			continue
		}
		eq := strings.IndexByte(t, '=')
		if eq <= 0 || t[0] == '#' {
			continue
		}
		e := tomlEntry{table: table, key: tomlKey(t[:eq]), line: num, value: strings.TrimSpace(t[eq+1:])}
		depth = tomlStrings(e.value, num, 0, &e.strs)
		if depth > 0 {
			open = &e
			continue
		}
		out = append(out, e)
	}
	if open != nil {
		out = append(out, *open)
	}
	return out
}

// tomlTable reads a header, `[a.b]` or `[[a]]`, into its dotted name.
func tomlTable(t string) string {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "["), "[")
	i := strings.IndexByte(t, ']')
	if i < 0 {
		return "" // a broken header: its keys belong to no table read here
	}
	t = t[:i]
	parts := strings.Split(t, ".")
	for i, p := range parts {
		parts[i] = tomlKey(p)
	}
	return strings.Join(parts, ".")
}

// tomlKey trims a key and its quotes.
func tomlKey(k string) string {
	return unquoteYAML(strings.TrimSpace(k))
}

// tomlStrings appends the strings of one line of a value to strs and
// returns the bracket depth after it (depth before it given); a comment ends
// the line.
func tomlStrings(s string, line, depth int, strs *[]tomlString) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '#':
			return depth
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case '"', '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if c == '"' && s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
			}
			*strs = append(*strs, tomlString{b.String(), line})
			i = j
		}
	}
	return depth
}

// tomlInline reads key's string in an inline table (`{ version = "1.0" }`).
func tomlInline(value, key string) (string, bool) {
	for rest := value; ; {
		i := strings.Index(rest, key)
		if i < 0 {
			return "", false
		}
		before := strings.TrimRight(rest[:i], " \t")
		after := strings.TrimLeft(rest[i+len(key):], " \t")
		rest = rest[i+len(key):]
		if !strings.HasSuffix(before, "{") && !strings.HasSuffix(before, ",") || !strings.HasPrefix(after, "=") {
			continue
		}
		var strs []tomlString
		tomlStrings(strings.TrimLeft(after[1:], " \t"), 0, 0, &strs)
		if len(strs) == 0 {
			return "", false
		}
		return strs[0].s, true
	}
}

// pyprojectPins reads pyproject.toml: requires-python, and the
// dependencies of [project], its optional-dependencies and the
// [dependency-groups], each a PEP 508 requirement.
func pyprojectPins(src []byte) []Pinned {
	var out []Pinned
	for _, e := range tomlEntries(src) {
		switch {
		case e.table == "project" && e.key == "requires-python" && len(e.strs) == 1:
			out = append(out, Pinned{"python", Pin{Value: e.strs[0].s, Line: e.line}})
		case e.table == "project" && e.key == "dependencies",
			e.table == "project.optional-dependencies", e.table == "dependency-groups":
			for _, s := range e.strs {
				if name, spec, ok := requirement(s.s); ok {
					out = append(out, Pinned{name, Pin{Value: spec, Line: s.line}})
				}
			}
		}
	}
	return out
}

// requirement reads a PEP 508 requirement, `name[extras] spec ; marker`,
// into its lower-case name and version specifier; ok is false for one
// without a specifier or from a URL (`name @ https://…`).
func requirement(s string) (name, spec string, ok bool) {
	s, _, _ = strings.Cut(s, ";")
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (isNameByte(s[i]) && s[i] != '+') {
		i++
	}
	name, rest := strings.ToLower(s[:i]), strings.TrimSpace(s[i:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")"))
	if name == "" || rest == "" || strings.HasPrefix(rest, "@") {
		return "", "", false
	}
	return name, rest, true
}

// cargoTables are the last parts of the tables that list dependencies.
var cargoTables = set("dependencies", "dev-dependencies", "build-dependencies")

// cargoPins reads Cargo.toml: each dependency's version (`serde = "1.0"`,
// `{ version = "1.0" }`, a [dependencies.serde] table), which Cargo reads as
// a caret range, and the package's rust-version, the least Rust it builds with.
func cargoPins(src []byte) []Pinned {
	var out []Pinned
	for _, e := range tomlEntries(src) {
		dot := strings.LastIndexByte(e.table, '.')
		last := e.table[dot+1:]
		parent := ""
		if dot >= 0 {
			p := e.table[:dot]
			parent = p[strings.LastIndexByte(p, '.')+1:]
		}
		switch {
		case (e.table == "package" || e.table == "workspace.package") && e.key == "rust-version" && len(e.strs) == 1:
			out = append(out, Pinned{"rust", Pin{Value: e.strs[0].s, Line: e.line, Bare: AtLeast}})
		case cargoTables[last] && strings.HasSuffix(e.key, ".version") && len(e.strs) == 1:
			// a dotted key: serde.version = "1.0"
			out = append(out, Pinned{strings.ToLower(strings.TrimSuffix(e.key, ".version")), Pin{Value: e.strs[0].s, Line: e.line, Bare: Caret}})
		case cargoTables[last] && strings.Contains(e.key, "."):
		case cargoTables[last] && strings.HasPrefix(e.value, `"`) && len(e.strs) == 1:
			out = append(out, Pinned{strings.ToLower(e.key), Pin{Value: e.strs[0].s, Line: e.line, Bare: Caret}})
		case cargoTables[last] && strings.HasPrefix(e.value, "{"):
			if v, ok := tomlInline(e.value, "version"); ok {
				out = append(out, Pinned{strings.ToLower(e.key), Pin{Value: v, Line: e.line, Bare: Caret}})
			}
		case cargoTables[parent] && e.key == "version" && len(e.strs) == 1:
			out = append(out, Pinned{strings.ToLower(last), Pin{Value: e.strs[0].s, Line: e.line, Bare: Caret}})
		}
	}
	return out
}

// rustToolchain reads rust-toolchain.toml's channel ("1.75.0"; "stable"
// or "nightly" pin no number, which Judge cannot read and ignores).
func rustToolchain(src []byte) []Pinned {
	for _, e := range tomlEntries(src) {
		if e.table == "toolchain" && e.key == "channel" && len(e.strs) == 1 {
			return []Pinned{{"rust", Pin{Value: e.strs[0].s, Line: e.line}}}
		}
	}
	return nil
}

// rustToolchainLegacy reads rust-toolchain, which holds the channel alone
// or, in newer projects, the TOML of rust-toolchain.toml.
func rustToolchainLegacy(src []byte) []Pinned {
	if strings.Contains(string(src), "[toolchain]") {
		return rustToolchain(src)
	}
	return versionFile(src, "rust", true)
}
