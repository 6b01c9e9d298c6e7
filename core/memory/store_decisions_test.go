package memory

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gitRoot is a fresh git repository, as users work in one.
func gitRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	return root
}

// TestStoreDecisions: what a store does with an entry like one already
// stored, and what its reply says, through the service as the CLI and the
// MCP server call it.
func TestStoreDecisions(t *testing.T) {
	tests := []struct {
		name, existing, content string
		wantAction, wantKind    string
		wantFile                []string // the entries after, in order
		wantMsg                 string   // a part of the reply
	}{
		{"a sibling is stored beside", "Run eslint on frontend changes", "Run eslint on backend changes",
			ActionStored, "sibling", []string{"Run eslint on frontend changes", "Run eslint on backend changes"},
			`kept beside the similar entry "Run eslint on frontend changes" on line 3, as a second fact (sibling: "frontend" vs "backend")`},
		{"a French sibling is stored beside", "Toujours valider les entrées utilisateur", "Toujours valider les entrées du formulaire",
			ActionStored, "sibling", []string{"Toujours valider les entrées utilisateur", "Toujours valider les entrées du formulaire"}, "second fact"},
		{"a changed value is an update", "Pin Terraform to 1.5.7", "Pin Terraform to 1.9.0",
			ActionUpdated, "value", []string{"Pin Terraform to 1.9.0"}, "the same fact with a changed value"},
		{"a reversal with extra words is a conflict", "Always run tests with -race", "Never run tests with -race on CI; it is too slow",
			ActionConflict, "reversal", []string{"Never run tests with -race on CI; it is too slow"}, "reverses the old one; recorded in conflicts.log"},
		{"a reversal by word order is a conflict", "Use mocks instead of real services in tests", "Use real services instead of mocks in tests",
			ActionConflict, "reversal", []string{"Use real services instead of mocks in tests"}, "reverses"},
		{"a Russian reversal is a conflict", "Используйте pnpm, а не npm", "Используйте npm, а не pnpm",
			ActionConflict, "reversal", []string{"Используйте npm, а не pnpm"}, "reverses"},
		{"a true duplicate is skipped", "Keep SQL migrations idempotent.", "keep sql migrations idempotent",
			ActionSkipped, "duplicate", []string{"Keep SQL migrations idempotent."}, "Already stored something similar (100% match)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := gitRoot(t)
			path := filepath.Join(root, ".memory", "decisions.md")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("# Decisions\n\n- "+tt.existing+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			svc := newService(root)
			res, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: tt.content}, false)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tt.wantAction || res.Kind != tt.wantKind || !strings.Contains(res.Message, tt.wantMsg) {
				t.Errorf("got %s (%s): %s\nwant %s (%s) saying %q", res.Action, res.Kind, res.Message, tt.wantAction, tt.wantKind, tt.wantMsg)
			}
			var got []string
			for _, e := range entriesOf(t, root) {
				got = append(got, e.Content)
			}
			if strings.Join(got, "\n") != strings.Join(tt.wantFile, "\n") {
				t.Errorf("entries after:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.wantFile, "\n"))
			}
			log, err := os.ReadFile(filepath.Join(root, ".memory", ConflictLog))
			if tt.wantAction != ActionConflict {
				if err == nil {
					t.Errorf("conflicts.log written for a %s: %q", tt.wantAction, log)
				}
				return
			}
			line := fmt.Sprintf(`^\d{4}-\d\d-\d\d \| decisions\.md \|  \| OLD: "%s" \| NEW: "%s"\n$`, regexp.QuoteMeta(tt.existing), regexp.QuoteMeta(tt.content))
			if !regexp.MustCompile(line).Match(log) {
				t.Errorf("conflicts.log = %q, want HackLM's record matching %s", log, line)
			}
		})
	}
}

// TestConflictLogAppendsAndCaps: a reversal's record is appended after what
// another writer (HackLM, which appends without the lock) put there, and the
// log keeps its last 50 lines, as HackLM's cleanup trims it.
func TestConflictLogAppendsAndCaps(t *testing.T) {
	root := gitRoot(t)
	dir := filepath.Join(root, ".memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var old strings.Builder
	for i := range 60 {
		fmt.Fprintf(&old, "2026-01-01 | decisions.md | s%d | OLD: \"a\" | NEW: \"b\"\n\n", i)
	}
	logPath := filepath.Join(dir, ConflictLog)
	if err := os.WriteFile(logPath, []byte(old.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := newService(root)
	ctx := context.Background()
	if _, err := svc.Store(ctx, StoreRequest{Category: "Decision", Content: "Enable the query cache in staging", Slug: "cache"}, false); err != nil {
		t.Fatal(err)
	}
	res, err := svc.Store(ctx, StoreRequest{Category: "Decision", Content: "Disable the query cache in staging"}, false)
	if err != nil || res.Action != ActionConflict {
		t.Fatalf("store: %v %+v", err, res)
	}
	b, _ := os.ReadFile(logPath)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 50 {
		t.Fatalf("conflicts.log has %d lines, want the last 50:\n%s", len(lines), b)
	}
	if lines[0] != `2026-01-01 | decisions.md | s11 | OLD: "a" | NEW: "b"` {
		t.Errorf("first kept line %q, want s11's (the last 49 old ones)", lines[0])
	}
	if want := `| decisions.md | cache | OLD: "Enable the query cache in staging" | NEW: "Disable the query cache in staging"`; !strings.HasSuffix(lines[49], want) {
		t.Errorf("last line %q, want the new record ending %q", lines[49], want)
	}
}
