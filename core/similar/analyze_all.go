package similar

import (
	"runtime"
	"sync"
)

// parallelMin is the batch size below which the work stays on one
// goroutine: for a category file of a few dozen entries the goroutines would
// cost more than they save.
const parallelMin = 512

// AnalyzeAll analyses many texts, spreading the work over the available
// cores. A whole-workspace check of thousands of entries spends a large part
// of its time here, and each text is independent of the others.
func AnalyzeAll(contents []string) []*Text {
	out := make([]*Text, len(contents))
	parallel(len(contents), func(from, to int) {
		for i := from; i < to; i++ {
			out[i] = Analyze(contents[i])
		}
	})
	return out
}

// parallel runs work over [0, n) in contiguous chunks, one per core, or on
// the calling goroutine when n is too small to be worth it.
func parallel(n int, work func(from, to int)) {
	workers := min(runtime.GOMAXPROCS(0), n/parallelMin)
	if workers <= 1 {
		work(0, n)
		return
	}
	var wg sync.WaitGroup
	panics := make(chan any, workers)
	chunk := (n + workers - 1) / workers
	for start := 0; start < n; start += chunk {
		end := min(start+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A panic must reach the caller's goroutine, where the language
			// server recovers it, instead of ending the process here.
			defer func() {
				if p := recover(); p != nil {
					panics <- p
				}
			}()
			work(start, end)
		}()
	}
	wg.Wait()
	select {
	case p := <-panics:
		panic(p)
	default:
	}
}
