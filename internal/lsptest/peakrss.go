package lsptest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// PeakRSS runs cmd and returns its peak resident memory in bytes. The
// kernel's figure for a child (wait4's ru_maxrss) is the child's own only
// when the parent is smaller: Go starts a child as a vfork that shares the
// parent's memory until it execs, and the exec folds that memory's peak
// into the child's. A test process under -race, beside a package's other
// tests, is often larger than the program it measures. So the child's
// VmHWM is also read from /proc while it runs, and the kernel's figure is
// taken when it exceeds the test process's own peak (then it is the
// child's); else the last VmHWM read, which misses at most what the child
// reached in its last two milliseconds. measured is false where neither
// is measured; err is the run's.
func PeakRSS(cmd *exec.Cmd) (peak int64, measured bool, err error) {
	if err := cmd.Start(); err != nil {
		return 0, false, err
	}
	done := make(chan struct{})
	polled := make(chan int64, 1)
	go func() {
		var last int64
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			if hwm, ok := statusBytes(cmd.Process.Pid, "VmHWM"); ok {
				last = max(last, hwm)
			}
			select {
			case <-done:
				polled <- last
				return
			case <-t.C:
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	last := <-polled
	if err != nil {
		return 0, false, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return last, last > 0, nil
	}
	maxrss := int64(ru.Maxrss) << 10 // kilobytes on Linux
	if self, ok := statusBytes(os.Getpid(), "VmHWM"); ok && maxrss <= self {
		return last, last > 0, nil
	}
	return maxrss, true, nil
}

// statusBytes is a size field of /proc/<pid>/status, in bytes.
func statusBytes(pid int, field string) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
