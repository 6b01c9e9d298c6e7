package lsptest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Capabilities are the client capabilities Initialize sends: a 3.16 editor
// that applies workspace edits with versioned documentChanges, answers
// configuration pulls, and reads versioned, tagged diagnostics.
func Capabilities() map[string]any {
	return map[string]any{
		"workspace": map[string]any{
			"applyEdit":             true,
			"workspaceEdit":         map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}},
			"configuration":         true,
			"workspaceFolders":      true,
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": false},
			"executeCommand":        map[string]any{},
		},
		"textDocument": map[string]any{
			"synchronization": map[string]any{"didSave": true},
			"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true,
				"tagSupport": map[string]any{"valueSet": []int{1, 2}}, "dataSupport": true},
			"codeAction": map[string]any{
				"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{
					"valueSet": []string{"quickfix", "refactor", "refactor.rewrite", "source", "source.fixAll"}}},
				"isPreferredSupport": true, "dataSupport": true},
		},
		"window": map[string]any{"workDoneProgress": true},
	}
}

// InitializeParams are the params Initialize sends for one workspace folder.
func InitializeParams(root string, initializationOptions any) map[string]any {
	p := map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]any{"name": "lsptest"},
		"rootUri":          URI(root),
		"workspaceFolders": []map[string]any{{"uri": URI(root), "name": filepath.Base(root)}},
		"capabilities":     Capabilities(),
	}
	if initializationOptions != nil {
		p["initializationOptions"] = initializationOptions
	}
	return p
}

// Initialize runs the handshake (initialize, then initialized) and returns
// the initialize result.
func (c *Client) Initialize(params map[string]any) json.RawMessage {
	c.t.Helper()
	res, err := c.Request("initialize", params)
	if err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		c.t.Fatalf("initialized: %v", err)
	}
	return res
}

// SetSettings sets what workspace/configuration answers: for an item with
// section "a.b", the value at settings["a"]["b"] (null when absent); for an
// item without a section, the whole map.
func (c *Client) SetSettings(settings map[string]any) {
	c.mu.Lock()
	c.settings = settings
	c.mu.Unlock()
}

// Handle installs the answer to a server→client request method, replacing
// the default behaviour.
func (c *Client) Handle(method string, fn func(params json.RawMessage) (any, error)) {
	c.mu.Lock()
	c.handlers[method] = fn
	c.mu.Unlock()
}

// ServerRequests are the server→client requests received with method.
func (c *Client) ServerRequests(method string) []Message {
	var out []Message
	for _, m := range c.Messages() {
		if m.IsRequest() && m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// answer replies to one server→client request.
func (c *Client) answer(m Message) {
	c.mu.Lock()
	h := c.handlers[m.Method]
	c.mu.Unlock()
	var (
		result any
		err    error
	)
	switch {
	case h != nil:
		result, err = h(m.Params)
	case m.Method == "workspace/applyEdit":
		result = c.applyEditRequest(m.Params)
	case m.Method == "workspace/configuration":
		result, err = c.configuration(m.Params)
	case m.Method == "client/registerCapability", m.Method == "client/unregisterCapability",
		m.Method == "window/workDoneProgress/create", m.Method == "window/showMessageRequest":
		result = nil
	default:
		err = &Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("lsptest does not answer %s", m.Method)}
	}
	out := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			e = &Error{Code: -32603, Message: err.Error()}
		}
		out["error"] = e
	} else {
		out["result"] = result
	}
	c.write(out)
}

func (c *Client) configuration(params json.RawMessage) (any, error) {
	var p struct {
		Items []struct {
			Section string `json:"section"`
		} `json:"items"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &Error{Code: CodeInvalidParams, Message: err.Error()}
	}
	c.mu.Lock()
	settings := c.settings
	c.mu.Unlock()
	out := make([]any, len(p.Items))
	for i, it := range p.Items {
		var v any = settings
		if settings == nil {
			v = nil
		}
		if it.Section != "" {
			for _, key := range strings.Split(it.Section, ".") {
				m, ok := v.(map[string]any)
				if !ok {
					v = nil
					break
				}
				v = m[key]
			}
		}
		out[i] = v
	}
	return out, nil
}

// applyEditRequest answers workspace/applyEdit as an editor does.
func (c *Client) applyEditRequest(params json.RawMessage) any {
	var p struct {
		Edit json.RawMessage `json:"edit"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return map[string]any{"applied": false, "failureReason": err.Error()}
	}
	if err := c.ApplyEdit(p.Edit); err != nil {
		c.t.Logf("lsptest: refusing workspace/applyEdit: %v", err)
		return map[string]any{"applied": false, "failureReason": err.Error()}
	}
	return map[string]any{"applied": true}
}

// Open sends didOpen for path with text, as version 1.
func (c *Client) Open(path, text string) string {
	c.t.Helper()
	uri := URI(path)
	c.dmu.Lock()
	c.docs[uri] = &doc{text: text, version: 1}
	c.dmu.Unlock()
	if err := c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "markdown", "version": 1, "text": text}}); err != nil {
		c.t.Fatalf("didOpen: %v", err)
	}
	return uri
}

// OpenFile opens path with its contents on disk.
func (c *Client) OpenFile(path string) string {
	c.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.Open(path, string(b))
}

// Save writes the client's buffer of uri to its file, as an editor saves
// (in place, not under any lock), then sends didSave.
func (c *Client) Save(uri string) {
	c.t.Helper()
	path, err := PathOf(uri)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(c.Text(uri)), 0o644); err != nil {
		c.t.Fatalf("saving %s: %v", path, err)
	}
	if err := c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}}); err != nil {
		c.t.Fatalf("didSave: %v", err)
	}
}

// Close sends didClose and forgets the buffer.
func (c *Client) Close(uri string) {
	c.dmu.Lock()
	delete(c.docs, uri)
	c.dmu.Unlock()
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// Change applies changes to the buffer of uri one after the other, each
// relative to the text the previous one left (didChange's rule), sends them
// as one incremental didChange with the next version, and returns that
// version.
func (c *Client) Change(uri string, changes ...TextEdit) int {
	c.t.Helper()
	c.dmu.Lock()
	d := c.docs[uri]
	if d == nil {
		c.dmu.Unlock()
		c.t.Fatalf("didChange for %s, which the client has not opened", uri)
	}
	next, err := applySequential(d.text, changes)
	if err != nil {
		c.dmu.Unlock()
		c.t.Fatalf("change to %s: %v", uri, err)
	}
	d.text, d.version = next, d.version+1
	version := d.version
	err = c.sendChange(uri, version, changes)
	c.dmu.Unlock()
	if err != nil {
		c.t.Fatalf("didChange: %v", err)
	}
	return version
}

// sendChange writes a didChange; c.dmu is held so that versions go out in
// order. c.mu must not be: the read loop needs it to take the server's
// messages, and a server blocked writing to us reads nothing from us.
func (c *Client) sendChange(uri string, version int, changes []TextEdit) error {
	cc := make([]map[string]any, len(changes))
	for i, ch := range changes {
		cc[i] = map[string]any{"range": ch.Range, "text": ch.NewText}
	}
	return c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": cc})
}

// Text is the client's copy of an open buffer.
func (c *Client) Text(uri string) string {
	c.dmu.Lock()
	defer c.dmu.Unlock()
	if d := c.docs[uri]; d != nil {
		return d.text
	}
	c.t.Errorf("Text(%s): not open", uri)
	return ""
}

// Version is the version of an open buffer (0 when not open).
func (c *Client) Version(uri string) int {
	c.dmu.Lock()
	defer c.dmu.Unlock()
	if d := c.docs[uri]; d != nil {
		return d.version
	}
	return 0
}

// ApplyEdit applies a WorkspaceEdit (changes or documentChanges, including
// create, rename and delete operations) as an editor does: open buffers are
// edited and the server is told with didChange; files that are not open are
// edited on disk. A TextDocumentEdit whose version is not the buffer's is
// refused. Either every change applies or none does.
func (c *Client) ApplyEdit(edit json.RawMessage) error {
	var we struct {
		Changes         map[string][]TextEdit `json:"changes"`
		DocumentChanges []json.RawMessage     `json:"documentChanges"`
	}
	if err := json.Unmarshal(edit, &we); err != nil {
		return fmt.Errorf("WorkspaceEdit does not decode: %v", err)
	}
	type op struct {
		kind          string // "edit", "create", "rename", "delete"
		uri, newURI   string
		version       *int
		edits         []TextEdit
		ignoreIfExist bool
	}
	var ops []op
	if len(we.DocumentChanges) > 0 {
		for i, raw := range we.DocumentChanges {
			var dc struct {
				Kind         string `json:"kind"`
				URI          string `json:"uri"`
				OldURI       string `json:"oldUri"`
				NewURI       string `json:"newUri"`
				TextDocument struct {
					URI     string `json:"uri"`
					Version *int   `json:"version"`
				} `json:"textDocument"`
				Edits   []TextEdit `json:"edits"`
				Options struct {
					IgnoreIfExists bool `json:"ignoreIfExists"`
				} `json:"options"`
			}
			if err := json.Unmarshal(raw, &dc); err != nil {
				return fmt.Errorf("documentChanges[%d]: %v", i, err)
			}
			switch dc.Kind {
			case "":
				ops = append(ops, op{kind: "edit", uri: dc.TextDocument.URI, version: dc.TextDocument.Version, edits: dc.Edits})
			case "create", "delete":
				ops = append(ops, op{kind: dc.Kind, uri: dc.URI, ignoreIfExist: dc.Options.IgnoreIfExists})
			case "rename":
				ops = append(ops, op{kind: "rename", uri: dc.OldURI, newURI: dc.NewURI})
			default:
				return fmt.Errorf("documentChanges[%d]: unknown kind %q", i, dc.Kind)
			}
		}
	} else {
		uris := make([]string, 0, len(we.Changes))
		for u := range we.Changes {
			uris = append(uris, u)
		}
		sort.Strings(uris)
		for _, u := range uris {
			ops = append(ops, op{kind: "edit", uri: u, edits: we.Changes[u]})
		}
	}

	c.dmu.Lock()
	defer c.dmu.Unlock()
	// Plan everything first so that a refused change leaves nothing half done.
	type result struct {
		uri     string
		open    bool
		text    string
		changes []TextEdit
	}
	var plan []result
	pending := map[string]string{} // texts planned so far, by uri
	current := func(uri string) (string, bool, error) {
		if t, ok := pending[uri]; ok {
			_, open := c.docs[uri]
			return t, open, nil
		}
		if d := c.docs[uri]; d != nil {
			return d.text, true, nil
		}
		path, err := PathOf(uri)
		if err != nil {
			return "", false, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return "", false, err
		}
		return string(b), false, nil
	}
	for _, o := range ops {
		if o.kind != "edit" {
			continue
		}
		if o.version != nil {
			d := c.docs[o.uri]
			if d == nil {
				return fmt.Errorf("a versioned edit (version %d) for %s, which is not open", *o.version, o.uri)
			}
			if d.version != *o.version {
				return fmt.Errorf("edit for %s version %d, but the buffer is at version %d", o.uri, *o.version, d.version)
			}
		}
		text, open, err := current(o.uri)
		if err != nil {
			return err
		}
		next, err := Apply(text, o.edits)
		if err != nil {
			return fmt.Errorf("edit for %s: %v", o.uri, err)
		}
		pending[o.uri] = next
		plan = append(plan, result{uri: o.uri, open: open, text: next, changes: o.edits})
	}
	for _, o := range ops {
		switch o.kind {
		case "create":
			p, err := PathOf(o.uri)
			if err != nil {
				return err
			}
			if _, err := os.Stat(p); err == nil && o.ignoreIfExist {
				continue
			}
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
		case "delete":
			p, err := PathOf(o.uri)
			if err != nil {
				return err
			}
			if err := os.Remove(p); err != nil {
				return err
			}
		case "rename":
			from, err := PathOf(o.uri)
			if err != nil {
				return err
			}
			to, err := PathOf(o.newURI)
			if err != nil {
				return err
			}
			if err := os.Rename(from, to); err != nil {
				return err
			}
		}
	}
	for _, r := range plan {
		if !r.open {
			p, _ := PathOf(r.uri)
			if err := os.WriteFile(p, []byte(r.text), 0o644); err != nil {
				return err
			}
			continue
		}
		// An editor reports its own edit of a buffer as a change: the edits
		// from the last to the first, so that each stays valid for the text
		// the previous one left.
		d := c.docs[r.uri]
		desc := make([]TextEdit, len(r.changes))
		for i, e := range r.changes {
			desc[len(desc)-1-i] = e // equal starts: the later edit goes first
		}
		sort.SliceStable(desc, func(i, j int) bool {
			a, b := desc[i].Range.Start, desc[j].Range.Start
			return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
		})
		d.text, d.version = r.text, d.version+1
		if err := c.sendChange(r.uri, d.version, desc); err != nil {
			return err
		}
	}
	return nil
}
