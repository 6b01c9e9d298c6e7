package similar

import (
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

func TestSpecificity(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"see main.go", 4 + 3},         // extension at the end; "go" is a whole word
		{"edit main.go/", 4 + 3},       // followed by a slash
		{"file.tar.gz here", 4},        // ".gz" before a space
		{"requirements.lock, then", 0}, // comma after the extension
		{"version.abcdef here", 0},     // six word characters are too many
		{"a/b", 4},
		{"testdata/ next", 0},
		{"gopher and git-lfs", 3}, // "git" before '-' is a whole word
		{"GIT push", 3 + 2},       // also a constant
		{"pip3 install", 0},
		{"_go_", 0},
		{"say \"hi\"", 2},
		{"it's", 2},
		{"it’s", 0},     // only ASCII quotes count
		{"v1.2", 4 + 2}, // ".2" at the end also reads as an extension
		{"v1.2, now", 2},
		{"1.x", 4}, // ".x" at the end is an extension, not a version
		{"API", 2},
		{"MAX_RETRIES", 2},
		{"___", 2},
		{"APIs", 0}, // the word run must be capitals only
		{"CI", 0},
		{"iPad", 2},
		{"Ünïcode ÄPI", 0},
		{"api/openapi.yaml `make` SDK_VERSION 3.1 OpenAPI", 15},
	}
	for _, tt := range tests {
		if got := specificityScore(tt.in); got != tt.want {
			t.Errorf("specificity(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestBrevityAndWeight(t *testing.T) {
	tests := []struct {
		n    int
		want int
	}{{0, 15}, {50, 15}, {51, 12}, {100, 12}, {101, 8}, {150, 8}, {151, 5}, {200, 5}, {201, 2}}
	for _, tt := range tests {
		if got := brevityScore(strings.Repeat("a", tt.n)); got != tt.want {
			t.Errorf("brevity(%d units) = %d, want %d", tt.n, got, tt.want)
		}
	}
	if got := brevityScore(strings.Repeat("🚀", 25) + "x"); got != 12 {
		t.Errorf("brevity of 25 emoji + 1 = %d, want 12 (51 UTF-16 units)", got)
	}
	want := map[category.Category]int{category.Security: 25, category.Instruction: 20, category.Decision: 15, category.Quirk: 10, category.Preference: 10, category.Category(99): 10}
	for cat, w := range want {
		if got, _, _ := ScoreTerms(cat, "x"); got != w {
			t.Errorf("weight(%v) = %d, want %d", cat, got, w)
		}
	}
}

func TestPruneOrder(t *testing.T) {
	// Scores (Decision): "a" 30, "Use `make` in /x" 39, "b" 30, "c" 30:
	// strongest first, and among equal scores the earlier line stays ahead,
	// so the last line is the weakest.
	order, scores := PruneOrder(category.Decision, []string{"a", "Use `make` in /x", "b", "c"})
	if want := []int{1, 0, 2, 3}; !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v (scores %v)", order, want, scores)
	}
	if scores[0] != 30 || scores[1] != 39 {
		t.Errorf("scores = %v", scores)
	}
}
