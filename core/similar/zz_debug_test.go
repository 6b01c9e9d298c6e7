package similar

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	f, err := os.Open(os.Getenv("ZZ_PAIRS"))
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) < 2 {
			continue
		}
		a, b := Analyze(strings.TrimSpace(p[0])), Analyze(strings.TrimSpace(p[1]))
		v := StoreVerdict(a, b, Thresholds{Skip: 0.8, Update: 0.6})
		fmt.Printf("%v %v %q sim=%.2f\n  A core=%v nums=%v\n  B core=%v nums=%v\n", v.Action, v.Kind, v.Reason, v.Similarity, a.Core(), a.Numbers(), b.Core(), b.Numbers())
	}
}

func TestZZUnits(t *testing.T) {
	for _, s := range strings.Split(os.Getenv("ZZ_S"), "|") {
		a := Analyze(s)
		fmt.Printf("%+v\n", a.shapeOf().units)
	}
}

func TestZZToks(t *testing.T) {
	for _, s := range strings.Split(os.Getenv("ZZ_S"), "|") {
		for _, tk := range shapeTokens(s) {
			fmt.Printf("%q u=%v v=%v c=%d; ", tk.s, tk.unit, tk.value, tk.clause)
		}
		fmt.Println()
	}
}

