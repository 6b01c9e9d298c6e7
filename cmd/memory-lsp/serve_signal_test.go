package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestServeEndsOnSignals (issue 28): SIGTERM ends the language server
// wherever it runs; Ctrl-C ends it where a person typed it in a terminal
// (its banner says so), and is left alone where an editor runs it on pipes.
func TestServeEndsOnSignals(t *testing.T) {
	longtest.Skip(t)
	waitExit := func(cmd *exec.Cmd) (int, bool) {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return ee.ExitCode(), true
			}
			return 0, err == nil
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			return 0, false
		}
	}
	t.Run("SIGTERM on pipes", func(t *testing.T) {
		cmd := exec.Command(binary, "serve", "--stdio")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // let it install its handlers
		cmd.Process.Signal(syscall.SIGTERM)
		if code, ok := waitExit(cmd); !ok || code != 1 {
			t.Errorf("after SIGTERM: exited %v, code %d; want code 1 (no shutdown came first)", ok, code)
		}
	})
	t.Run("SIGINT on pipes is left alone", func(t *testing.T) {
		cmd := exec.Command(binary, "serve", "--stdio")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		// twice: an editor's user may press Ctrl-C again, and the
		// second must not end it either
		for range 2 {
			cmd.Process.Signal(syscall.SIGINT)
			time.Sleep(300 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("the server ended on SIGINTs with stdin a pipe: %v", err)
		}
		stdin.Close() // end of input: it ends as an editor's server does
		if _, ok := waitExit(cmd); !ok {
			t.Error("the server did not end at the end of its input")
		}
	})
	for _, args := range [][]string{nil, {"mcp"}} {
		t.Run("Ctrl-C in a terminal "+strings.Join(args, ""), func(t *testing.T) {
			py, err := exec.LookPath("python3")
			if err != nil {
				t.Skip("python3 not found: the terminal is made with its pty module")
			}
			// python3 runs the server on a pseudo-terminal, waits for its
			// banner, sends SIGINT as Ctrl-C does, and prints its exit code.
			script := `import os, pty, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
deadline = time.time() + 5
while b"Ctrl-C quits" not in out and time.time() < deadline:
    try:
        out += os.read(fd, 4096)
    except OSError:
        break
os.kill(pid, signal.SIGINT)
deadline = time.time() + 5
while time.time() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        print("exit", os.waitstatus_to_exitcode(status))
        sys.exit(0)
    time.sleep(0.05)
os.kill(pid, signal.SIGKILL)
print("still running")
`
			var out bytes.Buffer
			cmd := exec.Command(py, append([]string{"-c", script, binary}, args...)...)
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if got := strings.TrimSpace(out.String()); got != "exit 130" && !(len(args) > 0 && strings.HasPrefix(got, "exit ")) {
				t.Errorf("Ctrl-C in a terminal: %q, want it to end (130 for the language server)", got)
			}
		})
	}
}
