package similar

import (
	"fmt"
	"reflect"
	"testing"
)

func TestAnalyzeAllEqualsAnalyze(t *testing.T) {
	for _, n := range []int{0, 3, parallelMin*2 + 7} {
		contents := make([]string, n)
		for i := range contents {
			contents[i] = fmt.Sprintf("Never deploy service%d over v%d.%d — 发布前更新日志 %d", i%17, i%5, i%3, i)
		}
		got := AnalyzeAll(contents)
		if len(got) != n {
			t.Fatalf("n=%d: %d results", n, len(got))
		}
		for i, c := range contents {
			if want := Analyze(c); !reflect.DeepEqual(got[i], want) {
				t.Fatalf("n=%d: text %d differs:\n%+v\n%+v", n, i, got[i], want)
			}
		}
	}
}

func TestParallelPanicReachesCaller(t *testing.T) {
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the worker's panic", p)
		}
	}()
	n := 4 * parallelMin
	parallel(n, func(from, to int) {
		if to == n { // the last chunk, whether one worker or several
			panic("boom")
		}
	})
	t.Error("parallel returned normally")
}
