//go:build unix

package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestPausedWriterInsideLock stops (SIGSTOP) a writer process inside the
// lock, at each stage before its file is replaced, for longer than the
// lock's stale age. Another writer takes the lock over, as it must, and
// stores its line. When the first writer is continued (SIGCONT), it must
// not rename its stale snapshot over the second writer's file: it sees
// that the lock is no longer its own, drops its temp file and does its
// transaction again. Both lines end up in the file exactly once; no lock
// and no temp file are left.
func TestPausedWriterInsideLock(t *testing.T) {
	longtest.Skip(t)
	const stale = 300 * time.Millisecond
	for _, at := range []stage{stageLocked, stageTempSynced} {
		t.Run(at.String(), func(t *testing.T) {
			w, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			dec := filepath.Join(w.Dir, "decisions.md")
			writeTestFile(t, dec, "# Decisions\n\n- [a] First.\n")
			first, second := "- paused writer's line", "- the line of the writer that took over"

			cmd, stdin, stderr := startStaged(t, "pause-at", w.Root, fmt.Sprintf("%d:%d:%s", int(at), stale.Milliseconds(), first), at)
			defer stdin.Close()
			if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			// The other writer waits until the stopped writer's lock is
			// stale, takes it over and writes.
			w2, err := Open(w.Root)
			if err != nil {
				t.Fatal(err)
			}
			w2.Lock.Stale = stale
			if _, err := w2.Update(context.Background(), appendIfAbsent(second+"\n")); err != nil {
				t.Fatalf("the second writer: %v", err)
			}
			if got := readString(t, dec); !strings.Contains(got, second) {
				t.Fatalf("the second writer's line is not on disk: %q", got)
			}
			if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("the paused writer failed after it was continued: %v: %s", err, stderr.String())
			}
			got := readString(t, dec)
			for _, line := range []string{"- [a] First.", first, second} {
				if n := strings.Count(got, line+"\n"); n != 1 {
					t.Errorf("%q is in the file %d times:\n%s", line, n, got)
				}
			}
			noLeftovers(t, w.Dir, "decisions.md")
		})
	}
}

// A category file with a second hard link is written in place, so both
// names keep showing one file with the new text and its mode; a file with
// one link is still replaced by a rename (a new inode).
func TestHardLinkedFileIsWrittenInPlace(t *testing.T) {
	w, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dec := filepath.Join(w.Dir, "decisions.md")
	writeTestFile(t, dec, "# Decisions\n\n- [a] First.\n")
	if err := os.Chmod(dec, 0o640); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(w.Root, "shared-decisions.md")
	if err := os.Link(dec, other); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	before, _ := os.Stat(dec)
	if _, err := w.Update(context.Background(), appendIfAbsent("- [b] Second.\n")); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(dec)
	linked, _ := os.Stat(other)
	if !os.SameFile(before, after) || !os.SameFile(after, linked) {
		t.Fatalf("the write detached the hard link (inode changed)")
	}
	if got, want := readString(t, other), "# Decisions\n\n- [a] First.\n- [b] Second.\n"; got != want {
		t.Errorf("through the other link: %q, want %q", got, want)
	}
	if after.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", after.Mode().Perm())
	}
	noLeftovers(t, w.Dir, "decisions.md")

	// Shorter content truncates; no stale tail is left.
	if _, err := w.Update(context.Background(), func(*Snapshot) ([]Change, error) {
		return []Change{{Path: "decisions.md", Data: []byte("# Decisions\n")}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, other); got != "# Decisions\n" {
		t.Errorf("after a shorter write: %q", got)
	}

	// One link: the usual atomic replace.
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	before, _ = os.Stat(dec)
	if _, err := w.Update(context.Background(), appendIfAbsent("- [c] Third.\n")); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(dec); os.SameFile(before, after) {
		t.Errorf("a file with one link was written in place, not replaced by a rename")
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
