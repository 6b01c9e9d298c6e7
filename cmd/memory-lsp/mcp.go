package main

import (
	"context"
	"errors"
	"fmt"
	"golang.org/x/term"
	"io"
	"log/slog"
	"os"

	"github.com/tliron/commonlog"

	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/mcp"
)

// mcpCommand is `memory-lsp mcp`: the Model Context Protocol server on stdio.
func mcpCommand() command {
	return command{name: "mcp", args: "[--root DIR] [--log-file F] [--log-level L]", help: "run the MCP server on stdio: storeMemory, queryMemory, getMemory, listMemories, memoryStats for agents",
		notes:    "Without --root the client's roots decide, else the project found from the current folder (the nearest .memory above it, else the git top level). stdout carries protocol messages only.",
		flags:    logFlags("warning"),
		examples: []string{"memory-lsp mcp", "claude mcp add memory -- memory-lsp mcp"},
		run:      runMCP}
}

// runMCP serves one MCP session on stdin/stdout until the client closes
// stdin. stdout carries nothing but protocol messages; logs go to stderr.
func runMCP(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	if err := configureLogging(a, "warning"); err != nil {
		return exitError, err
	}
	opts := mcp.Options{Config: e.cfg, Version: versionString(),
		Logger: slog.New(mcp.LogHandler(commonlog.GetLogger("memory-lsp.mcp")))}
	// Without --root the client's roots decide, and the folder found from
	// the current directory is only the fallback.
	if a.set["root"] {
		// A wrong --root is reported now, where the agent's log shows it,
		// rather than as a failure of every later tool call.
		ws, err := store.Open(e.root)
		if err != nil {
			return exitError, fmt.Errorf("--root: %w", err)
		}
		opts.Root = ws.Root
	} else {
		opts.Fallback = e.root
	}
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// typed in a terminal: say what it is, as serve does (issue 28)
		fmt.Fprintln(e.stderr, "memory-lsp mcp: this is the MCP server, waiting for JSON-RPC messages on stdin; agents start it themselves.\nRun `memory-lsp help` for the commands (check, store, query, …); Ctrl-C quits.")
	}
	in, ok := e.stdin.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(e.stdin)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go releaseWhenIdle(ctx, newIdleReleaser())
	err := mcp.New(opts).Serve(ctx, &mcp.Stdio{In: in, Out: e.stdout, Logger: opts.Logger})
	if err != nil && !errors.Is(err, context.Canceled) {
		return exitError, err
	}
	return exitOK, nil
}
