package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain re-executes the test binary as helper processes: with
// MEMLSP_HELPER=<role> it plays that role and exits.
func TestMain(m *testing.M) {
	if role := os.Getenv("MEMLSP_HELPER"); role != "" {
		if err := runHelper(role, os.Getenv("MEMLSP_ROOT"), os.Getenv("MEMLSP_ARG")); err != nil {
			fmt.Fprintf(os.Stderr, "helper %s: %v\n", role, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runHelper(role, root, arg string) error {
	dir := filepath.Join(root, ".memory")
	switch role {
	case "exit":
		return nil
	case "hacklm-hold":
		// Take the lock exactly the way HackLM does (§16.1), hold it, delete it.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		lock := filepath.Join(dir, ".lock")
		for {
			f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
			if errors.Is(err, os.ErrExist) {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(f, `{"pid":%d,"ts":%d}`, os.Getpid(), time.Now().UnixMilli())
			f.Close()
			break
		}
		fmt.Println("locked")
		d, _ := time.ParseDuration(arg)
		time.Sleep(d)
		return os.Remove(lock)
	case "hacklm-crash":
		// Write a HackLM lock for ourselves and "crash" without removing it.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
		if err != nil {
			return err
		}
		fmt.Fprintf(f, `{"pid":%d,"ts":%d}`, os.Getpid(), time.Now().UnixMilli())
		f.Close()
		return nil
	case "append-once":
		w, err := Open(root)
		if err != nil {
			return err
		}
		for range 10 {
			if _, err := w.Update(context.Background(), appendIfAbsent("- x\n")); err != nil {
				return err
			}
		}
		return nil
	case "crash-at":
		// Start an update that appends the line, announce the stage given
		// on stdout when the writer reaches it, and wait there to be killed.
		n, line, _ := strings.Cut(arg, ":")
		at, err := strconv.Atoi(n)
		if err != nil {
			return err
		}
		w, err := Open(root)
		if err != nil {
			return err
		}
		w.hook = func(s stage) {
			if s != stage(at) {
				return
			}
			fmt.Printf("at %v\n", s)
			// Our stdin closes only if the test died without killing us:
			// then exit without releasing anything, as a crash would.
			io.Copy(io.Discard, os.Stdin)
			os.Exit(3)
		}
		if _, err := w.Update(context.Background(), appendIfAbsent(line+"\n")); err != nil {
			return err
		}
		return fmt.Errorf("update finished without reaching stage %v", stage(at))
	case "pause-at":
		// Append the line with a short stale time; when the writer reaches
		// the stage, announce it and dawdle, so that the test can stop the
		// process (SIGSTOP) there, inside the lock.
		n, rest, _ := strings.Cut(arg, ":")
		ms, line, _ := strings.Cut(rest, ":")
		at, err := strconv.Atoi(n)
		if err != nil {
			return err
		}
		stale, err := strconv.Atoi(ms)
		if err != nil {
			return err
		}
		w, err := Open(root)
		if err != nil {
			return err
		}
		w.Lock.Stale = time.Duration(stale) * time.Millisecond
		paused := false
		w.hook = func(s stage) {
			if s != stage(at) || paused {
				return
			}
			paused = true
			fmt.Printf("at %v\n", s)
			time.Sleep(500 * time.Millisecond)
		}
		_, err = w.Update(context.Background(), appendIfAbsent(line+"\n"))
		return err
	case "append-many":
		w, err := Open(root)
		if err != nil {
			return err
		}
		for i := range 50 {
			if _, err := w.Update(context.Background(), appendIfAbsent(fmt.Sprintf("- p%s-%d\n", arg, i))); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown role %q", role)
}

type helperProc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	stdout io.ReadCloser
}

func startHelper(t *testing.T, role, root, arg string) *helperProc {
	t.Helper()
	h := &helperProc{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	h.cmd.Env = append(os.Environ(), "MEMLSP_HELPER="+role, "MEMLSP_ROOT="+root, "MEMLSP_ARG="+arg)
	h.cmd.Stderr = &h.stderr
	var err error
	if h.stdout, err = h.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *helperProc) wait(t *testing.T) {
	t.Helper()
	io.Copy(io.Discard, h.stdout)
	if err := h.cmd.Wait(); err != nil {
		t.Errorf("helper %v: %v\n%s", h.cmd.Env[len(h.cmd.Env)-3:], err, h.stderr.String())
	}
}

// Test 1: a HackLM-style holder in another process; Update waits for it.
func TestInteropWaitsForHackLMHolder(t *testing.T) {
	root := t.TempDir()
	h := startHelper(t, "hacklm-hold", root, "300ms")
	line, err := bufio.NewReader(h.stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper said %q, %v: %s", line, err, h.stderr.String())
	}
	start := time.Now()
	w, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Update(context.Background(), appendIfAbsent("- a\n"))
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	h.wait(t)
	if elapsed < 250*time.Millisecond {
		t.Errorf("Update finished after %v, while the holder kept the lock ~300ms", elapsed)
	}
	if len(got) != 1 {
		t.Errorf("written %v", got)
	}
	if s := readString(t, filepath.Join(w.Dir, "decisions.md")); s != "# Decisions\n\n- a\n" {
		t.Errorf("content %q", s)
	}
	noLeftovers(t, w.Dir, "decisions.md")
	t.Logf("waited %v for the HackLM holder", elapsed)
}

// Tests 2-4: abandoned locks are recovered, fresh corrupt ones are not.
func TestInteropRecoversAbandonedLocks(t *testing.T) {
	oldTime := time.Now().Add(-11 * time.Second)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"stale by age, live pid", func(t *testing.T, dir string) {
			// A writer crashed 11 s ago; its pid now names a live process.
			writeLock(t, dir, fmt.Sprintf(`{"pid":%d,"ts":%d}`, os.Getppid(), oldTime.UnixMilli()), time.Time{})
		}},
		{"dead pid, fresh ts", func(t *testing.T, dir string) {
			h := startHelper(t, "hacklm-crash", filepath.Dir(dir), "")
			h.wait(t)
		}},
		{"empty, mtime 11 s old", func(t *testing.T, dir string) { writeLock(t, dir, "", oldTime) }},
		{"garbage, mtime 11 s old", func(t *testing.T, dir string) { writeLock(t, dir, "{not json", oldTime) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			w, _ := Open(root)
			mkdirs(t, w.Dir)
			tc.setup(t, w.Dir)
			if _, err := os.Stat(filepath.Join(w.Dir, ".lock")); err != nil {
				t.Fatalf("setup left no lock: %v", err)
			}
			start := time.Now()
			if _, err := w.Update(context.Background(), appendIfAbsent("- a\n")); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("recovery took %v", d)
			}
			if n := countLine(t, filepath.Join(w.Dir, "decisions.md"), "- a\n"); n != 1 {
				t.Errorf("%d lines", n)
			}
			noLeftovers(t, w.Dir, "decisions.md")
		})
	}
}

// TestInteropFreshCorruptLockWaitsUntilStale: a fresh unreadable lock (a
// writer killed between creating it and writing its content) holds the
// writer past its tries until the lock is stale by its mtime; then it is
// removed, the write goes ahead and no lock is left. A short Stale keeps the
// test quick; the fake-clock tests in lock_test.go check the schedule.
func TestInteropFreshCorruptLockWaitsUntilStale(t *testing.T) {
	for _, content := range []string{"", "garbage", `{"ts":1}`} {
		t.Run(strconv.Quote(content), func(t *testing.T) {
			w, _ := Open(t.TempDir())
			w.Lock = LockOptions{Tries: 4, Step: 10 * time.Millisecond, Stale: 300 * time.Millisecond}
			mkdirs(t, w.Dir)
			writeLock(t, w.Dir, content, time.Time{})
			if _, err := w.Update(context.Background(), appendIfAbsent("- a\n")); err != nil {
				t.Fatalf("err = %v, want the lock recovered once stale", err)
			}
			if n := countLine(t, filepath.Join(w.Dir, "decisions.md"), "- a\n"); n != 1 {
				t.Errorf("%d lines", n)
			}
			noLeftovers(t, w.Dir, "decisions.md")
		})
	}
}

func TestInteropProcessesAppendOnce(t *testing.T) {
	root := t.TempDir()
	var hs []*helperProc
	for range 4 {
		hs = append(hs, startHelper(t, "append-once", root, ""))
	}
	for _, h := range hs {
		h.wait(t)
	}
	dir := filepath.Join(root, ".memory")
	if n := countLine(t, filepath.Join(dir, "decisions.md"), "- x\n"); n != 1 {
		t.Errorf("%d copies, want exactly 1", n)
	}
	noLeftovers(t, dir, "decisions.md")
}

func TestInteropProcessesAppendMany(t *testing.T) {
	root := t.TempDir()
	var hs []*helperProc
	for p := range 4 {
		hs = append(hs, startHelper(t, "append-many", root, strconv.Itoa(p)))
	}
	for _, h := range hs {
		h.wait(t)
	}
	dir := filepath.Join(root, ".memory")
	s := readString(t, filepath.Join(dir, "decisions.md"))
	if !strings.HasPrefix(s, "# Decisions\n\n") {
		t.Errorf("header lost: %.40q", s)
	}
	if n := strings.Count(s, "\n- p"); n != 200 {
		t.Errorf("%d lines, want 200", n)
	}
	for p := range 4 {
		for i := range 50 {
			if c := strings.Count(s, fmt.Sprintf("\n- p%d-%d\n", p, i)); c != 1 {
				t.Errorf("line p%d-%d appears %d times", p, i, c)
			}
		}
	}
	noLeftovers(t, dir, "decisions.md")
}
