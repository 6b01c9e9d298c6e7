package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// command runs workspace/executeCommand with one object argument.
func (c *testClient) command(name string, arg any, result any) error {
	params := map[string]any{"command": name}
	if arg != nil {
		params["arguments"] = []any{arg}
	}
	return c.request("workspace/executeCommand", params, result)
}

// asked returns the server→client requests of one method so far.
func (c *testClient) askedFor(method string) []note {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []note
	for _, n := range c.asked {
		if n.method == method {
			out = append(out, n)
		}
	}
	return out
}

// showMessage waits for a window/showMessage and returns its text.
func (c *testClient) showMessage(from int) string {
	c.t.Helper()
	n, _ := c.waitFor(from, func(n note) bool { return n.method == "window/showMessage" })
	var p protocol.ShowMessageParams
	if err := json.Unmarshal(n.params, &p); err != nil {
		c.t.Fatal(err)
	}
	if p.Type != protocol.MessageTypeInfo {
		c.t.Errorf("showMessage type %d, want Info", p.Type)
	}
	return p.Message
}

func readDisk(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantCommandError checks that err is an InvalidParams error whose message
// starts with prefix.
func wantCommandError(t *testing.T, err error, code int, prefix string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v, want an LSP error starting %q", err, prefix)
	}
	if e.Code != code || !strings.HasPrefix(e.Message, prefix) {
		t.Errorf("error = %d %q, want %d %q…", e.Code, e.Message, code, prefix)
	}
}

const decisionsV1 = "# Decisions\n\n- [db] Use Postgres for the main database.\n"

func TestStoreIntoClosedFileWritesDisk(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", decisionsV1)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, withDocumentChanges)
	newFakeEditor(c)
	from := c.count()
	var res struct {
		Action  string `json:"action"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Slug    string `json:"slug"`
		Message string `json:"message"`
	}
	if err := c.command("memory.storeMemory", map[string]any{"category": "decision", "slug": "no-friday-deploys", "content": "  Never deploy on Fridays.  "}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Action != "stored" || res.File != "decisions.md" || res.Line != 4 || res.Slug != "no-friday-deploys" {
		t.Errorf("result = %+v", res)
	}
	want := decisionsV1 + "- [no-friday-deploys] Never deploy on Fridays.\n"
	if got := readDisk(t, path); got != want {
		t.Errorf("disk = %q, want %q", got, want)
	}
	if n := len(c.askedFor("workspace/applyEdit")); n != 0 {
		t.Errorf("a store into a closed file sent %d applyEdit", n)
	}
	if msg := c.showMessage(from); msg != res.Message || !strings.HasPrefix(msg, "Stored in decisions.md") {
		t.Errorf("showMessage %q, result message %q", msg, res.Message)
	}
	// The alias takes the same arguments; a new category file is created.
	if err := c.command("storeMemory", map[string]any{"category": "Quirk", "content": "The CI cache is keyed on the lock file only."}, &res); err != nil {
		t.Fatal(err)
	}
	if got := readDisk(t, root+"/.memory/quirks.md"); got != "# Quirks\n\n- The CI cache is keyed on the lock file only.\n" {
		t.Errorf("quirks.md = %q", got)
	}
	c.shutdown()
}

func TestStoreIntoOpenFileUsesApplyEdit(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", decisionsV1)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, withDocumentChanges)
	ed := newFakeEditor(c)
	// The buffer has an unsaved entry the disk does not: the store must
	// plan on the buffer.
	buffer := decisionsV1 + "- [cache] Cache sessions in Redis.\n"
	uri := ed.open(path, buffer)
	var res struct {
		Action string `json:"action"`
		Line   int    `json:"line"`
	}
	if err := c.command("memory.storeMemory", map[string]any{"category": "Decision", "content": "Run database migrations before deploying."}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Action != "stored" || res.Line != 5 {
		t.Errorf("result = %+v, want stored on line 5 of the buffer", res)
	}
	asked := c.askedFor("workspace/applyEdit")
	if len(asked) != 1 {
		t.Fatalf("%d applyEdit requests, want 1", len(asked))
	}
	var p struct {
		Edit wireEdit `json:"edit"`
	}
	json.Unmarshal(asked[0].params, &p)
	if len(p.Edit.DocumentChanges) != 1 {
		t.Fatalf("applyEdit = %s", asked[0].params)
	}
	dc := p.Edit.DocumentChanges[0]
	if dc.TextDocument.URI != uri || dc.TextDocument.Version == nil || *dc.TextDocument.Version != 1 {
		t.Errorf("applyEdit targets %s version %v", dc.TextDocument.URI, dc.TextDocument.Version)
	}
	if len(dc.Edits) != 1 || dc.Edits[0].Range != pos(4, 0) || dc.Edits[0].NewText != "- Run database migrations before deploying.\n" {
		t.Errorf("edits = %+v, want an insertion at 4:0", dc.Edits)
	}
	if got, v := ed.text(uri); got != buffer+"- Run database migrations before deploying.\n" || v != 2 {
		t.Errorf("buffer (v%d) = %q", v, got)
	}
	// The store's own line goes to disk too, where other agents read it;
	// the buffer's unsaved line stays in the buffer.
	if got := readDisk(t, path); got != decisionsV1+"- Run database migrations before deploying.\n" {
		t.Errorf("disk after storing into an open file = %q", got)
	}
	c.shutdown()
}

// A refused buffer edit does not undo the store: it is on disk (the reply
// says the buffer was not updated, and why), and the buffer is untouched.
func TestStoreRefusedByEditorStillStoresOnDisk(t *testing.T) {
	longtest.Skip(t)
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", decisionsV1)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, withDocumentChanges)
	ed := newFakeEditor(c)
	uri := ed.open(path, decisionsV1)
	ed.refuse = "the user cancelled"
	var res struct {
		Action  string         `json:"action"`
		Message string         `json:"message"`
		Buffers []bufferReport `json:"buffers"`
	}
	if err := c.command("memory.storeMemory", map[string]any{"category": "Decision", "content": "Run database migrations before deploying."}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Action != "stored" || len(res.Buffers) != 1 || res.Buffers[0].Applied || !strings.Contains(res.Buffers[0].Problem, "the user cancelled") {
		t.Errorf("reply = %+v, want stored, with the buffer's refusal named", res)
	}
	if got := readDisk(t, path); got != decisionsV1+"- Run database migrations before deploying.\n" {
		t.Errorf("disk after a store whose buffer edit was refused: %q", got)
	}
	if got, v := ed.text(uri); got != decisionsV1 || v != 1 {
		t.Errorf("buffer changed after a refused edit: v%d %q", v, got)
	}
	c.shutdown()
}

func TestCommandArgumentErrors(t *testing.T) {
	root := t.TempDir()
	writeMemory(t, root, "decisions.md", decisionsV1)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	cases := []struct {
		name   string
		arg    any
		prefix string
	}{
		{"memory.storeMemory", map[string]any{"category": "Decision", "content": "   "}, "memory.storeMemory: content: content is empty"},
		{"memory.storeMemory", map[string]any{"category": "Nope", "content": "x"}, "memory.storeMemory: category: "},
		{"memory.storeMemory", map[string]any{"category": "Decision", "content": "x", "slug": "Bad Slug"}, "memory.storeMemory: slug: "},
		{"memory.storeMemory", map[string]any{"catgory": "Decision", "content": "x"}, "memory.storeMemory: catgory: unknown argument"},
		{"memory.storeMemory", []any{"Decision", "x"}, "memory.storeMemory: arguments: the arguments must be one JSON object"},
		{"memory.queryMemory", map[string]any{"query": "db", "limit": "five"}, "memory.queryMemory: limit: must be a whole number"},
		{"memory.queryMemory", map[string]any{"query": "db", "limit": 50}, "memory.queryMemory: limit: limit 50 is out of range"},
		{"queryMemory", map[string]any{"query": " "}, "queryMemory: query: query is empty"},
		{"memory.listMemories", map[string]any{"category": "x"}, "memory.listMemories: category: "},
		{"memory.deleteMemory", map[string]any{"category": "Decision"}, "memory.deleteMemory: slug: give the slug or the content"},
		{"memory.deleteMemory", map[string]any{"category": "Decision", "slug": "nope"}, "memory.deleteMemory: slug: no entry [nope] in decisions.md"},
		{"memory.assignSlugs", map[string]any{"uri": uriOf(root + "/README.md")}, "memory.assignSlugs: uri: "},
		{"memory.stats", map[string]any{"root": "/no/such/folder"}, "memory.stats: root: /no/such/folder is not a workspace folder"},
		{"memory.cleanup", map[string]any{"apply": "yes"}, "memory.cleanup: apply: must be a boolean"},
	}
	for _, tc := range cases {
		err := c.command(tc.name, tc.arg, nil)
		wantCommandError(t, err, codeInvalidParams, tc.prefix)
	}
	err := c.command("memory.nope", map[string]any{}, nil)
	wantCommandError(t, err, codeInvalidParams, `unknown command "memory.nope"`)
	if got := readDisk(t, root+"/.memory/decisions.md"); got != decisionsV1 {
		t.Errorf("a refused command wrote: %q", got)
	}
	c.shutdown()
}

func TestCommandWithoutWorkspace(t *testing.T) {
	c := newTestClient(t, Options{})
	var res json.RawMessage
	if err := c.request("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &res); err != nil {
		t.Fatal(err)
	}
	err := c.command("memory.stats", nil, nil)
	wantCommandError(t, err, codeInvalidParams, "memory.stats: root: no workspace folder is open")
	c.shutdown()
}

func TestQueryListStats(t *testing.T) {
	root := t.TempDir()
	writeMemory(t, root, "decisions.md", "# Decisions\n\n- [db] Use Postgres for the main database.\n- Always squash commits when merging.\n- Never squash commits when merging.\n- Use Postgres for the main database.\n")
	writeMemory(t, root, "quirks.md", "# Quirks\n\n- [ci-cache] The CI cache is keyed on the lock file only.\n")
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)

	var q struct {
		Results []struct {
			Category string  `json:"category"`
			File     string  `json:"file"`
			Line     int     `json:"line"`
			Slug     string  `json:"slug"`
			Content  string  `json:"content"`
			Score    float64 `json:"score"`
		} `json:"results"`
		Message string `json:"message"`
	}
	for _, name := range []string{"memory.queryMemory", "queryMemory"} {
		if err := c.command(name, map[string]any{"query": "postgres database"}, &q); err != nil {
			t.Fatal(err)
		}
		if len(q.Results) == 0 {
			t.Fatalf("%s: no results: %s", name, q.Message)
		}
		top := q.Results[0]
		if top.File != "decisions.md" || top.Line != 3 || top.Slug != "db" || top.Category != "Decision" || top.Score <= 0 {
			t.Errorf("%s: top hit = %+v", name, top)
		}
		if !strings.HasPrefix(q.Message, "Found ") {
			t.Errorf("%s: message %q", name, q.Message)
		}
	}
	if err := c.command("memory.queryMemory", map[string]any{"query": "cache", "category": "Decision"}, &q); err != nil {
		t.Fatal(err)
	}
	if len(q.Results) != 0 || q.Results == nil {
		t.Errorf("category filter: %+v", q.Results)
	}

	var l struct {
		Message string `json:"message"`
		Entries []struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"entries"`
	}
	if err := c.command("memory.listMemories", map[string]any{"category": "Quirk"}, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 1 || l.Entries[0].File != "quirks.md" || l.Entries[0].Line != 3 || !strings.HasPrefix(l.Message, "1 memory") {
		t.Errorf("list = %+v", l)
	}
	if err := c.command("memory.listMemories", nil, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 5 {
		t.Errorf("list without a category: %d entries", len(l.Entries))
	}

	var st struct {
		Message    string `json:"message"`
		Categories []struct {
			Category string `json:"category"`
			File     string `json:"file"`
			Entries  int    `json:"entries"`
			Limit    int    `json:"limit"`
		} `json:"categories"`
		Duplicates int `json:"duplicates"`
		Conflicts  int `json:"conflicts"`
		Total      int `json:"total"`
	}
	if err := c.command("memory.stats", map[string]any{}, &st); err != nil {
		t.Fatal(err)
	}
	if st.Total != 5 || st.Duplicates != 1 || st.Conflicts != 1 || len(st.Categories) != 5 {
		t.Fatalf("stats = %+v", st)
	}
	got := map[string]int{}
	for _, cs := range st.Categories {
		got[cs.Category] = cs.Entries
		if cs.Limit <= 0 || !strings.HasSuffix(cs.File, ".md") {
			t.Errorf("category stats %+v", cs)
		}
	}
	if got["Decision"] != 4 || got["Quirk"] != 1 || got["Security"] != 0 {
		t.Errorf("entries per category = %v", got)
	}
	if !strings.HasPrefix(st.Message, "5 memories; 1 duplicate, 1 conflict.") {
		t.Errorf("stats message %q", st.Message)
	}
	c.shutdown()
}

func TestDeleteAssignSlugsCleanup(t *testing.T) {
	root := t.TempDir()
	content := "# Decisions\n\n- [db] Use Postgres for the main database.\n- Deploy with blue green releases.\n- Keep audit logs for a year.\n"
	path := writeMemory(t, root, "decisions.md", content)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	from := c.count()

	var del struct {
		Message string `json:"message"`
		Deleted struct {
			Line int    `json:"line"`
			Slug string `json:"slug"`
		} `json:"deleted"`
	}
	if err := c.command("memory.deleteMemory", map[string]any{"category": "Decision", "slug": "db"}, &del); err != nil {
		t.Fatal(err)
	}
	if del.Deleted.Line != 3 || del.Deleted.Slug != "db" || del.Message != `Deleted from decisions.md: "Use Postgres for the main database."` {
		t.Errorf("delete = %+v", del)
	}
	content = "# Decisions\n\n- Deploy with blue green releases.\n- Keep audit logs for a year.\n"
	if got := readDisk(t, path); got != content {
		t.Errorf("after delete: %q", got)
	}
	if msg := c.showMessage(from); !strings.HasPrefix(msg, "Deleted from decisions.md") {
		t.Errorf("showMessage %q", msg)
	}

	// Cleanup without apply plans and writes nothing.
	var cl struct {
		Message string `json:"message"`
		Applied bool   `json:"applied"`
		Steps   []struct {
			Kind string `json:"kind"`
		} `json:"steps"`
		EntriesBefore int `json:"entriesBefore"`
	}
	if err := c.command("memory.cleanup", nil, &cl); err != nil {
		t.Fatal(err)
	}
	if cl.Applied || cl.EntriesBefore != 2 || len(cl.Steps) == 0 || !strings.HasSuffix(cl.Message, "\nNothing written; run memory.cleanup with {\"apply\": true} to apply it.") {
		t.Errorf("cleanup plan = %+v", cl)
	}
	if got := readDisk(t, path); got != content {
		t.Errorf("cleanup without apply wrote: %q", got)
	}

	var as struct {
		Message  string `json:"message"`
		Assigned []struct {
			Line int    `json:"line"`
			Slug string `json:"slug"`
		} `json:"assigned"`
	}
	if err := c.command("memory.assignSlugs", map[string]any{"uri": uriOf(path)}, &as); err != nil {
		t.Fatal(err)
	}
	if len(as.Assigned) != 2 || as.Assigned[0].Line != 3 || as.Assigned[0].Slug == "" || as.Message != "Assigned 2 slugs in decisions.md." {
		t.Errorf("assignSlugs = %+v", as)
	}
	got := readDisk(t, path)
	for _, a := range as.Assigned {
		if !strings.Contains(got, "- ["+a.Slug+"] ") {
			t.Errorf("slug %q not on disk:\n%s", a.Slug, got)
		}
	}
	if err := c.command("memory.assignSlugs", nil, &as); err != nil {
		t.Fatal(err)
	}
	if len(as.Assigned) != 0 || as.Message != "Every entry already has a slug." {
		t.Errorf("second assignSlugs = %+v", as)
	}
	c.shutdown()
}

// TestCleanupOpenAndClosedFiles: one command changing an open and a closed
// file edits the buffer through applyEdit and writes only the closed file.
func TestCleanupOpenAndClosedFiles(t *testing.T) {
	root := t.TempDir()
	dDisk := "# Decisions\n\n- [db] Use Postgres for the main database.\n"
	dPath := writeMemory(t, root, "decisions.md", dDisk)
	qPath := writeMemory(t, root, "quirks.md", "# Quirks\n\n- [ci]The CI cache is keyed on the lock file only.\n")
	c := newTestClient(t, Options{})
	c.initialize(root, nil, withDocumentChanges)
	ed := newFakeEditor(c)
	uri := ed.open(dPath, "\ufeff"+dDisk)
	var res struct {
		Applied bool `json:"applied"`
		Steps   []struct {
			Kind string `json:"kind"`
			File string `json:"file"`
		} `json:"steps"`
		Message string `json:"message"`
	}
	if err := c.command("memory.cleanup", map[string]any{"apply": true}, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Applied || len(res.Steps) < 2 || !strings.HasSuffix(res.Message, "\nApplied.") {
		t.Errorf("cleanup = %+v", res)
	}
	if got, v := ed.text(uri); got != dDisk || v != 2 {
		t.Errorf("open buffer v%d = %q, want the BOM removed", v, got)
	}
	if got := readDisk(t, dPath); got != dDisk {
		t.Errorf("the open file was written: %q", got)
	}
	if got := readDisk(t, qPath); got != "# Quirks\n\n- [ci] The CI cache is keyed on the lock file only.\n" {
		t.Errorf("quirks.md on disk = %q", got)
	}
	if n := len(c.askedFor("workspace/applyEdit")); n != 1 {
		t.Errorf("%d applyEdit requests, want 1", n)
	}
	c.shutdown()
}
