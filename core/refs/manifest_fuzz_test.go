package refs

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzMakefile holds the Makefile reader to its promises on any input: no
// panic, one line per name, each line inside the file, and every name a
// word of the file that is neither a pattern nor a variable.
func FuzzMakefile(f *testing.F) {
	for _, s := range []string{
		".PHONY: build test\nbuild: deps\n\tgo build\n%.o: %.c\n\tcc\n",
		"include x.mk\n$(BIN): $(SRC:.c=.o)\ndefine T\na: b\nendef\n",
		"a b &: c | d ; e\nX ::= y\\\n z\nifeq (a,b)\nc::\nendif\n",
		"\xff: \x00\n:\n\\",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, ok := ParseManifest(Make, src)
		if !ok {
			t.Fatal("a Makefile is always read")
		}
		checkManifest(t, m, src)
		for _, n := range m.Names {
			if strings.ContainsAny(n, "%$ \t\n") {
				t.Fatalf("name %q is a pattern, a variable or holds a space", n)
			}
		}
	})
}

// FuzzPackageScripts compares the package.json reader with encoding/json:
// it reads exactly the JSON objects, and its names are the keys of the
// scripts object JSON.parse would keep.
func FuzzPackageScripts(f *testing.F) {
	for _, s := range []string{
		`{"scripts": {"build": "tsc", "test:e2e": "x"}}`,
		"{\n\"scripts\": {\"a\": {\"b\": [1, 2]}},\n\"scripts\": {\"c\": \"d\"}}",
		`{"scripts": "x"}`, `{"scripts": {"": "x"}}`, `[]`, `{"a": 1} {}`, `{"\u0061": {}}`, "{\"scripts\": {\"\xff\": 1}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, ok := ParseManifest(Npm, src)
		var top map[string]json.RawMessage
		trimmed := bytes.TrimPrefix(src, []byte("\uFEFF"))
		valid := json.Unmarshal(trimmed, &top) == nil && top != nil
		if ok != valid {
			t.Fatalf("ok = %v, encoding/json reads an object: %v", ok, valid)
		}
		if !ok {
			return
		}
		checkManifest(t, m, src)
		var scripts map[string]json.RawMessage
		var want []string
		if json.Unmarshal(top["scripts"], &scripts) == nil {
			for k := range scripts {
				if k != "" {
					want = append(want, k)
				}
			}
		}
		got := slices.Clone(m.Names)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("names %q, encoding/json reads %q", got, want)
		}
	})
}

// checkManifest: one line per name, each inside src, and names unique.
func checkManifest(t *testing.T, m Manifest, src []byte) {
	t.Helper()
	if len(m.Lines) != len(m.Names) {
		t.Fatalf("%d names, %d lines", len(m.Names), len(m.Lines))
	}
	n := bytes.Count(src, []byte{'\n'}) + 1
	seen := map[string]bool{}
	for i, name := range m.Names {
		if name == "" || seen[name] {
			t.Fatalf("name %d %q empty or repeated", i, name)
		}
		seen[name] = true
		if l := m.Lines[i]; l < 1 || l > n {
			t.Fatalf("name %q on line %d of %d", name, l, n)
		}
	}
}

// FuzzReaders runs every other manifest and pin reader on any input: none
// panics, and every pin has a value and a line inside the file.
func FuzzReaders(f *testing.F) {
	for _, s := range []string{
		"tasks:\n  a:\n    aliases: [b]\nincludes:\n",
		"alias b := build\n@build x=\"1:2\":\n",
		"[dependencies]\nserde = { version = \"1\" }\n[project]\ndependencies = [\n\"a>=1\",\n",
		"FROM node:22 AS b\nservices:\n  image: 'x:1'\ngo 1.22\nrequire (\na v1\n",
		"steps:\n  - uses: golangci/golangci-lint-action@v8\n    with:\n      version: v2.9\n  node-version:\n    - 22\n",
	} {
		f.Add([]byte(s))
	}
	files := []string{".nvmrc", ".python-version", ".tool-versions", "go.mod", "package.json", "pyproject.toml",
		"Cargo.toml", "rust-toolchain", "rust-toolchain.toml", "Dockerfile", "compose.yaml"}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, tool := range []Tool{Just, Task} {
			m, _ := ParseManifest(tool, src)
			checkManifest(t, m, src)
		}
		n := bytes.Count(src, []byte{'\n'}) + 1
		for _, file := range files {
			for _, p := range ParsePins(file, src) {
				if p.Subject == "" || p.Pin.Value == "" || p.Pin.File != file || p.Pin.Line < 1 || p.Pin.Line > n {
					t.Fatalf("%s: pin %+v", file, p)
				}
			}
		}
		const workflow = ".github/workflows/ci.yml"
		for _, p := range ParseWorkflowPins(workflow, src) {
			if p.Subject == "" || p.Pin.Value == "" || p.Pin.File != workflow || p.Pin.Line < 1 || p.Pin.Line > n {
				t.Fatalf("%s: pin %+v", workflow, p)
			}
		}
	})
}
