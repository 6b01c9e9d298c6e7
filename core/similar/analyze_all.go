package similar

import (
	"runtime"
	"sync"
)

// parallelMin is the batch size below which AnalyzeAll stays on one
// goroutine: for a category file of a few dozen entries the goroutines would
// cost more than they save.
const parallelMin = 512

// AnalyzeAll analyses many texts, spreading the work over the available
// cores. A whole-workspace check of thousands of entries spends a large part
// of its time here, and each text is independent of the others.
func AnalyzeAll(contents []string) []*Text {
	out := make([]*Text, len(contents))
	workers := min(runtime.GOMAXPROCS(0), len(contents)/parallelMin)
	if workers <= 1 {
		for i, c := range contents {
			out[i] = Analyze(c)
		}
		return out
	}
	var wg sync.WaitGroup
	chunk := (len(contents) + workers - 1) / workers
	for start := 0; start < len(contents); start += chunk {
		end := min(start+chunk, len(contents))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := start; i < end; i++ {
				out[i] = Analyze(contents[i])
			}
		}()
	}
	wg.Wait()
	return out
}
