package memory

import (
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
)

// A store decided a plain new entry names the entries on the same subject
// (issue 27: restatements and reversals by meaning the verdict cannot tell
// from a second fact) and leaves them as they are.
func TestStoreNamesEntriesOnTheSameSubject(t *testing.T) {
	tests := []struct {
		name        string
		entries     []string
		content     string
		wantAction  string
		wantRelated []string // contents, best first
	}{
		{
			name:        "a reversal by meaning",
			entries:     []string{"Mock the NIM client in unit tests.", "Deploy with Helm charts."},
			content:     "Unit tests call the real NIM endpoint.",
			wantAction:  ActionStored,
			wantRelated: []string{"Mock the NIM client in unit tests."},
		},
		{
			name:        "a restatement in other words",
			entries:     []string{"Keep secrets out of the Docker image."},
			content:     "Docker images must not contain secrets.",
			wantAction:  ActionStored,
			wantRelated: []string{"Keep secrets out of the Docker image."},
		},
		{
			name:        "at most two, the most overlapping first",
			entries:     []string{"Run the linter before pushing.", "Unit tests mock the NIM client.", "The NIM endpoint times out in unit tests.", "Mock every NIM call in unit tests."},
			content:     "Unit tests call the real NIM endpoint.",
			wantAction:  ActionStored,
			wantRelated: []string{"The NIM endpoint times out in unit tests.", "Mock every NIM call in unit tests."},
		},
		{
			name:       "an unrelated entry sharing one word is not named",
			entries:    []string{"Run unit tests with -race."},
			content:    "Store uploads in the eu-west-1 bucket.",
			wantAction: ActionStored,
		},
		{
			name:       "a sibling is reported as a sibling, not as related",
			entries:    []string{"Use Prometheus for metrics in all services."},
			content:    "Use Datadog for metrics in all services.",
			wantAction: ActionStored,
		},
		{
			name:       "an update names nothing more",
			entries:    []string{"Pin Terraform to 1.5.7 in CI."},
			content:    "Pin Terraform to 1.9.0 in CI.",
			wantAction: ActionUpdated,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := "# Decisions\n\n"
			for _, e := range tt.entries {
				cur += "- " + e + "\n"
			}
			out, res, err := PlanStore([]byte(cur), Store{Category: category.Decision, Content: tt.content}, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tt.wantAction {
				t.Fatalf("action %q, want %q (%s)", res.Action, tt.wantAction, res.Message)
			}
			var got []string
			for _, r := range res.Related {
				got = append(got, r.Content)
				if !strings.Contains(res.Message, `"`+r.Content+`"`) {
					t.Errorf("message does not name %q: %s", r.Content, res.Message)
				}
			}
			if !slices.Equal(got, tt.wantRelated) {
				t.Errorf("related %q, want %q", got, tt.wantRelated)
			}
			if len(tt.wantRelated) == 0 && strings.Contains(res.Message, "same subject") {
				t.Errorf("message names a related entry: %s", res.Message)
			}
			if tt.wantAction == ActionStored {
				for _, e := range tt.entries {
					if !strings.Contains(string(out), "- "+e+"\n") {
						t.Errorf("entry %q lost: %q", e, out)
					}
				}
			}
		})
	}
}

// A store into a full category evicts an entry: the entries named are at
// their lines after the write, and the evicted one is not named (the reply
// sends the caller to remove a line; it must be the line named).
func TestStoreNamesRelatedAfterEviction(t *testing.T) {
	cfg := limited(category.Instruction, 3)
	cur := "# Instructions\n\n- Maybe check logs.\n- Always run database migrations with make migrate before deploying the API service.\n- Rollouts for the API are blue green canary.\n"
	out, res, err := PlanStore([]byte(cur), Store{Category: category.Instruction, Content: "Blue green canary rollouts of the API need a manual approval step in staging."}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Evicted == nil || res.Evicted.Content != "Maybe check logs." {
		t.Fatalf("evicted %+v, want the weakest entry", res.Evicted)
	}
	if len(res.Related) != 1 || res.Related[0].Content != "Rollouts for the API are blue green canary." {
		t.Fatalf("related %+v", res.Related)
	}
	lines := strings.Split(string(out), "\n")
	if got := lines[res.Related[0].Line-1]; got != "- Rollouts for the API are blue green canary." {
		t.Errorf("related named at line %d, which holds %q:\n%s", res.Related[0].Line, got, out)
	}
	if !strings.Contains(res.Message, "(line 4)") {
		t.Errorf("message: %s", res.Message)
	}

	// the entry on the subject is the one evicted: not named
	cur = "# Instructions\n\n- Always run database migrations with make migrate before deploying the API service.\n- Run go vet and staticcheck before every commit in this repository.\n- Maybe canary logs.\n"
	_, res, err = PlanStore([]byte(cur), Store{Category: category.Instruction, Content: "Canary logs live in Loki."}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Evicted == nil || res.Evicted.Content != "Maybe canary logs." || len(res.Related) != 0 || strings.Contains(res.Message, "same subject") {
		t.Errorf("evicted %+v, related %+v: %s", res.Evicted, res.Related, res.Message)
	}
}
