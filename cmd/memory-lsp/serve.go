package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/tliron/commonlog"
	"golang.org/x/term"

	"github.com/memory-lsp/memory-lsp/lsp"
)

// runServe runs the language server on stdin/stdout. stdout carries nothing
// but JSON-RPC: every log line goes to stderr or --log-file.
func runServe(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	if err := configureLogging(a, "notice"); err != nil {
		return exitError, err
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go releaseWhenIdle(ctx, newIdleReleaser())
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
