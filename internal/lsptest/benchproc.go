package lsptest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ProcStatusMB reads a "kB" field of /proc/<pid>/status (VmRSS, VmHWM), in
// MB, for benchmarks of the resident memory of a server process.
func ProcStatusMB(tb testing.TB, pid int, field string) float64 {
	tb.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				tb.Fatalf("%s: %v", line, err)
			}
			return float64(kb) / 1024
		}
	}
	tb.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// BenchNewEntry is the i-th of a series of entries that share no keyword
// with each other nor with a generated workspace (its words are made of
// letters the generator's vocabulary does not combine so), so that every
// store of one is a plain append, never a skip or an update.
func BenchNewEntry(i int) string {
	word := func(k int) string {
		const syl = "zuqovyxejiwa"
		var b strings.Builder
		b.WriteString("zq")
		for k++; k > 0; k /= len(syl) {
			b.WriteByte(syl[k%len(syl)])
		}
		return b.String()
	}
	w := make([]string, 6)
	for j := range w {
		w[j] = word(i*len(w) + j)
	}
	return fmt.Sprintf("Store %s %s through %s before %s with %s and %s.", w[0], w[1], w[2], w[3], w[4], w[5])
}

// ProcCPU is the CPU time (user and system) process pid has used so far,
// from /proc/<pid>/stat, in clock ticks of 10 ms: the server's own cost of
// a benchmark's operations, which waiting for a busy core does not inflate.
func ProcCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	// The command name, in parentheses, may hold spaces: count from after it.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		tb.Fatalf("/proc/%d/stat: %q", pid, data)
	}
	utime, err1 := strconv.Atoi(f[11])
	stime, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		tb.Fatalf("/proc/%d/stat: %q", pid, data)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// ReportProcCPU reports the CPU time process pid used since start, per
// operation, as server-cpu-ms/op.
func ReportProcCPU(b *testing.B, pid int, start time.Duration) {
	b.ReportMetric(float64((ProcCPU(b, pid)-start).Microseconds())/1000/float64(b.N), "server-cpu-ms/op")
}

// ResidentMemory starts cmd, runs session with a client of it, and returns
// the process's resident memory (VmRSS) and its peak (VmHWM), in MB, read
// when the session's last answer came, and its resident memory settled:
// read again after three seconds without a request, by when a server that
// gives its free heap back when idle (cmd/memory-lsp/idlememory.go) has.
func ResidentMemory(tb testing.TB, cmd *exec.Cmd, session func(c *Client)) (rss, peak, settled float64) {
	tb.Helper()
	c := Start(tb, cmd)
	session(c)
	rss, peak = ProcStatusMB(tb, cmd.Process.Pid, "VmRSS"), ProcStatusMB(tb, cmd.Process.Pid, "VmHWM")
	time.Sleep(3 * time.Second)
	settled = ProcStatusMB(tb, cmd.Process.Pid, "VmRSS")
	c.Shutdown()
	c.ExitCode()
	return rss, peak, settled
}
