package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The MCP server itself is tested in package mcp, in process and against
// the built binary; these check the command's wiring.

func TestMCPCommandUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--log-level", "loud"}, `unknown --log-level "loud"`},
		{[]string{"mcp", "--root", missing}, "memory-lsp: --root: opening workspace " + missing},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), c.args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
		if code != exitError || !strings.Contains(errb.String(), c.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out.String(), errb.String())
		}
	}
}

// TestMCPCommandInProcess runs one session through run(): the reply is one
// JSON-RPC line on stdout, and closing stdin ends the command with code 0.
func TestMCPCommandInProcess(t *testing.T) {
	root := t.TempDir()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"mcp", "--root", root}, &env{stdin: inR, stdout: outW, stderr: &errb})
		outW.Close()
	}()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	sc := bufio.NewScanner(outR)
	if !sc.Scan() {
		t.Fatalf("no reply; stderr %q", errb.String())
	}
	var reply struct {
		ID     int
		Result struct {
			ServerInfo struct{ Name string }
		}
	}
	if err := json.Unmarshal(sc.Bytes(), &reply); err != nil || reply.ID != 1 || reply.Result.ServerInfo.Name != "memory-lsp" {
		t.Fatalf("reply %q: %v", sc.Text(), err)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d; stderr %q", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("memory-lsp mcp did not end when stdin closed")
	}
}
