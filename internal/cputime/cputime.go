// Package cputime reports a benchmark's process CPU time per operation next
// to ns/op. The shared build machines are often oversubscribed, and then wall
// time measures the queue for a core rather than the code under test; CPU
// time does not.
package cputime

import (
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
