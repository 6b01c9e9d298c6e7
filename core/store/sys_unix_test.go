//go:build unix

package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestAliveFromErr(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, true},
		{syscall.EPERM, true}, // exists, owned by someone else: alive (HackLM says dead)
		{syscall.ESRCH, false},
		{fmt.Errorf("wrapped: %w", syscall.ESRCH), false},
		{syscall.EINVAL, true},
	}
	for _, tc := range tests {
		if got := aliveFromErr(tc.err); got != tc.want {
			t.Errorf("aliveFromErr(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	if !processAlive(os.Getpid()) {
		t.Error("our own pid is not alive")
	}
}

// deadPID starts a process, waits for it and returns its (now free) pid.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MEMLSP_HELPER=exit")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Skipf("pid %d was reused already", pid)
	}
	return pid
}

func TestAcquireDeadPIDDefaultProbe(t *testing.T) {
	dir := t.TempDir()
	pid := deadPID(t)
	clk := newFakeClock()
	p := writeLock(t, dir, fmt.Sprintf(`{"pid":%d,"ts":%d}`, pid, clk.Now().UnixMilli()), time.Time{})
	l, err := Acquire(dir, LockOptions{PID: 4242, Now: clk.Now, Sleep: clk.Sleep}) // default Alive
	if err != nil {
		t.Fatalf("dead holder's lock not recovered: %v", err)
	}
	if got, want := readString(t, p), fmt.Sprintf(`{"pid":4242,"ts":%d}`, clk.Now().UnixMilli()); got != want {
		t.Errorf("lock = %q, want %q", got, want)
	}
	l.Release()
}

func TestWriteFileAtomicIgnoresUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "new.md")
	if err := WriteFileAtomic(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", fi.Mode().Perm())
	}
}
