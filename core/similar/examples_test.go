package similar

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/text"
	"github.com/memory-lsp/memory-lsp/internal/hacklm"
)

// examplesDir is ../shared/spec/examples (beside the clone) seen from this package.
var examplesDir = filepath.Join("..", "..", "..", "shared", "spec", "examples")

type dedupExample struct {
	ID       int    `json:"id"`
	Kind     string `json:"kind"`
	Category string `json:"category"`
	Existing string `json:"existing"`
	New      string `json:"new"`
	HackLM   struct {
		Action     string  `json:"action"`
		Similarity float64 `json:"similarity"`
	} `json:"hacklm"`
	Ideal string `json:"ideal"`
	Why   string `json:"why"`
}

type scoreExample struct {
	Category    string `json:"category"`
	Content     string `json:"content"`
	HackLMScore int    `json:"hacklm_score"`
	Terms       struct {
		Category    int `json:"category"`
		Brevity     int `json:"brevity"`
		Specificity int `json:"specificity"`
	} `json:"terms"`
	Note string `json:"note"`
}

func loadExamples(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examplesDir, name))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("calibration file %s not found (expected the shared spec beside the repo): %v", name, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

var defaultTh = Thresholds{Skip: 0.8, Update: 0.6}

// hackLMDecide is HackLM's checkDuplicate for one existing entry.
func hackLMDecide(existing, new string) (string, float64) {
	if hacklm.Normalize(existing) == hacklm.Normalize(new) {
		return "skip", 1
	}
	sim := Jaccard(hacklm.Keywords(existing), hacklm.Keywords(new))
	switch {
	case sim >= 0.8:
		return "skip", sim
	case sim >= 0.6:
		return "update", sim
	}
	return "store", sim
}

func isASCIIText(s string) bool { return text.IsASCII(s) }

// departures are the examples whose ideal this project departs from, with
// its own (issue 27, whose two blind-labelled sets agree on each): #15 adds
// a word to the old entry ("… the JAVA_HOME environment variable"), and
// replacing the old with it loses nothing where a skip drops the detail;
// #12 ("Rate-limit the login endpoint to 5 attempts per minute per IP" /
// "The login endpoint is rate-limited to 5 attempts per minute for each
// IP") and #39 ("Résumé uploads …" / "Resume uploads …") hold the same
// words in another order, hyphenation or accent: the same fact, skipped.
var departures = map[int]string{15: "update", 12: "skip", 39: "skip"}

func TestDedupExamples(t *testing.T) {
	var exs []dedupExample
	loadExamples(t, "dedup-examples.json", &exs)
	if len(exs) != 40 {
		t.Errorf("got %d dedup examples, want 40", len(exs))
	}
	parity := 0
	for _, ex := range exs {
		action, sim := hackLMDecide(ex.Existing, ex.New)
		if action != ex.HackLM.Action || math.Abs(sim-ex.HackLM.Similarity) > 1e-9 {
			t.Errorf("#%d HackLM model: %s %.17g, recorded %s %.17g", ex.ID, action, sim, ex.HackLM.Action, ex.HackLM.Similarity)
		}
		match, v := Decide(Analyze(ex.New), []*Text{Analyze(ex.Existing)}, defaultTh)
		if d, ok := departures[ex.ID]; ok {
			ex.Ideal = d
		}
		if v.Action.String() != ex.Ideal {
			t.Errorf("#%d %s: got %s (%.3f, %q), ideal %s\n\told: %s\n\tnew: %s", ex.ID, ex.Kind, v.Action, v.Similarity, v.Reason, ex.Ideal, ex.Existing, ex.New)
		}
		if v.Action != Store && match != 0 {
			t.Errorf("#%d: match = %d, want 0", ex.ID, match)
		}
		if ex.Ideal == ex.HackLM.Action && isASCIIText(ex.Existing) && isASCIIText(ex.New) {
			parity++
			if math.Abs(v.Similarity-ex.HackLM.Similarity) > 1e-9 {
				t.Errorf("#%d: similarity %.17g, HackLM %.17g", ex.ID, v.Similarity, ex.HackLM.Similarity)
			}
		}
	}
	t.Logf("%d examples, %d checked for similarity parity", len(exs), parity)
}

func TestScoreExamples(t *testing.T) {
	var exs []scoreExample
	loadExamples(t, "score-examples.json", &exs)
	if len(exs) != 20 {
		t.Errorf("got %d score examples, want 20", len(exs))
	}
	for _, ex := range exs {
		cat, err := category.Parse(ex.Category)
		if err != nil {
			t.Fatal(err)
		}
		w, b, s := ScoreTerms(cat, ex.Content)
		if w != ex.Terms.Category || b != ex.Terms.Brevity || s != ex.Terms.Specificity {
			t.Errorf("%q: terms %d/%d/%d, want %d/%d/%d (%s)", ex.Content, w, b, s,
				ex.Terms.Category, ex.Terms.Brevity, ex.Terms.Specificity, ex.Note)
		}
		if got := Score(cat, ex.Content); got != ex.HackLMScore {
			t.Errorf("%q: score %d, want %d", ex.Content, got, ex.HackLMScore)
		}
	}
}
