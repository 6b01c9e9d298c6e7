package lsp_test

// The references entries cite, end to end: the real binary in a real git
// repository, an editor that cannot watch files (so the server watches the
// cited folders itself). Diagnostics for a stale path, links and
// definitions for cited paths and commands, and a stale-path diagnostic
// that appears after `git mv` of a cited file and goes when the file is
// back.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

const referencesMakefile = ".PHONY: build e2e\n" +
	"\n" +
	"build:\n" +
	"\tgo build ./...\n" +
	"\n" +
	"e2e:\n" + // line 6
	"\tgo test ./e2e/...\n"

const referencesDecisions = "# Decisions\n" +
	"\n" +
	"- [auth] Auth lives in `src/auth/session.ts:3`; run `make e2e` before merging.\n" +
	"- [router] The old router lived in `src/router/old.ts`.\n"

// overlaps reports whether a diagnostic's range shares a character with r.
func overlaps(a, r lsptest.Range) bool {
	before := func(p, q lsptest.Position) bool {
		return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
	}
	return before(a.Start, r.End) && before(r.Start, a.End)
}

// staleAt is the stale-path diagnostic over r, or nil.
func staleAt(d *lsptest.Diagnostics, r lsptest.Range) *lsptest.Diagnostic {
	for i := range d.Diagnostics {
		if x := &d.Diagnostics[i]; x.Code == "stale-path" && overlaps(x.Range, r) {
			return x
		}
	}
	return nil
}

func TestE2EReferences(t *testing.T) {
	if !slices.ContainsFunc(rules.Rules(), func(i rules.Info) bool { return i.Code == "stale-path" }) {
		t.Skip("the stale-path rule is not registered in this build: the test runs once the reference rules and the repository view are merged")
	}
	repo := gittest.New(t)
	root := repo.Top()
	session := filepath.Join(root, "src", "auth", "session.ts")
	memory := filepath.Join(root, ".memory", "decisions.md")
	writeFile(t, session, "// the session\nexport const ttl = 3600;\nexport function open() {}\n")
	writeFile(t, filepath.Join(root, "src", "router", "old.ts"), "export {};\n")
	writeFile(t, filepath.Join(root, "Makefile"), referencesMakefile)
	writeFile(t, memory, referencesDecisions)
	// Fixed dates order the commits (and say which came before an entry
	// was written) whatever the clock's resolution.
	repo.Commit("2024-01-01T10:00:00Z", "the code and its memory")
	written := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	// The router goes after the entry citing it was written: stale.
	repo.Git("rm", "-q", "src/router/old.ts")
	repo.Commit("2024-01-02T10:00:00Z", "drop the old router")

	c := startBinary(t, root)
	c.Initialize(lsptest.InitializeParams(root, nil))
	uri := c.OpenFile(memory)
	at := func(cited string) lsptest.Range {
		t.Helper()
		i := strings.Index(referencesDecisions, cited)
		if i < 0 {
			t.Fatalf("%q is not in the memory file", cited)
		}
		return lsptest.Range{Start: lsptest.PositionAt(referencesDecisions, i), End: lsptest.PositionAt(referencesDecisions, i+len(cited))}
	}
	sessionRange, routerRange, makeRange := at("src/auth/session.ts:3"), at("src/router/old.ts"), at("make e2e")

	// The diagnostics: the deleted router is stale, the session is not.
	d := c.AwaitDiagnostics(uri, 1, wait)
	if staleAt(d, routerRange) == nil {
		t.Errorf("no stale-path on the deleted src/router/old.ts; got %v", d.Codes())
	}
	if x := staleAt(d, sessionRange); x != nil {
		t.Errorf("stale-path on src/auth/session.ts, which exists: %s", x.Message)
	}

	// The links: the cited file at its line, the Makefile at the target.
	links := func() map[string]lsptest.Range {
		var got []struct {
			Range  lsptest.Range `json:"range"`
			Target string        `json:"target"`
		}
		c.RequestInto("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uri}}, &got)
		out := map[string]lsptest.Range{}
		for _, l := range got {
			out[l.Target] = l.Range
		}
		return out
	}
	sessionLink := lsptest.URI(session) + "#L3"
	makeLink := lsptest.URI(filepath.Join(root, "Makefile")) + "#L6"
	want := map[string]lsptest.Range{sessionLink: sessionRange, makeLink: makeRange}
	if got := links(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("links = %v, want %v", got, want)
	}

	// Go to definition.
	definition := func(r lsptest.Range) string {
		var loc *struct {
			URI   string        `json:"uri"`
			Range lsptest.Range `json:"range"`
		}
		c.RequestInto("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": r.Start}, &loc)
		if loc == nil {
			return "null"
		}
		return fmt.Sprintf("%s %d", loc.URI, loc.Range.Start.Line)
	}
	if got, want := definition(sessionRange), lsptest.URI(session)+" 2"; got != want {
		t.Errorf("definition of the cited path = %s, want %s", got, want)
	}
	if got, want := definition(makeRange), lsptest.URI(filepath.Join(root, "Makefile"))+" 5"; got != want {
		t.Errorf("definition of make e2e = %s, want %s", got, want)
	}
	if got := definition(routerRange); got != "null" {
		t.Errorf("definition of a deleted path = %s, want null", got)
	}

	// The hover says where the cited file was last changed.
	var h struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	c.RequestInto("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": sessionRange.Start}, &h)
	if want := "`src/auth/session.ts:3` exists, last changed "; !strings.HasPrefix(h.Contents.Value, want) || !strings.HasSuffix(h.Contents.Value, " in "+written[:7]) {
		t.Errorf("hover on the cited path = %q, want %q… in %s", h.Contents.Value, want, written[:7])
	}

	// git mv of the cited file: the entry goes stale, naming the new path.
	from := c.Mark()
	repo.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts")
	repo.Commit("2024-02-01T10:00:00Z", "rename the session")
	d = c.AwaitDiagnosticsWhere(from, uri, wait, func(d *lsptest.Diagnostics) bool {
		x := staleAt(d, sessionRange)
		return x != nil && strings.Contains(x.Message, "src/auth/sessions.ts")
	})
	if staleAt(d, routerRange) == nil {
		t.Errorf("the router's stale-path went when the session moved: %v", d.Codes())
	}
	if _, ok := links()[sessionLink]; ok {
		t.Error("the link to the moved file remains")
	}

	// Restored: the diagnostic goes, the link is back.
	from = c.Mark()
	repo.Git("mv", "src/auth/sessions.ts", "src/auth/session.ts")
	repo.Commit("2024-02-02T10:00:00Z", "the session's name was right")
	c.AwaitDiagnosticsWhere(from, uri, wait, func(d *lsptest.Diagnostics) bool {
		return staleAt(d, sessionRange) == nil && staleAt(d, routerRange) != nil
	})
	if _, ok := links()[sessionLink]; !ok {
		t.Error("no link to the restored file")
	}
	c.Shutdown()
}

// TestE2EReferencesFollowChanges: after `git mv` of a cited file the
// stale-path is published, and after the move back it goes, the repository
// opened again after each change: the debug log shows one build afresh and
// the others opened again. Once with the client reporting the changes
// (didChangeWatchedFiles, as VS Code and Emacs do), once with the server's
// own watcher (Neovim on Linux); through the binary, in a real git
// repository, nothing committed after the start.
func TestE2EReferencesFollowChanges(t *testing.T) {
	if !slices.ContainsFunc(rules.Rules(), func(i rules.Info) bool { return i.Code == "stale-path" }) {
		t.Skip("the stale-path rule is not registered in this build")
	}
	for _, byClient := range []bool{true, false} {
		name := "server-watcher"
		if byClient {
			name = "client-events"
		}
		t.Run(name, func(t *testing.T) {
			repo := gittest.New(t)
			root := repo.Top()
			memory := filepath.Join(root, ".memory", "decisions.md")
			writeFile(t, filepath.Join(root, "src", "auth", "session.ts"), "export const ttl = 3600;\n")
			writeFile(t, filepath.Join(root, "src", "app.ts"), "export {};\n")
			writeFile(t, filepath.Join(root, "Makefile"), referencesMakefile)
			writeFile(t, memory, referencesDecisions)
			repo.Commit("2024-01-01T10:00:00Z", "the code and its memory")
			logFile := filepath.Join(t.TempDir(), "memory-lsp.log")
			c := startBinary(t, root, "--log-level", "debug", "--log-file", logFile)
			params := lsptest.InitializeParams(root, nil)
			params["capabilities"].(map[string]any)["workspace"].(map[string]any)["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": byClient}
			c.Initialize(params)
			uri := c.OpenFile(memory)
			i := strings.Index(referencesDecisions, "src/auth/session.ts")
			session := lsptest.Range{Start: lsptest.PositionAt(referencesDecisions, i), End: lsptest.PositionAt(referencesDecisions, i+len("src/auth/session.ts"))}
			if x := staleAt(c.AwaitDiagnostics(uri, 1, wait), session); x != nil {
				t.Fatalf("stale-path on src/auth/session.ts, which exists: %s", x.Message)
			}
			move := func(from, to string) {
				t.Helper()
				repo.Git("mv", from, to)
				if byClient {
					event := func(rel string, typ int) map[string]any {
						return map[string]any{"uri": lsptest.URI(filepath.Join(root, filepath.FromSlash(rel))), "type": typ}
					}
					c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
						event(from, 3), event(to, 1), event(".git/index", 2)}})
				}
			}
			from := c.Mark()
			move("src/auth/session.ts", "src/auth/sessions.ts")
			c.AwaitDiagnosticsWhere(from, uri, wait, func(d *lsptest.Diagnostics) bool { return staleAt(d, session) != nil })
			from = c.Mark()
			move("src/auth/sessions.ts", "src/auth/session.ts")
			c.AwaitDiagnosticsWhere(from, uri, wait, func(d *lsptest.Diagnostics) bool { return staleAt(d, session) == nil })
			log := shutdownAndReadLog(t, c, logFile)
			opens, again := strings.Count(log, "opened (every file listed)"), strings.Count(log, ": opened again ")
			if opens != 1 || again == 0 {
				t.Errorf("the repository was opened afresh %d times and again %d times, want afresh once and again after the changes; the log:\n%s", opens, again, log)
			}
		})
	}
}
