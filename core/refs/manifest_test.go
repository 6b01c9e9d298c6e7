package refs

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	cases := []struct {
		name  string
		tool  Tool
		src   string
		want  Manifest
		notOK bool
	}{
		// Makefiles.
		{name: "make rules and phony", tool: Make, src: ".PHONY: build test lint\n\n# build it\nbuild: deps\n\tgo build ./...\n\ntest:\n\tgo test ./...\n",
			want: Manifest{Names: []string{"build", "test", "lint"}, Lines: []int{4, 7, 1}}},
		{name: "make several targets and double colon", tool: Make, src: "a b c: x\nclean::\n\trm -rf out\n",
			want: Manifest{Names: []string{"a", "b", "c", "clean"}, Lines: []int{1, 1, 1, 2}}},
		{name: "make assignments are no targets", tool: Make, src: "CC := gcc\nX ::= y\nZ = a:b\nW ?= 1\nV += 2\nU != date\nT:=1\nall: $(BIN)\n",
			want: Manifest{Names: []string{"all"}, Lines: []int{8}}},
		{name: "make pattern rule is open", tool: Make, src: "%.o: %.c\n\tcc $<\nbuild: main.o\n",
			want: Manifest{Names: []string{"build"}, Lines: []int{3}, Open: true}},
		{name: "make include is open", tool: Make, src: "include common.mk\nbuild:\n",
			want: Manifest{Names: []string{"build"}, Lines: []int{2}, Open: true}},
		{name: "make -include is open", tool: Make, src: "-include .env\n", want: Manifest{Open: true}},
		// a line that is an expansion may expand to rules: the fourth
		// reference set's root Makefile hands every goal to tools/make/*.mk
		{name: "make goals handed on by an expansion is open", tool: Make, src: "_run:\n\t@$(MAKE) -f tools/make/linter.mk $(MAKECMDGOALS)\n.PHONY: _run\n$(if $(MAKECMDGOALS),$(MAKECMDGOALS): %: _run)\n",
			want: Manifest{Names: []string{"_run"}, Lines: []int{1}, Open: true}},
		{name: "make eval is open", tool: Make, src: "$(eval $(call tpl,build))\n", want: Manifest{Open: true}},
		{name: "make info is not open", tool: Make, src: "$(info building)\n$(warning old make)\nbuild:\n", want: Manifest{Names: []string{"build"}, Lines: []int{3}}},
		{name: "make variable target is open", tool: Make, src: "$(BIN): main.go\n\tgo build\nrun: $(BIN)\n",
			want: Manifest{Names: []string{"run"}, Lines: []int{3}, Open: true}},
		{name: "make colon inside a variable reference", tool: Make, src: "objs: $(SRC:.c=.o)\n",
			want: Manifest{Names: []string{"objs"}, Lines: []int{1}}},
		{name: "make recipe lines are skipped", tool: Make, src: "build:\n\techo not: a target\n\tfoo: bar\n",
			want: Manifest{Names: []string{"build"}, Lines: []int{1}}},
		{name: "make continued recipe", tool: Make, src: "build:\n\techo a \\\n\tb: c\nnext:\n",
			want: Manifest{Names: []string{"build", "next"}, Lines: []int{1, 4}}},
		{name: "make continued target list", tool: Make, src: ".PHONY: a \\\n  b\nb:\n",
			want: Manifest{Names: []string{"a", "b"}, Lines: []int{1, 3}}},
		{name: "make define block", tool: Make, src: "define TPL\nfake: target\nendef\nreal:\n",
			want: Manifest{Names: []string{"real"}, Lines: []int{4}}},
		{name: "make special targets", tool: Make, src: ".SUFFIXES:\n.DELETE_ON_ERROR:\n.ONESHELL:\n.DEFAULT_GOAL := build\nbuild:\n",
			want: Manifest{Names: []string{"build"}, Lines: []int{5}}},
		{name: "make default rule is open", tool: Make, src: ".DEFAULT:\n\t@echo $@\n", want: Manifest{Open: true}},
		{name: "make suffix rule is open", tool: Make, src: ".c.o:\n\tcc -c $<\n", want: Manifest{Open: true}},
		{name: "make target-specific variable", tool: Make, src: "test: GOFLAGS = -race\ntest:\n\tgo test\n",
			want: Manifest{Names: []string{"test"}, Lines: []int{1}}},
		{name: "make conditionals and comments", tool: Make, src: "ifeq ($(OS),Windows_NT)\nwin: # only there\nelse\nunix:\nendif\n# old: target\n",
			want: Manifest{Names: []string{"win", "unix"}, Lines: []int{2, 4}}},
		{name: "make export and override", tool: Make, src: "export PATH := x:y\noverride CFLAGS = -O2\nexport\nall:\n",
			want: Manifest{Names: []string{"all"}, Lines: []int{4}}},
		{name: "make order-only and recipe after semicolon", tool: Make, src: "out: a | dir ; echo x: y\n",
			want: Manifest{Names: []string{"out"}, Lines: []int{1}}},
		{name: "make grouped targets", tool: Make, src: "a.h a.c &: a.y\n",
			want: Manifest{Names: []string{"a.h", "a.c"}, Lines: []int{1, 1}}},
		{name: "make CRLF", tool: Make, src: "build:\r\n\tgo build\r\ntest:\r\n",
			want: Manifest{Names: []string{"build", "test"}, Lines: []int{1, 3}}},
		{name: "make empty", tool: Make, src: "", want: Manifest{}},
		{name: "make garbage", tool: Make, src: ":\n::\n:=\n\\\n$(\n${:\n", want: Manifest{}},

		// package.json.
		{name: "scripts with lines", tool: Npm, src: "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test:e2e\": \"playwright test\"\n  }\n}\n",
			want: Manifest{Names: []string{"build", "test:e2e"}, Lines: []int{4, 5}}},
		{name: "scripts after nested objects", tool: Pnpm, src: `{"a": {"b": [1, {"c": "d"}]},` + "\n" + `"scripts": {"x": "y", "z": {"w": 1}}}`,
			want: Manifest{Names: []string{"x", "z"}, Lines: []int{2, 2}}},
		{name: "no scripts", tool: Yarn, src: `{"name": "x"}`, want: Manifest{}},
		{name: "scripts not an object", tool: Bun, src: `{"scripts": ["a"]}`, want: Manifest{}},
		{name: "later scripts win", tool: Npm, src: "{\"scripts\": {\"a\": \"1\"},\n\"scripts\": {\"b\": \"2\"}}", want: Manifest{Names: []string{"b"}, Lines: []int{2}}},
		{name: "BOM", tool: Npm, src: "\uFEFF{\"scripts\": {\"a\": \"1\"}}", want: Manifest{Names: []string{"a"}, Lines: []int{1}}},
		{name: "not JSON", tool: Npm, src: "{scripts: {a: 1}}", notOK: true},
		{name: "truncated JSON", tool: Npm, src: `{"scripts": {"a": "1"`, notOK: true},
		{name: "JSON array", tool: Npm, src: `["scripts"]`, notOK: true},
		{name: "text after the object", tool: Npm, src: `{"scripts": {}} {}`, notOK: true},
		{name: "empty file", tool: Npm, src: ``, notOK: true},

		// justfiles.
		{name: "just recipes", tool: Just, src: "set shell := [\"bash\", \"-c\"]\nversion := \"1.0\"\n\n# Build it\ndefault: build\n\n@build target=\"debug\":\n    cargo build\n\ntest *args: build\n    cargo test {{args}}\n[private]\n_helper:\n",
			want: Manifest{Names: []string{"default", "build", "test", "_helper"}, Lines: []int{5, 7, 10, 13}}},
		{name: "just alias", tool: Just, src: "alias b := build\nbuild:\n",
			want: Manifest{Names: []string{"b", "build"}, Lines: []int{1, 2}}},
		{name: "just import is open", tool: Just, src: "import 'common.just'\nbuild:\n",
			want: Manifest{Names: []string{"build"}, Lines: []int{2}, Open: true}},
		{name: "just optional module is open", tool: Just, src: "mod? docker\n", want: Manifest{Open: true}},
		{name: "just fallback is open", tool: Just, src: "set fallback\n", want: Manifest{Open: true}},
		{name: "just fallback false", tool: Just, src: "set fallback := false\n", want: Manifest{}},
		{name: "just colon in a quoted default", tool: Just, src: "serve addr=\"0.0.0.0:80\":\n",
			want: Manifest{Names: []string{"serve"}, Lines: []int{1}}},
		{name: "just assignments and exports", tool: Just, src: "x := \"a:b\"\nexport Y := \"1\"\nz = \"old\"\n", want: Manifest{}},
		{name: "just garbage", tool: Just, src: ":\n@\n\"a\":\n9lives:\n-x:\n", want: Manifest{}},

		// Taskfiles.
		{name: "task keys", tool: Task, src: "version: '3'\n\nvars:\n  X: 1\n\ntasks:\n  build:\n    cmds:\n      - go build\n  \"test:e2e\":\n    desc: e2e\n  lint:web: # namespaced\n    cmd: x\ndotenv: ['.env']\n",
			want: Manifest{Names: []string{"build", "test:e2e", "lint:web"}, Lines: []int{7, 10, 12}}},
		{name: "task aliases flow and block", tool: Task, src: "tasks:\n  build:\n    aliases: [b, 'bld']\n    cmds:\n      - x\n  test:\n    aliases:\n      - t\n    cmd: y\n",
			want: Manifest{Names: []string{"build", "b", "bld", "test", "t"}, Lines: []int{2, 3, 3, 6, 8}}},
		{name: "task includes is open", tool: Task, src: "includes:\n  docs: ./docs\ntasks:\n  a:\n",
			want: Manifest{Names: []string{"a"}, Lines: []int{4}, Open: true}},
		{name: "task wildcard is open", tool: Task, src: "tasks:\n  start:*:\n    cmd: x\n", want: Manifest{Open: true}},
		{name: "task inline mapping is open", tool: Task, src: "tasks: {a: {cmd: x}}\n", want: Manifest{Open: true}},
		{name: "task block scalar lines are no tasks", tool: Task, src: "tasks:\n  a:\n    cmd: |\n      b: c\n        d:\n",
			want: Manifest{Names: []string{"a"}, Lines: []int{2}}},
		{name: "task no tasks", tool: Task, src: "version: '3'\n", want: Manifest{}},
		{name: "task garbage", tool: Task, src: "tasks:\n- a\n  :\n \"x\n'", want: Manifest{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ParseManifest(c.tool, []byte(c.src))
			if ok == c.notOK {
				t.Fatalf("ok = %v, want %v", ok, !c.notOK)
			}
			if c.notOK {
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestManifestLinesMatchNames: every reader gives one line per name.
func TestManifestLinesMatchNames(t *testing.T) {
	for _, tool := range []Tool{Make, Npm, Just, Task} {
		m, _ := ParseManifest(tool, []byte(strings.Repeat("a:\n\"b\": 1\n  c:\n", 3)))
		if len(m.Lines) != len(m.Names) {
			t.Errorf("%s: %d names, %d lines", tool, len(m.Names), len(m.Lines))
		}
	}
}

func TestManifestNames(t *testing.T) {
	for _, tool := range []Tool{Make, Npm, Pnpm, Yarn, Bun, Just, Task} {
		if len(ManifestNames(tool)) == 0 {
			t.Errorf("%s has no manifest names", tool)
		}
	}
	if ManifestNames(0) != nil {
		t.Error("the zero tool has manifest names")
	}
}

// TestManifestNamesWithoutControls: a name holding a control character is
// no name a person runs, and is never printed (a red team's Makefile
// wrote "\x00\x01lint:" to reach the terminal).
func TestManifestNamesWithoutControls(t *testing.T) {
	m, _ := ParseManifest(Make, []byte("\x01lint:\n\techo\nbuild:\n\tgo build\n"))
	if len(m.Names) != 1 || m.Names[0] != "build" {
		t.Errorf("names %q, want build only", m.Names)
	}
	p, _ := ParseManifest(Npm, []byte(`{"scripts": {"a\u001bb": "x", "dev": "vite"}}`))
	if len(p.Names) != 1 || p.Names[0] != "dev" {
		t.Errorf("scripts %q, want dev only", p.Names)
	}
}
