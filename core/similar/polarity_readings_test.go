package similar

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestPolarityReadings runs a red team's pairs (testdata/polarity_readings.tsv)
// through the store's decision: each must land on an outcome its row
// accepts, so that a negation said in other words, an exception in an aside,
// negators moving with their words and files of a numbered series stay read
// as they are, and no reading claims a reversal the row does not accept.
func TestPolarityReadings(t *testing.T) {
	f, err := os.Open("testdata/polarity_readings.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	letter := map[Action]string{Skip: "K", Update: "U", Conflict: "C", Store: "S"}
	th := Thresholds{Skip: 0.8, Update: 0.6}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("row %q: want 4 columns, got %d", line, len(cols))
		}
		accepted, olds, newText := strings.Split(cols[0], "|"), strings.Split(cols[1], " || "), cols[2]
		var existing []*Text
		for _, o := range olds {
			existing = append(existing, Analyze(o))
		}
		_, v := Decide(Analyze(newText), existing, th)
		if got := letter[v.Action]; !contains(accepted, got) {
			t.Errorf("%q → %q: decided %s (%s %q), accepted %s (%s)", cols[1], newText, got, v.Kind, v.Reason, cols[0], cols[3])
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 200 {
		t.Fatalf("read %d pairs, want the red team's 200 or more", n)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
