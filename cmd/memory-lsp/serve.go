package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/tliron/commonlog"
	_ "github.com/tliron/commonlog/simple" // the stderr/file backend
	"golang.org/x/term"

	"github.com/memory-lsp/memory-lsp/lsp"
)

var logLevels = map[string]int{"none": -4, "error": -2, "warning": -1, "notice": 0, "info": 1, "debug": 2}

// runServe runs the language server on stdin/stdout. stdout carries nothing
// but JSON-RPC: every log line goes to stderr or --log-file.
func runServe(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	level := 0
	if name := a.str("log-level"); name != "" {
		l, ok := logLevels[name]
		if !ok {
			return exitError, usagef("unknown --log-level %q (error, warning, notice, info, debug)", name)
		}
		level = l
	}
	if path := a.str("log-file"); path != "" {
		// commonlog exits the process when it cannot open its file; check first.
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return exitError, fmt.Errorf("--log-file: %w", err)
		}
		f.Close()
		commonlog.Configure(level, &path)
	} else {
		commonlog.Configure(level, nil)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(lsp.MemoryLimit)
	}
	in, out := e.stdin, e.stdout
	if in == nil {
		in = os.Stdin
	}
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// Someone typed `memory-lsp` in a terminal: without a word it
		// would seem to hang.
		fmt.Fprintln(e.stderr, "memory-lsp: this is the language server, waiting for LSP messages on stdin; editors start it themselves.\nRun `memory-lsp help` for the commands (check, store, query, …); Ctrl-C quits.")
	}
	log := commonlog.GetLogger(lsp.Name)
	srv := lsp.NewServer(lsp.Options{Version: versionString()}, log)
	ok, err := srv.Serve(ctx, lsp.NewConn(in, out, srv, log))
	if err != nil && err != io.EOF {
		log.Errorf("connection: %v", err)
	}
	if !ok {
		// The specification: exit without a prior shutdown means code 1.
		return 1, nil
	}
	return exitOK, nil
}
