// Package longtest marks the tests that `go test ./...` leaves out: the
// equivalence, scale, soak and end-to-end reliability tests that take
// seconds each. The README's test command stays quick enough to run after
// every change; `.ci/run` runs them all with `go test -tags long -p 1 ./...`.
package longtest

import "testing"

// Skip skips the test unless the build has the long tag.
func Skip(tb testing.TB) {
	tb.Helper()
	if !enabled {
		tb.Skip("a long test: run with go test -tags long")
	}
}

// Enabled reports whether the build has the long tag.
func Enabled() bool { return enabled }
