package refs

import (
	"bytes"
	"encoding/json"
)

// packageJSON is what the reference rules read of a package.json: the
// top-level strings and the members of the top-level objects, each with its
// line.
type packageJSON struct {
	strings map[string]jsonMember
	objects map[string][]jsonMember
}

// jsonMember is one member of an object: its key, its value when it is a
// string, and the 1-based line of its key.
type jsonMember struct {
	key, value string
	isString   bool
	line       int
}

// readPackageJSON reads src as a JSON object. ok is false when it is not
// one (a package.json npm itself would refuse). A key given twice keeps its
// last value, as JSON.parse does.
func readPackageJSON(src []byte) (pkg packageJSON, ok bool) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	if !json.Valid(src) {
		return packageJSON{}, false
	}
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(src)), src: src, line: 1}
	if d, err := r.dec.Token(); err != nil || d != json.Delim('{') {
		return packageJSON{}, false
	}
	pkg = packageJSON{strings: map[string]jsonMember{}, objects: map[string][]jsonMember{}}
	for r.dec.More() {
		key, line, ok := r.key()
		if !ok {
			return packageJSON{}, false
		}
		tok, err := r.dec.Token()
		if err != nil {
			return packageJSON{}, false
		}
		delete(pkg.strings, key)
		delete(pkg.objects, key)
		switch v := tok.(type) {
		case string:
			pkg.strings[key] = jsonMember{key: key, value: v, isString: true, line: line}
		case json.Delim:
			if v != '{' {
				if !r.skip(v) {
					return packageJSON{}, false
				}
				continue
			}
			members, ok := r.members()
			if !ok {
				return packageJSON{}, false
			}
			pkg.objects[key] = members
		}
	}
	if _, err := r.dec.Token(); err != nil { // the closing brace
		return packageJSON{}, false
	}
	return pkg, true
}

// jsonReader walks a JSON text by tokens and knows the line of each key.
type jsonReader struct {
	dec  *json.Decoder
	src  []byte
	off  int // the offset line was counted to
	line int
}

// key reads an object's key and its line.
func (r *jsonReader) key() (string, int, bool) {
	tok, err := r.dec.Token()
	k, isString := tok.(string)
	if err != nil || !isString {
		return "", 0, false
	}
	// The decoder stands just after the key's closing quote; a key holds
	// no raw line break, so that is the key's line.
	end := min(int(r.dec.InputOffset()), len(r.src))
	r.line += bytes.Count(r.src[r.off:end], []byte{'\n'})
	r.off = end
	return k, r.line, true
}

// members reads the rest of an object whose "{" was read: each member,
// with nested values skipped.
func (r *jsonReader) members() ([]jsonMember, bool) {
	var out []jsonMember
	for r.dec.More() {
		key, line, ok := r.key()
		if !ok {
			return nil, false
		}
		tok, err := r.dec.Token()
		if err != nil {
			return nil, false
		}
		m := jsonMember{key: key, line: line}
		switch v := tok.(type) {
		case string:
			m.value, m.isString = v, true
		case json.Delim:
			if !r.skip(v) {
				return nil, false
			}
		}
		out = append(out, m)
	}
	_, err := r.dec.Token() // "}"
	return out, err == nil
}

// skip reads past the rest of the array or object opened by d.
func (r *jsonReader) skip(d json.Delim) bool {
	if d != '{' && d != '[' {
		return false
	}
	for depth := 1; depth > 0; {
		tok, err := r.dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return true
}

// parsePackageScripts reads package.json's scripts. A package.json without
// scripts lists none; one that is not a JSON object cannot be read.
func parsePackageScripts(src []byte) (Manifest, bool) {
	pkg, ok := readPackageJSON(src)
	if !ok {
		return Manifest{}, false
	}
	var n names
	for _, m := range pkg.objects["scripts"] {
		if m.key != "" { // no command runs a script without a name
			n.add(m.key, m.line, false)
		}
	}
	return n.m, true
}
