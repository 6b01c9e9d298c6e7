// Package cputime reports a benchmark's process CPU time per operation next
// to ns/op. The shared build machines are often oversubscribed, and then wall
// time measures the queue for a core rather than the code under test; CPU
// time does not.
package cputime

import (
	"os/exec"
	"testing"
	"time"
)

// Timer holds the process CPU time at its start.
type Timer struct{ start time.Duration }

// Start reads the process CPU time now.
func Start() Timer { return Timer{now()} }

// Report adds the CPU time since Start, per operation, as cpu-ns/op.
func (t Timer) Report(b *testing.B) {
	b.ReportMetric(float64(now()-t.start)/float64(b.N), "cpu-ns/op")
}

// Processes adds up the CPU time (user and system, from their rusage) of
// the processes a benchmark runs, for benchmarks of a program rather than
// of code in the test's process: their wall time includes waiting for a
// core, their CPU time does not.
type Processes struct {
	total time.Duration
	n     int
}

// Run runs cmd and counts its CPU time.
func (p *Processes) Run(cmd *exec.Cmd) error {
	err := cmd.Run()
	if cmd.ProcessState != nil {
		p.total += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		p.n++
	}
	return err
}

// Report reports the mean CPU time per process as cpu-ms/op.
func (p *Processes) Report(b *testing.B) {
	if p.n > 0 {
		b.ReportMetric(float64(p.total.Microseconds())/1000/float64(p.n), "cpu-ms/op")
	}
}
