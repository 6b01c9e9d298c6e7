//go:build soak

package lsp_test

// The soak of savestore_e2e_test.go: every cell many times, since a save
// that races a store loses an entry in some runs only. It prints a Markdown
// table of cell → runs, failures and what each failure left on disk and in
// the buffer, ready for RELIABILITY.md.
//
//	go test -tags soak -run TestSoakSaveStore -v -timeout 0 ./lsp/
//
// MEMLSP_SOAK_RUNS sets the runs per cell (20); MEMLSP_SOAK_LOAD=1 keeps
// every core busy with spinning child processes while it runs;
// MEMLSP_SOAK_TABLE names a file the table is also written to. -run selects
// cells by name (TestSoakSaveStore/writer=cli/delay=0s). Cells run in
// parallel up to -parallel (GOMAXPROCS by default); they mostly wait, so
// -parallel 4 is fine on two cores, but it adds load of its own.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// soakLoadFor bounds the spinning children's life, should the test's own
// cleanup never run.
const soakLoadFor = 2 * time.Hour

func TestSoakSaveStore(t *testing.T) {
	runs := 20
	if v := os.Getenv("MEMLSP_SOAK_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("MEMLSP_SOAK_RUNS=%q: want a positive number", v)
		}
		runs = n
	}
	load := "none"
	if os.Getenv("MEMLSP_SOAK_LOAD") == "1" {
		load = spin(t)
	}

	var cells []cell
	for _, w := range writerKinds {
		for _, d := range saveDelays {
			for _, m := range saveModes {
				cells = append(cells, storeThenSave{writer: w, delay: d, mode: m, versioned: true})
			}
		}
	}
	for _, order := range crossingOrders {
		for _, versioned := range []bool{true, false} {
			for _, m := range saveModes {
				cells = append(cells, crossing{order: order, versioned: versioned, mode: m})
			}
		}
	}
	for _, u := range userEdits {
		for _, m := range saveModes {
			u.mode = m
			cells = append(cells, u)
		}
	}
	for _, how := range gitRemovals {
		for _, m := range saveModes {
			cells = append(cells, gitRemoval{how: how, mode: m})
		}
	}

	tally := &soakTally{failures: map[string][]soakFailure{}, runs: map[string]int{}}
	started := time.Now()
	t.Cleanup(func() { tally.print(t, runs, load, time.Since(started)) }) // after every cell
	for _, c := range cells {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			for i := 1; i <= runs; i++ {
				o := &outcome{}
				ok := t.Run(fmt.Sprintf("run=%d", i), func(t *testing.T) { runOnce(t, c, o) })
				tally.add(c.String(), i, ok, o)
			}
		})
	}
}

// spin starts one busy child process per core, stopped when the test ends
// (or after soakLoadFor), and says what it started.
func spin(t *testing.T) string {
	ctx, cancel := context.WithTimeout(context.Background(), soakLoadFor)
	var cmds []*exec.Cmd
	for range runtime.NumCPU() {
		cmd := exec.CommandContext(ctx, "sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatalf("starting the load: %v", err)
		}
		cmds = append(cmds, cmd)
	}
	t.Cleanup(func() {
		cancel()
		for _, cmd := range cmds {
			cmd.Wait() // killed by the cancel: its error says so
		}
	})
	return fmt.Sprintf("%d spinning processes", len(cmds))
}

type soakFailure struct {
	run  int
	seen string
}

// soakTally counts the runs and failures of each cell; cells report from
// their own goroutines.
type soakTally struct {
	mu       sync.Mutex
	order    []string
	runs     map[string]int
	failures map[string][]soakFailure
}

func (s *soakTally) add(cell string, run int, ok bool, o *outcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, seen := s.runs[cell]; !seen {
		s.order = append(s.order, cell)
	}
	s.runs[cell]++
	if !ok {
		s.failures[cell] = append(s.failures[cell], soakFailure{run, o.String()})
	}
}

// print writes the table: one row per cell, the failures of a cell grouped
// by what they left, with the runs that left it.
func (s *soakTally) print(t *testing.T, runs int, load string, took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "\nsave × store soak: %d runs per cell, GOMAXPROCS %d, extra load: %s, %s, took %v\n\n",
		runs, runtime.GOMAXPROCS(0), load, runtime.Version(), took.Round(time.Second))
	b.WriteString("| cell | runs | failed | what the failures left (runs) |\n|---|---|---|---|\n")
	cells := slices.Clone(s.order)
	slices.Sort(cells)
	total, failed := 0, 0
	for _, c := range cells {
		fs := s.failures[c]
		total += s.runs[c]
		failed += len(fs)
		var groups []string
		byWhat := map[string][]string{}
		for _, f := range fs {
			if _, ok := byWhat[f.seen]; !ok {
				groups = append(groups, f.seen)
			}
			byWhat[f.seen] = append(byWhat[f.seen], strconv.Itoa(f.run))
		}
		var what []string
		for _, g := range groups {
			what = append(what, fmt.Sprintf("%s (%s)", g, strings.Join(byWhat[g], ", ")))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s |\n", c, s.runs[c], len(fs), strings.ReplaceAll(strings.Join(what, "<br>"), "|", "\\|"))
	}
	fmt.Fprintf(&b, "\n%d runs of %d cells, %d failed\n", total, len(cells), failed)
	fmt.Print(b.String())
	if name := os.Getenv("MEMLSP_SOAK_TABLE"); name != "" {
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Errorf("writing the table: %v", err)
		}
	}
}
