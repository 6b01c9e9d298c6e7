//lint:file-ignore SA1019 MCP roots are deprecated from protocol 2026-07-28 but stay in the SDK for the deprecation window, and clients of earlier versions send them: we serve both.

package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// binary is memory-lsp built once for the run: the end-to-end tests below
// drive `memory-lsp mcp` over stdio with the SDK's own client, as an agent
// would, and run `memory-lsp store` beside it.
var binary string

func TestMain(m *testing.M) { os.Exit(lsptest.RunWithBinary(m, &binary)) }

// serverProcess is one `memory-lsp mcp` process and its client session.
type serverProcess struct {
	cs     *sdk.ClientSession
	stderr *syncBuffer
	pid    int
}

// syncBuffer is stderr as the process writes it while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs the binary in dir with args after "mcp" and connects a
// client that advertises roots (none when roots is nil and noRoots is set).
func startServer(t testing.TB, dir string, c *sdk.Client, version string, args ...string) *serverProcess {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	p := &serverProcess{stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	if c == nil {
		c = sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting to memory-lsp mcp: %v", err)
	}
	p.cs, p.pid = cs, cmd.Process.Pid
	t.Cleanup(func() { p.close(t) })
	return p
}

// close ends the session as clients do, by closing the server's stdin, and
// checks that the server exits with code 0.
func (p *serverProcess) close(t testing.TB) {
	if p.cs == nil {
		return
	}
	cs := p.cs
	p.cs = nil
	if err := cs.Close(); err != nil {
		t.Errorf("memory-lsp mcp did not exit cleanly after stdin closed: %v\nstderr:\n%s", err, p.stderr)
	}
}

func TestBinaryTools(t *testing.T) {
	root := workspace(t, map[string]string{
		"quirks.md": "# Quirks\n\n- [gradle-leak] The Gradle daemon leaks memory after about 20 builds.\n",
	})
	p := startServer(t, t.TempDir(), nil, "", "--root", root)
	cs := p.cs

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{}
	for _, tl := range res.Tools {
		var s struct{ Required []string }
		b, _ := json.Marshal(tl.InputSchema)
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		required[tl.Name] = s.Required
	}
	want := map[string][]string{"storeMemory": {"category", "content"}, "queryMemory": {"query"}, "getMemory": nil, "listMemories": nil, "memoryStats": nil}
	if len(required) != len(want) {
		t.Errorf("tools %v", required)
	}
	for name, req := range want {
		if got, ok := required[name]; !ok || !slices.Equal(got, req) {
			t.Errorf("%s: required %v (listed %v), want %v", name, got, ok, req)
		}
	}

	// storeMemory: stored, skipped as a duplicate, updated by slug, refused.
	steps := []struct {
		args    map[string]any
		isError bool
		text    string
		action  string
	}{
		{map[string]any{"category": "Decision", "content": "Use Postgres 16 for the ledger.", "slug": "ledger-db"}, false,
			`Stored in decisions.md: "Use Postgres 16 for the ledger."`, "stored"},
		{map[string]any{"category": "Decision", "content": "Use Postgres 16 for the ledger."}, false,
			`Already stored something similar (100% match): "Use Postgres 16 for the ledger."`, "skipped"},
		{map[string]any{"category": "Decision", "content": "Use Postgres 17 for the ledger.", "slug": "ledger-db"}, false,
			`Updated in decisions.md: "Use Postgres 17 for the ledger." (replaced: "Use Postgres 16 for the ledger.") — the same fact with a changed value.`, "updated"},
		{map[string]any{"category": "Decision", "content": "Always squash commits before merging to main."}, false,
			`Stored in decisions.md: "Always squash commits before merging to main."`, "stored"},
		{map[string]any{"category": "Security", "content": "Deploy with ghp_4fK9sLm2Qx7Rt1Vb8Nc3Zd6Wy0Pe5Ha9Jg2U from CI."}, true,
			"Failed to store memory: content looks like it contains a GitHub token; memory files are shared and committed, so store where the secret lives (e.g. an environment variable name) instead", ""},
		{map[string]any{"category": "Goal", "content": "Something durable."}, true,
			`Failed to store memory: category: unknown category: "Goal". Valid: Instruction, Quirk, Preference, Decision, Security`, ""},
	}
	for _, s := range steps {
		r := call(t, cs, ToolStore, s.args)
		if r.IsError != s.isError || r.Text != s.text {
			t.Fatalf("store %v:\n got %s\nwant error=%v text=%q", s.args, r, s.isError, s.text)
		}
		if !s.isError {
			var out struct{ Action, File, Slug string }
			r.decode(t, &out)
			if out.Action != s.action || out.File != "decisions.md" {
				t.Errorf("store %v: structured %s", s.args, r.Data)
			}
		}
	}
	wantFile := "# Decisions\n\n- [ledger-db] Use Postgres 17 for the ledger.\n- Always squash commits before merging to main.\n"
	if got := readMemory(t, root, "decisions.md"); got != wantFile {
		t.Errorf("decisions.md:\n%s\nwant:\n%s", got, wantFile)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory", "security.md")); !os.IsNotExist(err) {
		t.Errorf("the refused secret created security.md: %v", err)
	}

	// queryMemory: HackLM's sentence, and the hits with file, line and slug.
	r := call(t, cs, ToolQuery, map[string]any{"query": "postgres ledger"})
	if r.IsError || r.Text != "Found 1 memory:\n\n[Decision] Use Postgres 17 for the ledger. (decisions.md:3, slug ledger-db)" {
		t.Errorf("query: %s", r)
	}
	var q struct {
		Results []struct {
			File, Slug string
			Line       int
		}
	}
	r.decode(t, &q)
	if len(q.Results) != 1 || q.Results[0].Slug != "ledger-db" || q.Results[0].Line != 3 {
		t.Errorf("query results: %s", r.Data)
	}

	// getMemory by slug and by range.
	r = call(t, cs, ToolGet, map[string]any{"slug": "ledger-db"})
	if r.IsError || r.Text != "1 memory:\ndecisions.md:3 [Decision] [ledger-db] Use Postgres 17 for the ledger." {
		t.Errorf("get by slug: %s", r)
	}
	r = call(t, cs, ToolGet, map[string]any{"file": "Decision", "line": 3, "endLine": 4})
	var got struct {
		Entries []struct {
			Line    int
			Content string
		}
	}
	r.decode(t, &got)
	if r.IsError || len(got.Entries) != 2 || got.Entries[1].Line != 4 || got.Entries[1].Content != "Always squash commits before merging to main." {
		t.Errorf("get by range: %s", r)
	}

	// listMemories: every entry, in HackLM's read order.
	r = call(t, cs, ToolList, nil)
	want3 := "3 memories:\nquirks.md:3 [Quirk] [gradle-leak] The Gradle daemon leaks memory after about 20 builds.\n" +
		"decisions.md:3 [Decision] [ledger-db] Use Postgres 17 for the ledger.\ndecisions.md:4 [Decision] Always squash commits before merging to main."
	if r.IsError || r.Text != want3 {
		t.Errorf("list:\n%s\nwant:\n%s", r.Text, want3)
	}

	// memoryStats: a reversal written by someone else shows as a conflict,
	// and the file's modification time as the last change.
	f, err := os.OpenFile(filepath.Join(root, ".memory", "decisions.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("- Never squash commits before merging to main.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, err := os.Stat(filepath.Join(root, ".memory", "decisions.md"))
	if err != nil {
		t.Fatal(err)
	}
	r = call(t, cs, ToolStats, nil)
	var st struct {
		Categories []struct {
			Category       string
			Entries, Limit int
		}
		Total      int
		Duplicates []any
		Conflicts  []struct{ Entry, Other struct{ Line int } }
		LastChange string
	}
	r.decode(t, &st)
	if r.IsError || st.Total != 4 || st.Categories[3].Category != "Decision" || st.Categories[3].Entries != 3 || st.Categories[3].Limit != 40 ||
		st.Categories[1].Entries != 1 || len(st.Duplicates) != 0 || len(st.Conflicts) != 1 || st.Conflicts[0].Entry.Line != 5 || st.Conflicts[0].Other.Line != 4 ||
		st.LastChange != fi.ModTime().Format(time.RFC3339) {
		t.Errorf("stats: %s", r)
	}
	if !strings.HasPrefix(r.Text, "4 memories; 0 duplicates, 1 conflict.\n") {
		t.Errorf("stats text: %q", r.Text)
	}

	// An AGENTS.md past Codex's 32 KiB: memoryStats says where Codex cuts
	// it, from the next call on (the agents are read at each call).
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte(strings.Repeat(strings.Repeat("x", 99)+"\n", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = call(t, cs, ToolStats, nil)
	var bs struct {
		Budget struct {
			Agents []struct {
				Agent  string
				Limits []struct{ Cut *struct{ Line int } }
			}
		}
	}
	r.decode(t, &bs)
	if len(bs.Budget.Agents) != 1 || bs.Budget.Agents[0].Agent != "codex" || bs.Budget.Agents[0].Limits[0].Cut == nil || bs.Budget.Agents[0].Limits[0].Cut.Line != 328 {
		t.Errorf("stats budget: %+v, want codex cutting AGENTS.md at line 328", bs.Budget)
	}
	if !strings.Contains(r.Text, "\nbudget: AGENTS.md:328: Codex loads at most 32 KiB") {
		t.Errorf("stats text does not name the cut: %q", r.Text)
	}
}

// TestBinaryRootsFromClient: without --root the server stores where the
// client's root is, not where it was started, on both protocol eras (the
// server asks with roots/list before 2026-07-28, with an input request after).
func TestBinaryRootsFromClient(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		t.Run("protocol="+version, func(t *testing.T) {
			proj := workspace(t, nil)
			elsewhere := t.TempDir()
			c := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
			c.AddRoots(&sdk.Root{URI: fileURI(proj), Name: "project"})
			p := startServer(t, elsewhere, c, version)
			if got := storeAndRead(t, p.cs, proj, "Preference", "Prefer table-driven tests in Go packages.", "preferences.md"); got != "# Preferences\n\n- Prefer table-driven tests in Go packages.\n" {
				t.Errorf("preferences.md: %q", got)
			}
			if _, err := os.Stat(filepath.Join(elsewhere, ".memory")); !os.IsNotExist(err) {
				t.Errorf("the server's own folder got a .memory: %v", err)
			}
			// The client moves to another project: roots/list_changed.
			other := workspace(t, nil)
			c.RemoveRoots(fileURI(proj))
			c.AddRoots(&sdk.Root{URI: fileURI(other)})
			if got := storeAndRead(t, p.cs, other, "Preference", "Prefer short commit subjects.", "preferences.md"); !strings.Contains(got, "short commit subjects") {
				t.Errorf("after roots changed: %q", got)
			}
		})
	}
}

// TestBinaryCurrentFolder: a client without roots gets the CLI's choice, the
// nearest folder above the server's working directory holding .memory.
func TestBinaryCurrentFolder(t *testing.T) {
	proj := workspace(t, nil)
	sub := filepath.Join(proj, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}})
	p := startServer(t, sub, c, "")
	if got := storeAndRead(t, p.cs, proj, "Quirk", "The integration tests need Docker running.", "quirks.md"); !strings.Contains(got, "Docker running") {
		t.Errorf("quirks.md: %q", got)
	}
}

// TestBinaryConcurrentStores: three MCP servers, each storing four entries
// at once, and four `memory-lsp store` processes, all into one file at the
// same moment. Every entry must be there exactly once, and no lock left.
func TestBinaryConcurrentStores(t *testing.T) {
	root := workspace(t, nil)
	words := strings.Fields(`amber basalt cobalt dune ember fjord garnet harbor indigo jasper kelp lagoon
		marble nectar onyx pebble quartz raven saffron tundra umber velvet walnut xenon yarrow zephyr
		anchor beacon canyon delta estuary falcon glacier heron island juniper kestrel lantern meadow
		nebula orchid prairie quiver reef summit thicket upland valley willow yucca zinnia acorn bramble`)
	entry := func(i int) string {
		return fmt.Sprintf("Pair %s tooling with %s storage for %s workloads.", words[3*i], words[3*i+1], words[3*i+2])
	}
	const servers, perServer, cliProcs = 3, 4, 4
	procs := make([]*serverProcess, servers)
	for i := range procs {
		procs[i] = startServer(t, t.TempDir(), nil, "", "--root", root)
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, servers*perServer+cliProcs)
	n := 0
	for _, p := range procs {
		for range perServer {
			content := entry(n)
			n++
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
				defer cancel()
				res, err := p.cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolStore, Arguments: map[string]any{"category": "Decision", "content": content}})
				if err != nil {
					errs <- err.Error()
				} else if res.IsError {
					errs <- res.Content[0].(*sdk.TextContent).Text
				}
			}()
		}
	}
	for range cliProcs {
		content := entry(n)
		n++
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out, err := exec.Command(binary, "store", "--root", root, "--category", "Decision", content).CombinedOutput()
			if err != nil {
				errs <- fmt.Sprintf("memory-lsp store: %v: %s", err, out)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	got := readMemory(t, root, "decisions.md")
	for i := range n {
		if c := strings.Count(got, entry(i)); c != 1 {
			t.Errorf("%q is there %d times", entry(i), c)
		}
	}
	if lines := strings.Count(got, "\n- "); lines != n {
		t.Errorf("%d entries, want %d:\n%s", lines, n, got)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory", ".lock")); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
}

// TestBinaryStdoutIsProtocol drives the server by hand with debug logging on:
// every byte on stdout must be a JSON-RPC message, the logs must be on
// stderr, and closing stdin must end the process with code 0, even with a
// store under way, leaving no lock and an intact file.
func TestBinaryStdoutIsProtocol(t *testing.T) {
	root := workspace(t, nil)
	cmd := exec.Command(binary, "mcp", "--root", root, "--log-level", "debug")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(msg string) {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed; stderr:\n%s", stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("stdout line is not a JSON-RPC message: %q", l)
			}
			return m
		case <-time.After(testTimeout):
			t.Fatal("no answer")
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"storeMemory","arguments":{"category":"Decision","content":"Tag releases from the main branch only."}}}`)
	if m := next(); !strings.Contains(fmt.Sprint(m["result"]), "Stored in decisions.md") {
		t.Fatalf("store: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"noSuchTool","arguments":{}}}`)
	if m := next(); m["error"] == nil {
		t.Errorf("unknown tool: %v", m)
	}
	// A store sent just before stdin closes: cancelled or completed, it
	// must leave the file whole and the lock released.
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"storeMemory","arguments":{"category":"Decision","content":"Keep the changelog in the repository root."}}}`)
	stdin.Close()
	for l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Errorf("stdout line is not a JSON-RPC message: %q", l)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v\nstderr:\n%s", err, stderr.String())
	}
	// The project's one logging format (commonlog), the MCP server's name.
	if !strings.Contains(stderr.String(), " INFO [memory-lsp.mcp] ") {
		t.Errorf("no logs on stderr with --log-level debug:\n%s", stderr.String())
	}
	got := readMemory(t, root, "decisions.md")
	if got != "# Decisions\n\n- Tag releases from the main branch only.\n" && got != "# Decisions\n\n- Tag releases from the main branch only.\n- Keep the changelog in the repository root.\n" {
		t.Errorf("decisions.md after exit:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory", ".lock")); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
}

// TestBinaryRootsListFails: a client that declares roots but answers
// roots/list with an error (as some agents are reported to) must still get
// its stores done, in the folder found from where the server started.
func TestBinaryRootsListFails(t *testing.T) {
	proj := workspace(t, nil)
	sub := filepath.Join(proj, "web")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = sub
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(stdout)
	send := func(v string) {
		if _, err := io.WriteString(stdin, v+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	listRequests := 0
	// await reads messages until the reply to id, answering every
	// roots/list the server sends with "method not found".
	await := func(id int) map[string]any {
		t.Helper()
		for {
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				t.Fatalf("reading: %v; stderr:\n%s", err, stderr.String())
			}
			if m["method"] == "roots/list" {
				listRequests++
				b, _ := json.Marshal(m["id"])
				send(`{"jsonrpc":"2.0","id":` + string(b) + `,"error":{"code":-32601,"message":"Method not found"}}`)
				continue
			}
			if n, ok := m["id"].(float64); ok && int(n) == id {
				return m
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"raw","version":"1"}}}`)
	await(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	contents := map[int]string{2: "The web bundle must stay under two megabytes.", 3: "Safari needs the polyfill for dialog elements."}
	for id := 2; id <= 3; id++ {
		send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"storeMemory","arguments":{"category":"Quirk","content":"` + contents[id] + `"}}}`)
		m := await(id)
		if res, _ := m["result"].(map[string]any); res == nil || res["isError"] == true {
			t.Fatalf("store %d: %v", id, m)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if listRequests == 0 || listRequests > 2 {
		t.Errorf("%d roots/list requests; want the server to ask, and to stop asking once it failed", listRequests)
	}
	if got := readMemory(t, proj, "quirks.md"); got != "# Quirks\n\n- "+contents[2]+"\n- "+contents[3]+"\n" {
		t.Errorf("quirks.md: %q", got)
	}
}

// TestBinaryFirstStoreFromASubfolder: an agent's MCP server started in a
// subfolder of a git repository that has no .memory yet (no roots from the
// client) stores into .memory at the repository's top, as the CLI does,
// never into the subfolder.
func TestBinaryFirstStoreFromASubfolder(t *testing.T) {
	proj := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	sub := filepath.Join(proj, "cmd", "app")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := startServer(t, sub, nil, "")
	r := call(t, p.cs, ToolStore, map[string]any{"category": "Decision", "content": "Use Go 1.26 for every service."})
	if r.IsError {
		t.Fatalf("store: %s", r)
	}
	if got := readMemory(t, proj, "decisions.md"); !strings.Contains(got, "- Use Go 1.26 for every service.\n") {
		t.Errorf("decisions.md at the repository top: %q", got)
	}
	if _, err := os.Stat(filepath.Join(sub, ".memory")); !os.IsNotExist(err) {
		t.Errorf("the store created .memory in the subfolder the server started in: %v", err)
	}
}

// TestBinaryLogLevel: the MCP server logs through the project's one
// logging stack at the --log-level it is given: warnings and worse by
// default, the session's progress at info, to stderr or --log-file.
func TestBinaryLogLevel(t *testing.T) {
	root := workspace(t, nil)
	session := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n"
	run := func(args ...string) string {
		cmd := exec.Command(binary, append([]string{"mcp", "--root", root}, args...)...)
		cmd.Stdin = strings.NewReader(session)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		return stderr.String()
	}
	if got := run(); strings.Contains(got, " INFO ") {
		t.Errorf("default level logged info lines:\n%s", got)
	}
	if got := run("--log-level", "info"); !strings.Contains(got, " INFO [memory-lsp.mcp] ") {
		t.Errorf("--log-level info logged no info line:\n%s", got)
	}
	file := filepath.Join(t.TempDir(), "mcp.log")
	if got := run("--log-level", "info", "--log-file", file); got != "" {
		t.Errorf("--log-file: stderr %q", got)
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), " INFO [memory-lsp.mcp] ") {
		t.Errorf("--log-file holds %q, %v", b, err)
	}
}

// TestBinaryStaleReferences: in a git project, queryMemory marks the hit
// whose cited path the history saw move, in the text an agent reads and in
// the structured result, and memoryStats counts and names it; a path the
// history never had or saw deleted is not marked.
func TestBinaryStaleReferences(t *testing.T) {
	repo := gittest.New(t)
	repo.Write(map[string]string{
		"src/auth/jwt.ts":     "export const sign = 1;\n",
		"src/auth/session.ts": "export const cookie = \"sid\";\n",
		"src/auth/keys.ts":    "export const keys = [];\n",
	})
	repo.AddAll()
	repo.Commit("2026-01-01T00:00:00Z", "auth")
	repo.Git("mv", "src/auth/session.ts", "src/auth/sessions.ts")
	repo.Git("rm", "-q", "src/auth/keys.ts")
	repo.Commit("2026-01-02T00:00:00Z", "sessions renamed, keys go")
	moved := strings.TrimSpace(repo.Git("rev-parse", "--short=7", "HEAD"))
	repo.Write(map[string]string{
		".memory/decisions.md": "# Decisions\n\n- Auth sessions live in `src/auth/session.ts`.\n- Auth tokens are signed in `src/auth/jwt.ts`.\n- Auth keys rotate in `src/auth/rotate.ts`.\n- Auth keys are listed in `src/auth/keys.ts`.\n",
	})
	proj := repo.Dir
	p := startServer(t, proj, nil, "")
	r := call(t, p.cs, ToolQuery, map[string]any{"query": "auth"})
	stale := "[Decision] Auth sessions live in `src/auth/session.ts`. (decisions.md:3) (stale: src/auth/session.ts does not exist; renamed to src/auth/sessions.ts in " + moved + ")"
	fresh := "[Decision] Auth tokens are signed in `src/auth/jwt.ts`. (decisions.md:4)\n"
	unseen := "[Decision] Auth keys rotate in `src/auth/rotate.ts`. (decisions.md:5)\n"
	deleted := "[Decision] Auth keys are listed in `src/auth/keys.ts`. (decisions.md:6)"
	if r.IsError || !strings.Contains(r.Text, stale) || !strings.Contains(r.Text+"\n", fresh) || !strings.Contains(r.Text+"\n", unseen) ||
		!strings.Contains(r.Text+"\n", deleted+"\n") {
		t.Errorf("query:\n%s", r.Text)
	}
	var q struct {
		Results []struct {
			Line  int
			Stale []string
		}
	}
	r.decode(t, &q)
	for _, h := range q.Results {
		if want := h.Line == 3; (len(h.Stale) > 0) != want {
			t.Errorf("line %d stale = %q", h.Line, h.Stale)
		}
	}
	r = call(t, p.cs, ToolStats, nil)
	var st struct {
		Stale []struct {
			Entry    struct{ Line int }
			Problems []string
		}
	}
	r.decode(t, &st)
	if r.IsError || len(st.Stale) != 1 || st.Stale[0].Entry.Line != 3 || !strings.Contains(r.Text, "1 stale entry") {
		t.Errorf("stats: %s", r)
	}
}

// TestBinaryStoreNamesSameSubject: a store the verdict calls a new entry
// but that is on an existing entry's subject (a reversal by meaning) tells
// the agent which entry, in the text and the structured result, and leaves
// that entry alone: the agent reads meaning the word-by-word verdict does not.
func TestBinaryStoreNamesSameSubject(t *testing.T) {
	root := workspace(t, map[string]string{
		"instructions.md": "# Instructions\n\n- Mock the NIM client in unit tests.\n",
	})
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	p := startServer(t, t.TempDir(), nil, "", "--root", root)
	r := call(t, p.cs, ToolStore, map[string]any{"category": "Instruction", "content": "Unit tests call the real NIM endpoint."})
	want := `Stored in instructions.md: "Unit tests call the real NIM endpoint." — on the same subject as "Mock the NIM client in unit tests." (line 3); if the new entry says the same, reverses or updates it, remove the older line.`
	if r.IsError || r.Text != want {
		t.Fatalf("store:\n got %s\nwant %q", r, want)
	}
	var out struct {
		Action  string
		Related []struct {
			Line    int
			Content string
		}
	}
	r.decode(t, &out)
	if out.Action != "stored" || len(out.Related) != 1 || out.Related[0].Line != 3 || out.Related[0].Content != "Mock the NIM client in unit tests." {
		t.Errorf("structured: %s", r.Data)
	}
	if got := readMemory(t, root, "instructions.md"); got != "# Instructions\n\n- Mock the NIM client in unit tests.\n- Unit tests call the real NIM endpoint.\n" {
		t.Errorf("instructions.md:\n%s", got)
	}
}
