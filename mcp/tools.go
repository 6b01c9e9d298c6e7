//lint:file-ignore SA1019 MCP roots are deprecated from protocol 2026-07-28 but stay in the SDK for the deprecation window, and clients of earlier versions send them: we serve both.

package mcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memory"
)

// The tool names. storeMemory and queryMemory are HackLM's, so agents and
// prompts written for HackLM call them unchanged.
const (
	ToolStore = "storeMemory"
	ToolQuery = "queryMemory"
	ToolGet   = "getMemory"
	ToolList  = "listMemories"
	ToolStats = "memoryStats"
)

type tool struct {
	tool   *sdk.Tool
	handle sdk.ToolHandler
}

// Descriptions tell the model when to call each tool: that, more than the
// schema, decides whether an agent ever reads or writes its memory.
const (
	storeDescription = "Saves a durable insight about the current project to .memory/<category>.md, for future sessions and for teammates and other agents sharing the folder (HackLM Memory's storeMemory). " +
		"Call it when you learn something that will still be true next session: a decision taken, a quirk or gotcha of this codebase, a preference of the user, an instruction on how to work here, a security rule. " +
		"Write one concise sentence per call. Never store secrets (keys, tokens, passwords: name where they live instead) and never transient state (the current task, progress, a TODO, a test result). " +
		"Give a kebab-case slug to be able to update the entry later: the same slug replaces the entry instead of adding one. " +
		"The reply says whether the entry was stored, updated, or skipped because a similar entry already exists."
	queryDescription = "Searches the project's memory (.memory/*.md: instructions, quirks, preferences, decisions, security rules) and returns the most relevant entries (HackLM Memory's queryMemory). " +
		"Call it before starting a task, and whenever you are unsure about a project convention, a past decision or a known quirk, before guessing or asking the user. " +
		"Keywords or a natural-language question both work. Results carry file, line and slug, for getMemory or for updating an entry with storeMemory and the same slug."
	getDescription = "Reads memory entries back exactly: by slug, or by file (a category such as Decision, or a file name such as decisions.md) and an optional line range. " +
		"Use it to see the entry a queryMemory result or a memoryStats pair points at, for example before replacing it with storeMemory and its slug."
	listDescription = "Lists every memory entry, or those of one category, with file, line, slug, content and pruning score (the lowest-scoring entry is the first dropped when a category is full). " +
		"Use it to review what the project remembers; use queryMemory to find something specific."
	statsDescription = "Summarises the project's memory: entries per category against its limit, near-duplicate and conflicting pairs of entries, and when a memory file last changed. " +
		"Use it to judge whether the memory needs attention (a full category, duplicates to merge, a rule and its reversal)."
)

// tools builds the tool list, schemas included, for one server: nothing is
// shared between servers.
func (s *Server) tools() []tool {
	no := false
	readOnly := func(title string) *sdk.ToolAnnotations {
		return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: &no}
	}
	destructive := true
	return []tool{
		{&sdk.Tool{
			Name: ToolStore, Title: "Store Memory", Description: storeDescription,
			InputSchema: storeSchema(), OutputSchema: outputSchema[memory.StoreResult](),
			// An update replaces an entry and a full category drops its
			// weakest one, so a store may destroy; repeating the same call
			// changes nothing more, because the repeat is skipped as a
			// duplicate.
			Annotations: &sdk.ToolAnnotations{Title: "Store Memory", DestructiveHint: &destructive, IdempotentHint: true, OpenWorldHint: &no},
		}, s.storeMemory},
		{&sdk.Tool{
			Name: ToolQuery, Title: "Query Memory", Description: queryDescription,
			InputSchema: querySchema(), OutputSchema: outputSchema[queryOutput](), Annotations: readOnly("Query Memory"),
		}, s.queryMemory},
		{&sdk.Tool{
			Name: ToolGet, Title: "Get Memory", Description: getDescription,
			InputSchema: getSchema(), OutputSchema: outputSchema[entriesOutput](), Annotations: readOnly("Get Memory"),
		}, s.getMemory},
		{&sdk.Tool{
			Name: ToolList, Title: "List Memories", Description: listDescription,
			InputSchema: listSchema(), OutputSchema: outputSchema[listOutput](), Annotations: readOnly("List Memories"),
		}, s.listMemories},
		{&sdk.Tool{
			Name: ToolStats, Title: "Memory Stats", Description: statsDescription,
			InputSchema: object(nil), OutputSchema: outputSchema[statsOutput](), Annotations: readOnly("Memory Stats"),
		}, s.memoryStats},
	}
}

// Input schemas. storeMemory's and queryMemory's are HackLM's: the same
// properties, types, enums and required fields.

func storeSchema() *jsonschema.Schema {
	return object([]string{"category", "content"},
		prop{"category", categoryEnum("The memory category: Instruction (how to work in this project), Quirk (a non-obvious gotcha), Preference (style and design choices), Decision (an architectural commitment) or Security (a rule that must never be broken)")},
		prop{"content", str("The insight to store. One concise sentence.")},
		prop{"slug", str("Optional kebab-case key (e.g. 'console-logs'). Same slug = update, not duplicate.")},
	)
}

func querySchema() *jsonschema.Schema {
	return object([]string{"query"},
		prop{"query", str("Search query — keywords or a natural language question")},
		prop{"category", categoryEnum("Optional: filter to a specific category")},
		prop{"limit", &jsonschema.Schema{Type: "number", Description: "Max results to return (default: 10, max: 20)"}},
	)
}

func getSchema() *jsonschema.Schema {
	return object(nil,
		prop{"slug", str("The slug of the entry (e.g. 'console-logs'); searched in every file unless file is given")},
		prop{"file", str("A category (Instruction, Quirk, Preference, Decision, Security) or a file name in .memory (e.g. decisions.md)")},
		prop{"line", integer("First line of the range (1-based); alone, the only line. Without it, the whole file", 1)},
		prop{"endLine", integer("Last line of the range, inclusive", 1)},
	)
}

func listSchema() *jsonschema.Schema {
	return object(nil, prop{"category", categoryEnum("Optional: only this category")})
}

// Structured results. storeMemory's is the CLI's `store --json` document.
type (
	queryHit struct {
		memory.EntryRef
		Path string `json:"path" jsonschema:"absolute path of the file"`
		// Score is the search relevance, as in `query --json`.
		Score float64  `json:"score" jsonschema:"search relevance"`
		Stale []string `json:"stale,omitempty" jsonschema:"what the entry cites that the repository contradicts (a gone path, a missing make target or script, a contradicted version): do not follow it as it stands"`
	}
	queryOutput struct {
		Results []queryHit `json:"results"`
		Message string     `json:"message"`
	}
	entriesOutput struct {
		Entries []memory.EntryRef `json:"entries"`
		Message string            `json:"message"`
	}
	listOutput struct {
		Entries []memory.CatalogEntry `json:"entries"`
		Message string                `json:"message"`
	}
	statsCategory struct {
		memory.CategoryStats
		LastChange string `json:"lastChange,omitempty" jsonschema:"modification time of the file (RFC 3339); absent when the file does not exist"`
	}
	statsOutput struct {
		Categories []statsCategory     `json:"categories"`
		Total      int                 `json:"total"`
		Duplicates []memory.Pair       `json:"duplicates"`
		Conflicts  []memory.Pair       `json:"conflicts"`
		Siblings   []memory.Pair       `json:"siblings" jsonschema:"pairs that differ by one term: likely two facts, listed so a person can merge them if they are one"`
		Versions   []memory.Pair       `json:"versions" jsonschema:"two texts under one slug in a file, each later one with the first: a store under the slug updates only one of them"`
		Stale      []memory.StaleEntry `json:"stale" jsonschema:"entries citing a path, command or version the repository contradicts, each with its problems"`
		LastChange string              `json:"lastChange,omitempty" jsonschema:"the latest modification time of a category file (RFC 3339)"`
		Budget     *memory.Budget      `json:"budget,omitempty" jsonschema:"what each agent the workspace uses loads at session start and each memory file, in bytes, lines and estimated tokens, against the agents' documented limits"`
		Message    string              `json:"message"`
	}
)

// --- results -----------------------------------------------------------------

// success is a reply: the sentence as text, the document as structured content.
func success(message string, out any) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: message}}, StructuredContent: out}
}

// failure is a refused or failed call: a tool error the model reads and can
// act on (fix the input, retry later), not a protocol error. The prefix is
// HackLM's where it has one ("Failed to store memory: …").
func failure(prefix string, err error) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: prefix + ": " + err.Error()}}, IsError: true}
}

// askRoots is the input request that fetches the client's roots.
func askRoots(state string) *sdk.CallToolResult {
	return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{rootsKey: &sdk.ListRootsParams{}}, RequestState: state}
}

// call runs the parts every tool shares: decode the arguments, pick the
// workspace (asking the client for roots if need be), open it, then run fn.
// A cancelled call is a protocol matter; every other error is the tool's.
func (s *Server) call(ctx context.Context, req *sdk.CallToolRequest, prefix string, args any,
	fn func(*memory.Service) (*sdk.CallToolResult, error)) (*sdk.CallToolResult, error) {
	if err := memory.DecodeArgs(req.Params.Arguments, args); err != nil {
		return failure(prefix, err), nil
	}
	root, state, ask, err := s.rootFor(ctx, req)
	if ask {
		return askRoots(state), nil
	}
	var svc *memory.Service
	if err == nil {
		svc, err = s.service(root)
	}
	if err == nil {
		svc.Who.Name = clientName(req)
	}
	if err == nil {
		var res *sdk.CallToolResult
		if res, err = fn(svc); err == nil {
			return res, nil
		}
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	s.opts.Logger.Debug("tool refused", "tool", req.Params.Name, "error", err)
	return failure(prefix, err), nil
}

// --- storeMemory ---------------------------------------------------------------

func (s *Server) storeMemory(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in memory.StoreRequest
	return s.call(ctx, req, "Failed to store memory", &in, func(svc *memory.Service) (*sdk.CallToolResult, error) {
		// Service.Store validates, then decides and writes inside the
		// workspace lock, as the CLI and the language server do.
		res, err := svc.Store(ctx, in, false)
		if err != nil {
			return nil, err
		}
		return success(res.Message, res), nil
	})
}

// --- queryMemory -----------------------------------------------------------------

func (s *Server) queryMemory(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		Query    string   `json:"query"`
		Category string   `json:"category"`
		Limit    *float64 `json:"limit"`
	}
	return s.call(ctx, req, "Query failed", &in, func(svc *memory.Service) (*sdk.CallToolResult, error) {
		q := memory.QueryRequest{Query: in.Query, Category: in.Category}
		if in.Limit != nil {
			// HackLM's schema says "number"; a fraction would silently mean
			// something else, so only whole numbers are taken.
			if *in.Limit != math.Trunc(*in.Limit) || math.Abs(*in.Limit) > 1e9 {
				return nil, &memory.InputError{Field: "limit", Problem: fmt.Sprintf("limit %v is not a whole number: use 1 to %d", *in.Limit, memory.MaxQueryLimit)}
			}
			n := int(*in.Limit)
			q.Limit = &n
		}
		res, err := svc.Query(q)
		if err != nil {
			return nil, err
		}
		out := queryOutput{Results: []queryHit{}, Message: res.Message}
		for _, h := range res.Results {
			out.Results = append(out.Results, queryHit{EntryRef: h.EntryRef, Path: h.Path, Score: h.Relevance, Stale: h.Stale})
		}
		return success(res.Message, out), nil
	})
}

// --- getMemory -------------------------------------------------------------------

func (s *Server) getMemory(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in memory.GetRequest
	return s.call(ctx, req, "getMemory failed", &in, func(svc *memory.Service) (*sdk.CallToolResult, error) {
		files, err := svc.Load()
		if err != nil {
			return nil, err
		}
		entries, err := memory.Get(files, in)
		if err != nil {
			return nil, err
		}
		var msg string
		if len(entries) == 0 {
			msg = "No memories found: " + describeGet(in) + "."
		} else {
			msg = memory.EntriesMessage(entries)
		}
		return success(msg, entriesOutput{Entries: entries, Message: msg}), nil
	})
}

// describeGet names what a getMemory call asked for, for the empty reply.
func describeGet(in memory.GetRequest) string {
	var parts []string
	if in.Slug != "" {
		parts = append(parts, fmt.Sprintf("no entry with slug [%s]", strings.TrimSpace(in.Slug)))
	}
	if in.File != "" {
		where := in.File
		if c, err := category.Parse(in.File); err == nil {
			where = c.File()
		}
		switch {
		case in.Line != nil && in.EndLine != nil:
			where += fmt.Sprintf(" lines %d-%d", *in.Line, *in.EndLine)
		case in.Line != nil:
			where += fmt.Sprintf(" line %d", *in.Line)
		}
		if in.Slug == "" {
			parts = append(parts, "no entry in "+where)
		} else {
			parts = append(parts, "in "+where)
		}
	}
	return strings.Join(parts, " ")
}

// --- listMemories ----------------------------------------------------------------

func (s *Server) listMemories(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		Category string `json:"category"`
	}
	return s.call(ctx, req, "listMemories failed", &in, func(svc *memory.Service) (*sdk.CallToolResult, error) {
		files, err := svc.Load()
		if err != nil {
			return nil, err
		}
		entries, err := memory.List(files, in.Category)
		if err != nil {
			return nil, err
		}
		out := listOutput{Entries: entries}
		out.Message = memory.ListMessage(entries)
		return success(out.Message, out), nil
	})
}

// --- memoryStats -----------------------------------------------------------------

func (s *Server) memoryStats(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct{}
	return s.call(ctx, req, "memoryStats failed", &in, func(svc *memory.Service) (*sdk.CallToolResult, error) {
		files, err := svc.Load()
		if err != nil {
			return nil, err
		}
		st := memory.ComputeStats(files, svc.Cfg, svc.ReferenceRepo(ctx))
		st.AddBudget(svc.Cfg, files, svc.WS.Root)
		out := statsOutput{Budget: st.Budget, Total: st.Total, Duplicates: st.Duplicates, Conflicts: st.Conflicts, Siblings: st.Siblings, Versions: st.Versions, Stale: st.Stale}
		var latest time.Time
		latestFile := ""
		for _, cs := range st.Categories {
			sc := statsCategory{CategoryStats: cs}
			if t, ok := svc.WS.ModTime(cs.File); ok {
				sc.LastChange = t.Format(time.RFC3339)
				if t.After(latest) {
					latest, latestFile = t, cs.File
				}
			}
			out.Categories = append(out.Categories, sc)
		}
		if latestFile != "" {
			out.LastChange = latest.Format(time.RFC3339)
		}
		out.Message = st.Message(out.LastChange, latestFile)
		return success(out.Message, out), nil
	})
}

// clientName is the client as it named itself in initialize ("claude-code
// 2.0.1"), for the provenance of what it writes; "" when it gave no name.
func clientName(req *sdk.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	p := req.Session.InitializeParams()
	if p == nil || p.ClientInfo == nil {
		return ""
	}
	return strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
}
