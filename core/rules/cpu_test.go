package rules

import (
	"syscall"
	"testing"
	"time"
)

// cpuTimer (as in core/similar) reports the process CPU time per operation next to ns/op. The
// shared build machines are often oversubscribed, and then wall time measures
// the queue for a core rather than this code.
type cpuTimer struct{ start time.Duration }

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuTimer { return cpuTimer{cpuNow()} }

func (c cpuTimer) report(b *testing.B) {
	b.ReportMetric(float64(cpuNow()-c.start)/float64(b.N), "cpu-ns/op")
}
