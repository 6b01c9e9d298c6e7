package crossfile

import (
	"testing"

	"github.com/memory-lsp/memory-lsp/core/similar"
)

var th = similar.Thresholds{Skip: 0.8, Update: 0.6}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		entry, line, heading string
		code                 bool
		kind                 string // "" for none
	}{
		{"Use pnpm for installs.", "Run `npm install` to set up the project.", "", false, PackageManager},
		{"Use pnpm for installs.", "npm install", "Setup", true, PackageManager},
		{"Use pnpm, not npm.", "pnpm install", "", true, ""},
		{"Use pnpm for installs.", "Install the CLI with `npm install -g tool`.", "", false, ""},
		{"Use pnpm for installs.", "Publish with `npm publish` after the release.", "", false, ""},
		{"Use pnpm for installs.", "npm install", "Frontend", true, ""},
		{"Use pnpm for installs.", "Use npm or pnpm, whichever you like.", "", false, ""},
		{"We use yarn workspaces.", "Never use yarn; use pnpm.", "", false, PackageManager},
		{"Node 18 is required.", "Use Node 20 for development.", "", false, Version},
		{"Node 18 or newer is required.", "Use Node 20 for development.", "", false, ""},
		{"Node 18 is required.", "Upgrade from Node 16 to Node 20 before March.", "", false, ""},
		{"Python 3.11 is the target.", "Target Python 3.12.", "", false, Version},
		{"Python 3.11 is the target.", "Target Python 3.11.4.", "", false, ""},
		{"Always use tabs for indentation.", "Never use tabs for indentation.", "", false, Reversal},
		{"Always use tabs for indentation.", "Always use tabs for indentation.", "", false, ""},
		{"Keep secrets out of the repository.", "Run the tests before every push.", "", false, ""},
		{"Run `npm run test` for the unit tests.", "`pnpm test:e2e` launches the browser suite.", "", false, ""},
		{"Run `npm run test` for the unit tests.", "`pnpm test` runs them too.", "", false, PackageManager},
		{"Install dependencies with `pnpm i` (pnpm 10 is required).", "npm add @acme/react-hooks", "", true, ""},
		{"Run `cd frontend && npm install` first.", "Frontend: use `bun install` by default.", "", false, PackageManager},
		{"Flutter: 12 module pages are done.", "Flutter 3.x with Riverpod.", "", false, ""},
		// A red team's false alarms: lists and ranges of versions, a version
		// ruled out, history, permission, a failure, a user's install, a
		// preposition after install, a heading of things not to do.
		{"Node 20 is required.", "CI runs the tests on Node 18, 20 and 22.", "", false, ""},
		{"Node 20 is required.", "Node 18 at minimum.", "", false, ""},
		{"Node 20 is required.", "Node 18 is not supported.", "", false, ""},
		{"Python 3.13 breaks numba; keep 3.12.", "Use Python 3.12.", "", false, ""},
		{"Use pnpm for installs.", "Stopped using yarn in 2023.", "", false, ""},
		{"Use pnpm for installs.", "You can also use npm.", "", false, ""},
		{"Use pnpm for installs.", "Running `npm install` will fail.", "", false, ""},
		{"Use pnpm for installs.", "Add it to your app with `npm install @acme/widgets`.", "", false, ""},
		{"Run `pnpm install` at the root.", "Run `npm i react` in your own app.", "", false, ""},
		{"Do not use default exports.", "Use default exports.", "Don'ts", false, ""},
	} {
		lines := []Line{{Path: "AGENTS.md", Text: tc.line, Code: tc.code, Heading: tc.heading}}
		got := Find([]string{tc.entry}, lines, th)
		kind := ""
		if len(got) > 0 {
			kind = got[0].Kind
		}
		if kind != tc.kind {
			t.Errorf("%q / %q (%s): got %q %+v, want %q", tc.entry, tc.line, tc.heading, kind, got, tc.kind)
		}
	}
}

func TestLines(t *testing.T) {
	src := "---\nalwaysApply: true\n---\n# Setup\n\n- Run `npm install`.\n1. Then `npm test`.\n<!-- memory-lsp:start -->\n- [x](.memory/x.md)\n<!-- memory-lsp:end -->\n```sh\npnpm i\n```\n| a | b |\n|---|---|\n<!-- note -->\n> Quoted rule.\n"
	got := Lines("AGENTS.md", []byte(src))
	want := []struct {
		line int
		text string
		code bool
	}{{5, "Run `npm install`.", false}, {6, "Then `npm test`.", false}, {11, "pnpm i", true}, {13, "| a | b |", false}, {16, "Quoted rule.", false}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.line || g.Text != w.text || g.Code != w.code || src[g.Start:g.End] != w.text || g.Heading != "Setup" {
			t.Errorf("line %d: got %+v, want %+v", i, g, w)
		}
	}
}
