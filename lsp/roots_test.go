package lsp

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// treeState records every file, folder and symlink under dir: a file's
// bytes, a symlink's target, a folder's mode. Two equal states mean nothing
// under dir was created, removed, written or relinked.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[p] = "symlink " + target
			return err
		case d.IsDir():
			out[p] = "dir"
		default:
			b, err := os.ReadFile(p)
			out[p] = "file " + string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// pathFixture lays out two workspace folders and, beside them, places no
// command may write:
//
//	ws/.memory/decisions.md       a workspace folder
//	ws/README.md                  not a memory file
//	ws/sub/.memory/decisions.md   a folder inside it, with its own .memory
//	ws/nomem/                     a folder inside it without one
//	ws/link -> outside            a symlinked folder leading out
//	ws/evil/.memory -> outside/.memory
//	ws2/.memory/quirks.md -> outside/.memory/quirks.md
//	outside/.memory/{decisions,quirks}.md
//	lone/.memory/decisions.md     opened by the client (single-file mode)
//	alias -> ws                   another name of the workspace folder
type pathFixture struct {
	base, ws, ws2, outside, lone string
}

// An entry without a slug, a duplicate and a deletable line: every write
// command finds something to change in such a file.
const messyDecisions = "# Decisions\n\n- Use Postgres for the main database.\n- Use Postgres for the main database.\n- [old] Deploy on Fridays.\n"

func newPathFixture(t *testing.T) pathFixture {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := pathFixture{base: base, ws: filepath.Join(base, "ws"), ws2: filepath.Join(base, "ws2"),
		outside: filepath.Join(base, "outside"), lone: filepath.Join(base, "lone")}
	for _, root := range []string{f.ws, filepath.Join(f.ws, "sub"), f.outside, f.lone} {
		writeMemory(t, root, "decisions.md", messyDecisions)
	}
	writeMemory(t, f.outside, "quirks.md", "# Quirks\n\n- The build leaks memory.\n")
	if err := os.WriteFile(filepath.Join(f.ws, "README.md"), []byte("# Read me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(f.ws, "nomem"), filepath.Join(f.ws, "evil"), filepath.Join(f.ws2, ".memory")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, f.outside, filepath.Join(f.ws, "link"))
	symlink(t, filepath.Join(f.outside, ".memory"), filepath.Join(f.ws, "evil", ".memory"))
	symlink(t, filepath.Join(f.outside, ".memory", "quirks.md"), filepath.Join(f.ws2, ".memory", "quirks.md"))
	symlink(t, f.ws, filepath.Join(base, "alias"))
	return f
}

// writeCommands are the commands that write, each with arguments that make
// it write in a folder like the fixture's, plus a query: reads are held to
// the same folders.
func writeCommands(rootArg map[string]any) map[string]map[string]any {
	with := func(m map[string]any) map[string]any {
		out := maps.Clone(rootArg)
		maps.Copy(out, m)
		return out
	}
	return map[string]map[string]any{
		"memory.storeMemory":  with(map[string]any{"category": "Decision", "content": "Route every write through the lock."}),
		"memory.deleteMemory": with(map[string]any{"category": "Decision", "slug": "old"}),
		"memory.assignSlugs":  with(nil),
		"memory.cleanup":      with(map[string]any{"apply": true}),
		"memory.queryMemory":  with(map[string]any{"query": "postgres"}),
	}
}

// TestCommandRootsAreConfined: every root argument that leads outside the
// workspace folders, or into a .memory that is a symlink out of its folder,
// is refused by every command with a message naming the argument and the
// path, and nothing anywhere changes.
func TestCommandRootsAreConfined(t *testing.T) {
	f := newPathFixture(t)
	c := newTestClient(t, Options{})
	c.initializeFolders(f.ws, f.ws2)
	before := treeState(t, f.base)

	for _, tc := range []struct {
		name, root string
		mention    string // the path or argument the message must name
	}{
		{"outside", f.outside, f.outside},
		{"dot-dot", f.ws + "/../outside", f.outside},
		{"symlinked folder", filepath.Join(f.ws, "link"), "resolves to " + f.outside},
		{"encoded dots", "file://" + f.ws + "/%2e%2e/outside", f.outside},
		{"encoded dots, capitals", "file://" + f.ws + "/sub/%2E%2E/%2E%2E/outside", f.outside},
		{"encoded slash", "file://" + f.ws + "%2F..%2Foutside", "encoded slash"},
		{"file URI with a host", "file://example.com" + f.outside, `host "example.com"`},
		{"opaque file URI", "file:outside", "has no path"},
		{"relative", "ws/sub", `"ws/sub" is a relative path`},
		{"relative dot-dot", "../outside", `"../outside" is a relative path`},
		{"untitled", "untitled:Untitled-1", `"untitled:Untitled-1" is not a file: URI`},
		{"http", "http://example.com" + f.ws, "is not a file: URI"},
		{"symlinked .memory", filepath.Join(f.ws, "evil"), "is a symlink to " + filepath.Join(f.outside, ".memory")},
		{"folder without .memory", filepath.Join(f.ws, "nomem"), "holds no .memory folder"},
		{"does not exist", filepath.Join(f.ws, "nope"), "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for name, arg := range writeCommands(map[string]any{"root": tc.root}) {
				wantRefusal(t, c.command(name, arg, nil), name+": root: ", tc.mention)
			}
			wantTreeUnchanged(t, f.base, before)
		})
	}
	c.shutdown()
}

// TestDefaultRootConfined: without a root argument a command acts on the
// first workspace folder, and is refused there too when that folder's
// .memory is a symlink leading out of it.
func TestDefaultRootConfined(t *testing.T) {
	f := newPathFixture(t)
	evil := filepath.Join(f.ws, "evil")
	c := newTestClient(t, Options{})
	c.initializeFolders(evil)
	before := treeState(t, f.base)
	for name, arg := range writeCommands(map[string]any{}) {
		err := c.command(name, arg, nil)
		wantCommandError(t, err, codeInvalidParams, name+": root: "+filepath.Join(evil, ".memory")+" is a symlink to "+filepath.Join(f.outside, ".memory"))
	}
	wantTreeUnchanged(t, f.base, before)
	c.shutdown()
}

// TestCommandURIsAreConfined: a uri argument must be a memory file of an
// allowed root, the file itself no symlink leading out of its .memory.
func TestCommandURIsAreConfined(t *testing.T) {
	f := newPathFixture(t)
	c := newTestClient(t, Options{})
	c.initializeFolders(f.ws, f.ws2)
	before := treeState(t, f.base)
	for _, tc := range []struct {
		name, uri string
		mention   string
	}{
		{"README", string(uriOf(filepath.Join(f.ws, "README.md"))), filepath.Join(f.ws, "README.md") + " is not a memory file"},
		{"dot-dot out of .memory", "file://" + f.ws + "/.memory/../x.md", filepath.Join(f.ws, "x.md") + " is not a memory file"},
		{"outside", string(uriOf(filepath.Join(f.outside, ".memory", "decisions.md"))), f.outside + " is not a workspace folder"},
		{"encoded dots", "file://" + f.ws + "/.memory/%2e%2e/%2e%2e/outside/.memory/decisions.md", f.outside + " is not a workspace folder"},
		{"encoded slash", "file://" + f.ws + "/.memory/..%2F..%2Foutside%2F.memory/decisions.md", "encoded slash"},
		{"symlinked folder", string(uriOf(filepath.Join(f.ws, "link", ".memory", "decisions.md"))), "resolves to " + f.outside},
		{"symlinked .memory", string(uriOf(filepath.Join(f.ws, "evil", ".memory", "decisions.md"))), "is a symlink to " + filepath.Join(f.outside, ".memory")},
		{"symlinked category file", string(uriOf(filepath.Join(f.ws2, ".memory", "quirks.md"))), "is a symlink to " + filepath.Join(f.outside, ".memory", "quirks.md")},
		{"relative", "ws/.memory/decisions.md", "is a relative path"},
		{"untitled", "untitled:decisions.md", "is not a file: URI"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantRefusal(t, c.command("memory.assignSlugs", map[string]any{"uri": tc.uri}, nil), "memory.assignSlugs: uri: ", tc.mention)
			wantTreeUnchanged(t, f.base, before)
		})
	}
	c.shutdown()
}

// TestCommandRootsAccepted: what the confinement still lets through — a
// workspace folder by path, URI or another name (a symlink to it), a folder
// inside one that holds .memory, and the folder of an open memory file,
// but only while it is open. Whatever they write stays in their .memory.
func TestCommandRootsAccepted(t *testing.T) {
	f := newPathFixture(t)
	c := newTestClient(t, Options{})
	c.initializeFolders(f.ws, f.ws2)
	outsideBefore := treeState(t, f.outside)

	var res struct {
		File string `json:"file"`
	}
	store := func(root, content string) error {
		return c.command("memory.storeMemory", map[string]any{"category": "Decision", "content": content, "root": root}, &res)
	}
	for _, tc := range []struct {
		root, wrote, content string
	}{
		{f.ws, f.ws, "Route every write through the lock."},
		{string(uriOf(f.ws)), f.ws, "Tag releases from the main branch."},
		{"file://localhost" + f.ws, f.ws, "Keep secrets in the vault."},
		{filepath.Join(f.base, "alias"), f.ws, "Review schema changes twice."},
		{filepath.Join(f.ws, "sub"), filepath.Join(f.ws, "sub"), "Pin container images by digest."},
		{filepath.Join(f.ws, "sub", "..", "sub"), filepath.Join(f.ws, "sub"), "Rotate API tokens every quarter."},
	} {
		content := tc.content
		if err := store(tc.root, content); err != nil {
			t.Errorf("store with root %s: %v", tc.root, err)
			continue
		}
		path := filepath.Join(tc.wrote, ".memory", "decisions.md")
		if got := readDisk(t, path); !strings.Contains(got, content) {
			t.Errorf("root %s: %s does not hold the stored entry:\n%s", tc.root, path, got)
		}
	}

	// Single-file mode: the folder of an open memory file is accepted while
	// the file is open.
	lonePath := filepath.Join(f.lone, ".memory", "decisions.md")
	e := newFakeEditor(c)
	uri := e.open(lonePath, messyDecisions)
	var q struct {
		Results []struct {
			File string `json:"file"`
		} `json:"results"`
	}
	if err := c.command("memory.queryMemory", map[string]any{"query": "postgres", "root": f.lone}, &q); err != nil || len(q.Results) == 0 {
		t.Errorf("query in the folder of an open file: %v, %+v", err, q)
	}
	if err := c.command("memory.assignSlugs", map[string]any{"uri": string(uri)}, nil); err != nil {
		t.Errorf("assignSlugs on the open file: %v", err)
	}
	if got, _ := e.text(uri); !strings.Contains(got, "- [") || got == messyDecisions {
		t.Errorf("assignSlugs on the open file did not edit its buffer: %q", got)
	}
	if got, _ := e.text(uri); readDisk(t, lonePath) != got {
		t.Errorf("assignSlugs left the disk and the buffer apart: disk %q, buffer %q", readDisk(t, lonePath), got)
	}
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	// didClose is handled in order before the next request's answer can
	// depend on it only if the request comes after it on the wire, which
	// it does: notifications run on the read loop, in order.
	err := store(f.lone, "Closed folders are not workspaces.")
	wantCommandError(t, err, codeInvalidParams, "memory.storeMemory: root: "+f.lone+" is not a workspace folder")

	if after := treeState(t, f.outside); !maps.Equal(outsideBefore, after) {
		t.Errorf("files outside the workspace changed:\n%s", treeDiff(outsideBefore, after))
	}
	c.shutdown()
}

// wantRefusal checks that err is an InvalidParams error whose message
// starts with prefix and names mention.
func wantRefusal(t *testing.T, err error, prefix, mention string) {
	t.Helper()
	wantCommandError(t, err, codeInvalidParams, prefix)
	var e *Error
	if errors.As(err, &e) && !strings.Contains(e.Message, mention) {
		t.Errorf("%q does not name %q", e.Message, mention)
	}
}

// wantTreeUnchanged stops the test when anything under dir differs from
// before, a treeState of it.
func wantTreeUnchanged(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	if after := treeState(t, dir); !maps.Equal(before, after) {
		t.Fatalf("a refused command changed files:\n%s", treeDiff(before, after))
	}
}

// treeDiff lists the paths whose state differs.
func treeDiff(before, after map[string]string) string {
	var out []string
	for p := range before {
		if after[p] != before[p] {
			out = append(out, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			out = append(out, p+" (new)")
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
