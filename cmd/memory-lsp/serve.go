package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/tliron/commonlog"
	"golang.org/x/term"

	"github.com/memory-lsp/memory-lsp/core/repo"
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
	interactive := false
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// Someone typed `memory-lsp` in a terminal: without a word it
		// would seem to hang.
		interactive = true
		fmt.Fprintln(e.stderr, "memory-lsp: this is the language server, waiting for LSP messages on stdin; editors start it themselves.\nRun `memory-lsp help` for the commands (check, store, query, …); Ctrl-C quits.")
	}
	// SIGTERM ends the server wherever it runs; Ctrl-C (SIGINT) only where
	// a person typed the command in a terminal: an editor's process group
	// may receive a SIGINT meant for something else, and its server must
	// not die of it. The read loop blocks on stdin, which no signal
	// wakes, so the signal ends the command here (issue 28).
	terminated := make(chan os.Signal, 1)
	signal.Notify(terminated, syscall.SIGTERM)
	defer signal.Stop(terminated)
	var interrupted <-chan struct{}
	if interactive {
		interrupted = ctx.Done()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go releaseWhenIdle(ctx, newIdleReleaser())
	log := commonlog.GetLogger(lsp.Name)
	srv := lsp.NewServer(lsp.Options{Version: versionString(), OpenRepo: repo.Open}, log)
	type served struct {
		ok  bool
		err error
	}
	done := make(chan served, 1)
	go func() {
		ok, err := srv.Serve(ctx, lsp.NewConn(in, out, srv, log))
		done <- served{ok, err}
	}()
	var r served
	select {
	case r = <-done:
	case <-terminated:
		log.Noticef("terminated (SIGTERM)")
		return 1, nil // no shutdown came first: the specification's code 1
	case <-interrupted:
		fmt.Fprintln(e.stderr, "memory-lsp: interrupted")
		return 130, nil
	}
	if r.err != nil && r.err != io.EOF {
		log.Errorf("connection: %v", r.err)
	}
	if !r.ok {
		// The specification: exit without a prior shutdown means code 1.
		return 1, nil
	}
	return exitOK, nil
}
